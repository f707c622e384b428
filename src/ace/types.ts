// Shapes shared by the ACE planners (executor, reflector, curator, dreams) and the service that
// applies their plans. Pure types; imports only core.
import type { EntryType } from '../core/document.js';

/** One tool call of a finished task, as agents report them (`tool_name` + `arguments`, `result` optional). */
export interface ToolUse {
  readonly tool_name: string;
  readonly arguments?: Readonly<Record<string, unknown>> | string | null;
  readonly result?: unknown;
}

/**
 * A completed task (docs/DESIGN.md §6): the JSON of `gitmem complete-task --input task.json`, stdin, the
 * library call and the MCP tool `memory_complete_task`.
 */
export interface TaskInput {
  /** What the agent set out to do. Required, non-empty. */
  readonly goal: string;
  /** What happened (the outcome). Required, non-empty. */
  readonly result: string;
  /** Tool calls made during the task; files and relations are read from them. */
  readonly tool_usage?: readonly ToolUse[];
  /** What the user or reviewer said afterwards (weighs heavily in classification). */
  readonly feedback?: string;
  /** Agent name (`claude-code`, `codex`, …), written to `source.agent` and the commit body. */
  readonly agent?: string;
  readonly session?: string;
  readonly task?: string;
  /** Extra tags to add (merged with the extracted ones). */
  readonly tags?: readonly string[];
  /** Force the memory type instead of the rules' choice. */
  readonly type?: EntryType;
  /** Folder the agent worked in (absolute, or relative to the workspace): its relative tool paths are under it. */
  readonly cwd?: string;
}

/** How a task touched a code file (schemas/entry.schema.json `files[].relation`). */
export type FileRelation = 'read' | 'modified' | 'created' | 'deleted' | 'referenced';

/** A code file linked to a memory. `lines` is `[start, end]`, 1-based inclusive, when known. */
export interface LinkedFile {
  readonly path: string;
  readonly relation: FileRelation;
  readonly lines?: readonly [number, number];
}

/** Why a type was chosen: per-type scores and the rules that fired. */
export interface Classification {
  readonly type: EntryType;
  readonly scores: Readonly<Record<EntryType, number>>;
  readonly rules: readonly string[];
}

/** An insight the reflector found in a task. */
export interface Insight {
  /** `root_cause`: error → cause; `gotcha`: a trap to avoid; `pattern`: a way of working that worked. */
  readonly kind: 'root_cause' | 'gotcha' | 'pattern';
  /** One line of guidance. */
  readonly text: string;
  /** For `root_cause`: the error it explains. */
  readonly error?: string;
  /** Which task field it came from. */
  readonly from: 'goal' | 'result' | 'feedback' | 'tool_usage';
}

/** Playbook categories (schemas/playbook.schema.json). */
export type PlaybookCategory = 'dependencies' | 'architecture' | 'gotchas' | 'patterns' | 'testing' | 'workflow';

/** A proposed playbook change. `add` writes a new file; `update` edits one; `delete` soft-deletes (`active: false`). */
export type PlaybookDelta =
  | {
      readonly op: 'add';
      readonly id: string;
      readonly category: PlaybookCategory;
      readonly priority: number;
      readonly title: string;
      readonly text: string;
      readonly tags: readonly string[];
      readonly supporting: readonly string[];
      readonly reason: string;
    }
  | {
      readonly op: 'update';
      readonly id: string;
      readonly path: string;
      /** Bullet appended to the body. */
      readonly append: string;
      readonly reason: string;
    }
  | {
      readonly op: 'delete';
      readonly id: string;
      readonly path: string;
      readonly reason: string;
    };

/** A delta the curator dropped, and why (duplicate, too short, …). */
export interface RejectedDelta {
  readonly delta: PlaybookDelta;
  readonly reason: string;
}
