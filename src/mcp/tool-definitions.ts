// The MCP tools as advertised: name, description, JSON Schema of the arguments and annotations
// (read-only, destructive, idempotent), one entry per tool. deps: none (mcp layer).
import { DOC_KINDS, ENTRY_TYPES } from '../core/document.js';
import { MAX_STATE_FIELD_CHARS, MAX_TEXT_CHARS } from '../core/write-limits.js';
import { type JsonSchema } from '../validate/arguments.js';

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

/** A tag is one line without control characters (the entry schema's rule, docs/bad-inputs.md U23). */
const TAG_PATTERN = '^[^\\u0000-\\u001f\\u007f\\u0085\\u2028\\u2029]+$';

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
export const object = (properties: Record<string, JsonSchema>, required: string[] = []) =>
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

// The caps of written texts are core's (core/write-limits.ts), the same the use cases check (U62).
const field = { maxLength: MAX_STATE_FIELD_CHARS };
const item: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_STATE_FIELD_CHARS };
const STATE_FIELDS = {
  objective: str('What the work is for. A placeholder ("None", "idle") ends the active work.', field),
  step: str('The current step.', field),
  next: str('The next action.', field),
  decisions: strings('Key decisions to add (kept unless already present).', item),
  blockers: strings('Blockers to add.', item),
  results: strings('Results the user has not seen yet, to add.', item),
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
        history: {
          type: 'boolean',
          description:
            'Every version of a rule or fact that later notes restate, oldest first, all in the block (default: the newest; older ones carry supersededBy and newerStatement).',
        },
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
        text: str('The memory, one self-contained statement (markdown).', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
        type: { type: 'string', enum: [...ENTRY_TYPES], description: 'Memory type (default learning).' },
        tags: strings('Tags.', { type: 'string', minLength: 1, maxLength: 100, pattern: TAG_PATTERN }),
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
      'Read a memory by entry id, or a memory file with an optional line range: "path[:start[-end]]" (1-based, as recall returns them). A reply holds at most 64 KB and 1,000 lines: when cut, "truncated" is true and "next" is the id of the following page ("path:start-end", or "path:line.column-end" when a line longer than a reply goes on).',
    inputSchema: object(
      { id: str('Entry id, path[:start[-end]], or a "next" cursor.', { minLength: 1, maxLength: 1100 }) },
      ['id'],
    ),
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
          pattern: '^[0-9a-f]{64}$',
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
        goal: str('What the task set out to do.', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
        result: str('What happened (the outcome).', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
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
        feedback: str('What the user or reviewer said afterwards.', { maxLength: MAX_TEXT_CHARS }),
        agent: str('Agent name (claude-code, codex, …).', { maxLength: 200 }),
        session: str('Session id.', { maxLength: 200 }),
        task: str('Task id.', { maxLength: 200 }),
        tags: strings('Extra tags.', { type: 'string', minLength: 1, maxLength: 100, pattern: TAG_PATTERN }),
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
        text: str('What happened or was said (markdown).', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
        role: {
          type: 'string',
          enum: ['user', 'assistant', 'tool', 'system', 'observation'],
          description: 'Who produced it (default observation).',
        },
        source: str('Where it came from: host, hook or tool name (default mcp).', {
          minLength: 1,
          maxLength: 200,
          pattern: '^[^\\r\\n\\u2028\\u2029\\u0085]+$',
        }),
        session: str('Session id, so turns can be traced back.', {
          minLength: 1,
          maxLength: 200,
          pattern: '^[^\\r\\n\\u2028\\u2029\\u0085]+$',
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
