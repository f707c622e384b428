// The MCP tools (docs/DESIGN.md §8): definitions (JSON Schema inputs, read-only/destructive annotations) and
// handlers that call the service layer. No SDK types here: server.ts adapts these to the protocol.
// Every handler's failure becomes a tool error (isError), never an exception out of the server.
// deps: service, core.
import { pageOf } from './page.js';
import { DOC_KINDS, ENTRY_TYPES } from '../core/document.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import type { MemoryFs } from '../core/ports.js';
import type { Clock } from '../core/ports.js';
import { refuseSecretsInInput } from '../core/secrets.js';
import { completeTask } from '../service/ace/complete-task.js';
import { readAudit } from '../service/recall/audit.js';
import { forgetEntry } from '../service/files/forget.js';
import { checkpointMemory, type GitLocation } from '../service/git-ops/git-ops.js';
import type { Memory } from '../service/memory.js';
import type { RecallMode } from '../service/recall/recall.js';
import { createStateService, type StateService, type StateUpdate } from '../service/state/state.js';
import { checkArguments, type JsonSchema } from '../validate/arguments.js';
import { recordWriter } from '../service/review/writers.js';
import { toRelPath } from '../core/paths.js';

/** What the tools need: the opened workspace and its file access (same root), and the repository. */
export interface McpToolDeps {
  readonly memory: Memory;
  readonly fs: MemoryFs;
  readonly git: GitLocation;
  readonly clock?: Clock;
}

/** MCP tool annotations (hints for hosts: what may change, what may be lost). */
export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { readonly type: 'object' };
  readonly annotations: ToolAnnotations;
}

/** A tool's answer: JSON data, or an error with a stable code. */
export type ToolOutcome =
  | { readonly ok: true; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string; readonly hint?: string } };

const str = (description: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: 'string',
  description,
  ...extra,
});
const strings = (
  description: string,
  items: JsonSchema = { type: 'string', minLength: 1, maxLength: 4000 },
): JsonSchema => ({
  type: 'array',
  description,
  items,
  maxItems: 100,
});
const object = (properties: Record<string, JsonSchema>, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as const;

const readOnly = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
const writes = (title: string, destructive: boolean, idempotent: boolean): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
});

const STATE_FIELDS = {
  objective: str('What the work is for. A placeholder ("None", "idle") ends the active work.', { maxLength: 4000 }),
  step: str('The current step.', { maxLength: 4000 }),
  next: str('The next action.', { maxLength: 4000 }),
  decisions: strings('Key decisions to add (kept unless already present).'),
  blockers: strings('Blockers to add.'),
  results: strings('Results the user has not seen yet, to add.'),
};

/** The tools, in the order hosts list them. */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    name: 'memory_recall',
    description:
      'Search the project memory (markdown in git) by meaning and keyword. Returns ranked chunks with path, 1-based line range, heading path, snippet and, for typed entries, id/type/tags. Use before starting work and when a question may have been answered before.',
    inputSchema: object(
      {
        // No minLength: an empty query is an empty result with a hint, as in the CLI and the backends.
        query: str('What to look for, in plain words (an empty query returns no results and a hint).', {
          maxLength: 2000,
        }),
        mode: {
          type: 'string',
          enum: ['keyword', 'vector', 'hybrid'],
          description: 'Recall mode (default hybrid; keyword when no model is installed).',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Number of results (default 10).' },
        types: strings('Only entries of these types.', { type: 'string', enum: [...ENTRY_TYPES] }),
        tags: strings('Only memories with these tags.'),
        kinds: strings('Only these document kinds.', { type: 'string', enum: [...DOC_KINDS] }),
        file: str('Only entries linked to code files matching this glob.', { maxLength: 1000 }),
        since: str('Only memories dated on or after YYYY-MM-DD.', { pattern: '^\\d{4}-\\d{2}-\\d{2}' }),
        until: str('Only memories dated on or before YYYY-MM-DD.', { pattern: '^\\d{4}-\\d{2}-\\d{2}' }),
        all: { type: 'boolean', description: 'Include superseded, archived and duplicate memories.' },
        budget: {
          type: 'integer',
          minimum: 64,
          maximum: 100000,
          description:
            'Also render a "### Recalled Context" block of at most this many UTF-8 bytes (field context.text): the most relevant lines, path and line numbers per item.',
        },
        context: {
          type: 'integer',
          minimum: 0,
          maximum: 50,
          description: 'Lines of surrounding context per result (field contextSpan).',
        },
      },
      ['query'],
    ),
    annotations: readOnly('Recall memory'),
  },
  {
    name: 'memory_remember',
    description:
      'Write a typed memory entry (a markdown file with YAML front-matter under entries/). Deduplicated against entries of the same type: returns status "duplicate" and writes nothing when it is already known. When the new entry contradicts one of the same type and tags, it is still written and the answer has possible_conflict {id, path, reasons, options}: supersede the old one or keep both (ask the user; never merge).',
    inputSchema: object(
      {
        text: str('The memory, one self-contained statement (markdown).', { minLength: 1, maxLength: 20000 }),
        type: { type: 'string', enum: [...ENTRY_TYPES], description: 'Memory type (default learning).' },
        tags: strings('Tags.', { type: 'string', minLength: 1, maxLength: 100 }),
        files: strings('Workspace-relative code files the memory is about.', {
          type: 'string',
          minLength: 1,
          maxLength: 1000,
        }),
        title: str('Title (default: the first words of the text).', { minLength: 1, maxLength: 200 }),
      },
      ['text'],
    ),
    annotations: writes('Remember', false, true),
  },
  {
    name: 'memory_get',
    description:
      'Read a memory by entry id, or a memory file with an optional line range: "path[:start[-end]]" (1-based, as recall returns them). A reply holds at most 64 KB and 1,000 lines: when cut, "truncated" is true and "next" is the "path:start-end" of the following page.',
    inputSchema: object({ id: str('Entry id, or path[:start[-end]].', { minLength: 1, maxLength: 1100 }) }, ['id']),
    annotations: readOnly('Get memory'),
  },
  {
    name: 'memory_checkpoint',
    description:
      'Commit the memory changes to git (memory files only; other work in the repository is left alone). Returns the commit, or nothing-to-commit.',
    inputSchema: object({
      message: str('Commit message (default: a summary of the changes).', { maxLength: 2000 }),
      reason: str('Why the memory changed (Memory-Reason trailer).', { maxLength: 2000 }),
    }),
    annotations: writes('Checkpoint memory', false, false),
  },
  {
    name: 'memory_state',
    description:
      'Working state (CURRENT_STATE.md). action "snapshot": compact continuity block (call at session start; empty text when idle). "set": update fields and bump Last updated (call before context compaction and when the plan changes; ifChanged=true writes only on a real change). "new": archive the state into today\'s daily note (unsurfaced results included) and reset to the template. "handoff": a seed (objective, step, decisions) for a sub-agent. Returns a content hash; pass it as expectedHash to get a conflict instead of overwriting someone else\'s update.',
    inputSchema: object(
      {
        action: { type: 'string', enum: ['snapshot', 'set', 'new', 'handoff'], description: 'What to do.' },
        ...STATE_FIELDS,
        clear: strings('Lists to empty before adding (set only).', {
          type: 'string',
          enum: ['decisions', 'blockers', 'results'],
        }),
        ifChanged: { type: 'boolean', description: 'set: write only when a field changes (post-turn).' },
        expectedHash: {
          type: ['string', 'null'],
          description: 'set/new: fail with a conflict unless the file still has this hash (null: must not exist).',
        },
        commit: { type: 'boolean', description: 'set/new: checkpoint-commit afterwards.' },
        maxTokens: {
          type: 'integer',
          minimum: 40,
          maximum: 4000,
          description: 'snapshot/handoff: hard cap in estimated tokens.',
        },
      },
      ['action'],
    ),
    annotations: writes('Working state', true, false),
  },
  {
    name: 'memory_validate',
    description:
      'Check memory files: front-matter schema, types, duplicate ids, broken links, CURRENT_STATE problems. Returns LSP-shaped diagnostics (0-based ranges).',
    inputSchema: object({
      paths: strings('Workspace-relative memory files (default: all).', {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
      }),
    }),
    annotations: readOnly('Validate memory'),
  },
  {
    name: 'memory_forget',
    description:
      'Archive a memory entry: sets `status: archived` in its front-matter (only that field changes — a one-line, reviewable git diff). Never deletes; recall hides archived entries unless all=true.',
    inputSchema: object(
      {
        id: str('Entry id, or the entry file path.', { minLength: 1, maxLength: 1000 }),
        commit: { type: 'boolean', description: 'Checkpoint-commit the change.' },
      },
      ['id'],
    ),
    annotations: writes('Forget (archive) memory', true, true),
  },
  {
    name: 'memory_complete_task',
    description:
      'Record a finished task (ACE): classifies it, links the code files from tool_usage, writes a typed entry (deduplicated), updates related playbook entries, and commits each change when in git. Call once at the end of a task.',
    inputSchema: object(
      {
        goal: str('What the task set out to do.', { minLength: 1, maxLength: 20000 }),
        result: str('What happened (the outcome).', { minLength: 1, maxLength: 20000 }),
        tool_usage: {
          type: 'array',
          description: 'Tool calls made during the task: {tool_name, arguments?, result?}.',
          maxItems: 2000,
          items: {
            type: 'object',
            required: ['tool_name'],
            properties: { tool_name: { type: 'string', minLength: 1 } },
          },
        },
        feedback: str('What the user or reviewer said afterwards.', { maxLength: 20000 }),
        agent: str('Agent name (claude-code, codex, …).', { maxLength: 200 }),
        session: str('Session id.', { maxLength: 200 }),
        task: str('Task id.', { maxLength: 200 }),
        tags: strings('Extra tags.', { type: 'string', minLength: 1, maxLength: 100 }),
        type: { type: 'string', enum: [...ENTRY_TYPES], description: 'Force the memory type.' },
        commit: { type: 'boolean', description: 'Checkpoint-commit each change when in git (default true).' },
      },
      ['goal', 'result'],
    ),
    annotations: writes('Complete task', false, false),
  },
  {
    name: 'memory_observe',
    description:
      "Capture a turn or observation in today's daily note (YYYY-MM-DD.md): one timestamped bullet appended atomically under the per-file lock, with its role and source reference (source, session). Call after a turn whose content may matter later; durable facts belong in memory_remember. Refuses text that looks like a credential (secret.found).",
    inputSchema: object(
      {
        text: str('What happened or was said (markdown).', { minLength: 1, maxLength: 20000 }),
        role: {
          type: 'string',
          enum: ['user', 'assistant', 'tool', 'system', 'observation'],
          description: 'Who produced it (default observation).',
        },
        source: str('Where it came from: host, hook or tool name (default mcp).', {
          minLength: 1,
          maxLength: 200,
          pattern: '^[^\\r\\n]+$',
        }),
        session: str('Session id, so turns can be traced back.', {
          minLength: 1,
          maxLength: 200,
          pattern: '^[^\\r\\n]+$',
        }),
      },
      ['text'],
    ),
    annotations: writes('Observe a turn', false, false),
  },
  {
    name: 'memory_audit',
    description:
      'Recent retrievals, newest first: for each recall the time, query, mode, result paths with 1-based line ranges, and the bytes injected as context. Logged only while "recall": {"audit": true} is set in gitmem.config.json (enabled says whether it is).',
    inputSchema: object({
      limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'How many entries (default 20).' },
    }),
    annotations: readOnly('Audit recalls'),
  },
  {
    name: 'memory_stats',
    description:
      'Counts of memory documents by kind, entries by type and status; index freshness; embedding model state; working-state summary.',
    inputSchema: object({}),
    annotations: readOnly('Memory stats'),
  },
];

/**
 * The daily-note text of an observation: `role: text`, then an indented source reference line
 * (`source: hook · session: abc`) so a captured turn can be traced back to where it came from.
 */
export function observationText(text: string, role: string, source: string, session?: string): string {
  return `${role}: ${text.trim()}\n(source: ${source}${session ? ` · session: ${session}` : ''})`;
}

/** Handlers keyed by tool name. */
export interface McpTools {
  readonly definitions: readonly ToolDefinition[];
  /** Run a tool. Never throws: failures come back as `{ok: false}`. */
  call(name: string, args: unknown): Promise<ToolOutcome>;
}

function toOutcomeError(e: unknown): ToolOutcome {
  if (isMemoryError(e))
    return { ok: false, error: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) } };
  return {
    ok: false,
    error: { code: 'internal', message: `internal error: ${e instanceof Error ? e.message : String(e)}` },
  };
}

/** `path` values (and `paths` lists) of .md files in a tool answer, two levels deep. */
function writtenPaths(data: unknown, depth = 0, out = new Set<string>()): Set<string> {
  if (!data || typeof data !== 'object' || depth > 2) return out;
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if ((k === 'path' || k === 'file') && typeof v === 'string' && /\.md$/i.test(v)) out.add(v);
    else if ((k === 'paths' || k === 'files' || k === 'written') && Array.isArray(v))
      for (const x of v)
        if (typeof x === 'string' && /\.md$/i.test(x)) out.add(x);
        else if (v && typeof v === 'object') writtenPaths(v, depth + 1, out);
  }
  return out;
}

const asStrings = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);

/** Build the tool set over an opened workspace. */
export function createMcpTools(deps: McpToolDeps): McpTools {
  const { memory, fs, git } = deps;
  let statePromise: Promise<StateService> | undefined;
  const state = () =>
    (statePromise ??= createStateService({ memory, fs, git, ...(deps.clock ? { clock: deps.clock } : {}) }).catch(
      (e: unknown) => {
        statePromise = undefined;
        throw e;
      },
    ));

  const handlers: Record<string, (a: Record<string, unknown>) => Promise<Record<string, unknown>>> = {
    async memory_recall(a) {
      const res = await memory.recall(
        a.query as string,
        {
          ...(a.mode ? { mode: a.mode as RecallMode } : {}),
          ...(a.limit !== undefined ? { limit: a.limit as number } : {}),
          ...(a.types ? { types: asStrings(a.types)! } : {}),
          ...(a.tags ? { tags: asStrings(a.tags)! } : {}),
          ...(a.kinds ? { kinds: asStrings(a.kinds)! } : {}),
          ...(a.file ? { file: a.file as string } : {}),
          ...(a.since ? { since: a.since as string } : {}),
          ...(a.until ? { until: a.until as string } : {}),
          ...(a.all ? { includeHidden: true } : {}),
          ...(a.budget !== undefined ? { budget: a.budget as number } : {}),
          ...(a.context !== undefined ? { context: a.context as number } : {}),
        } as Parameters<Memory['recall']>[1],
      );
      return res as unknown as Record<string, unknown>;
    },
    async memory_remember(a) {
      const res = await memory.remember({
        text: a.text as string,
        ...(a.type ? { type: a.type as string } : {}),
        ...(a.tags ? { tags: asStrings(a.tags)! } : {}),
        ...(a.files ? { files: asStrings(a.files)! } : {}),
        ...(a.title ? { title: a.title as string } : {}),
        source: { origin: 'mcp' },
      });
      return { ...res };
    },
    async memory_get(a) {
      // Bounded replies: a 5 MB note comes back in pages (`truncated`, `next` = "path:start-end").
      return { ...pageOf(await memory.get(a.id as string)) };
    },
    async memory_checkpoint(a) {
      const res = await checkpointMemory(memory, git, {
        ...(a.message ? { message: a.message as string } : {}),
        ...(a.reason ? { reason: a.reason as string } : {}),
      });
      return { ...res };
    },
    async memory_state(a) {
      const s = await state();
      const action = a.action as string;
      const write = {
        ...(a.expectedHash !== undefined ? { expectedHash: a.expectedHash as string | null } : {}),
        ...(a.commit ? { commit: true } : {}),
      };
      const fieldKeys = ['objective', 'step', 'next', 'decisions', 'blockers', 'results', 'clear'] as const;
      if (action !== 'set') {
        const stray = fieldKeys.filter((k) => a[k] !== undefined);
        if (stray.length)
          throw new MemoryError('usage', `memory_state: ${stray.join(', ')} only apply to action "set"`);
      }
      switch (action) {
        case 'snapshot': {
          const snap = await s.snapshot(a.maxTokens ? { maxTokens: a.maxTokens as number } : {});
          const { hash } = await s.read();
          return { ...snap, path: s.path, hash };
        }
        case 'set': {
          const update: StateUpdate = {
            ...(a.objective !== undefined ? { objective: a.objective as string } : {}),
            ...(a.step !== undefined ? { step: a.step as string } : {}),
            ...(a.next !== undefined ? { next: a.next as string } : {}),
            ...(a.decisions ? { decisions: asStrings(a.decisions)! } : {}),
            ...(a.blockers ? { blockers: asStrings(a.blockers)! } : {}),
            ...(a.results ? { results: asStrings(a.results)! } : {}),
            ...(a.clear ? { clear: asStrings(a.clear) as ('decisions' | 'blockers' | 'results')[] } : {}),
          };
          return { ...(await s.set(update, { ...write, ...(a.ifChanged ? { ifChanged: true } : {}) })) };
        }
        case 'new':
          return { ...(await s.new(write)) };
        case 'handoff':
          return { ...(await s.handoff(a.maxTokens ? { maxTokens: a.maxTokens as number } : {})) };
        default:
          throw new MemoryError('usage', `memory_state: unknown action "${action}"`);
      }
    },
    async memory_validate(a) {
      const diags = await memory.validate(asStrings(a.paths));
      return {
        diagnostics: diags.map(({ path, range, severity, code, message }) => ({
          path,
          range,
          severity,
          code,
          message,
        })),
      };
    },
    async memory_forget(a) {
      return { ...(await forgetEntry(memory, fs, a.id as string, { git, ...(a.commit ? { commit: true } : {}) })) };
    },
    async memory_complete_task(a) {
      const { commit, ...task } = a;
      const res = await completeTask(memory, git, task, commit === false ? { commit: false } : {});
      return { ...res };
    },
    async memory_observe(a) {
      const role = (a.role as string | undefined) ?? 'observation';
      const source = (a.source as string | undefined) ?? 'mcp';
      const session = a.session as string | undefined;
      // Refuse before anything is composed from the input (the file system guard checks the note too).
      refuseSecretsInInput('observe', { text: a.text as string, source, ...(session ? { session } : {}) });
      const res = await memory.appendDaily(observationText(a.text as string, role, source, session));
      return { ...res, role, source, session: session ?? null };
    },
    async memory_audit(a) {
      const entries = await readAudit(memory.storage, (a.limit as number | undefined) ?? 20);
      return { enabled: memory.config.recall.audit, entries };
    },
    async memory_stats() {
      const ws = await memory.workspace();
      const byKind: Record<string, number> = {};
      const byType: Record<string, number> = {};
      const byStatus: Record<string, number> = {};
      let chunks = 0;
      for (const d of ws.docs()) {
        byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
        chunks += d.chunks.length;
        if (d.kind === 'entry') {
          const t = d.meta.type ?? '(none)';
          byType[t] = (byType[t] ?? 0) + 1;
          const st = d.meta.duplicateOf ? 'duplicate' : (d.meta.status ?? 'active');
          byStatus[st] = (byStatus[st] ?? 0) + 1;
        }
      }
      const doctor = await memory.doctor();
      const snap = await (await state()).snapshot();
      return {
        root: memory.root,
        layout: doctor.layout.name,
        documents: ws.size,
        chunks,
        byKind,
        entries: { byType, byStatus },
        index: doctor.index,
        model: doctor.model,
        git: doctor.git,
        files: doctor.files,
        state: { active: snap.active, freshness: snap.freshness, updated: snap.updated },
      };
    },
  };

  /** The writer record (service/review/writers.ts): memory files a write tool names in its answer were written by an agent. */
  async function recordAgentWrites(data: Record<string, unknown>): Promise<void> {
    const files = new Map<string, string>();
    for (const p of writtenPaths(data)) {
      try {
        const bytes = await fs.read(toRelPath(p));
        if (bytes) files.set(p, new TextDecoder().decode(bytes));
      } catch {
        /* not a workspace path: nothing to attribute */
      }
    }
    await recordWriter(memory.storage, files, 'agent', 'mcp');
  }

  return {
    definitions: TOOL_DEFINITIONS,
    async call(name, args) {
      const def = TOOL_DEFINITIONS.find((d) => d.name === name);
      const handler = handlers[name];
      if (!def || !handler)
        return {
          ok: false,
          error: {
            code: 'usage',
            message: `unknown tool "${name}"`,
            hint: `tools: ${TOOL_DEFINITIONS.map((d) => d.name).join(', ')}`,
          },
        };
      try {
        const a = checkArguments(name, def.inputSchema, args);
        const data = await handler(a);
        if (!def.annotations.readOnlyHint && data.status !== 'duplicate') await recordAgentWrites(data);
        return { ok: true, data };
      } catch (e) {
        return toOutcomeError(e);
      }
    },
  };
}
