// The MCP tools (docs/DESIGN.md §8): definitions (JSON Schema inputs, read-only/destructive annotations) and
// handlers that call the service layer. No SDK types here: server.ts adapts these to the protocol.
// Every handler's failure becomes a tool error (isError), never an exception out of the server.
// deps: service, core.
import { pageCursor, pageOf } from './page.js';
import { diagnosticReport } from '../core/diagnostics.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import type { MemoryFs } from '../core/ports.js';
import type { Clock } from '../core/ports.js';
import { refuseSecretsInInput } from '../core/secrets.js';
import { completeTask } from '../service/ace/complete-task.js';
import { readAudit } from '../service/recall/audit.js';
import { forgetEntry } from '../service/files/forget.js';
import { checkpointMemory, type GitLocation } from '../service/git-ops/checkpoint.js';
import type { Memory } from '../service/memory.js';
import { recall } from '../service/recall/recall.js';
import { trustOfSpan } from '../service/trust/stage.js';
import { recallOptionsOf } from '../service/recall/request.js';
import { createStateService, type StateService, type StateUpdate } from '../service/state/state.js';
import { checkArguments } from '../validate/arguments.js';
import { recordWriter } from '../service/review/writers.js';
import { toRelPath } from '../core/paths.js';
import { type ToolDefinition, TOOL_DEFINITIONS } from './tool-definitions.js';

/** What the tools need: the opened workspace and its file access (same root), and the repository. */
export interface McpToolDeps {
  readonly memory: Memory;
  readonly fs: MemoryFs;
  readonly git: GitLocation;
  readonly clock?: Clock;
}

/** A tool's answer: JSON data, or an error with a stable code. */
export type ToolOutcome =
  | { readonly ok: true; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string; readonly hint?: string } };

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
      // A block (budget) is what clients inject into a prompt: the injection policy applies (request.ts).
      const res = await recall(memory.context, a.query as string, recallOptionsOf('mcp', a));
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
      // Bounded replies: a 5 MB note comes back in pages (`truncated`, `next` = "path:start-end", or
      // "path:line.column-end" inside a line over the cap, U61).
      const { ref, column } = pageCursor(a.id as string);
      const page = pageOf(await memory.get(ref), { column });
      // Where the lines come from and whether a person reviewed them (service/trust/).
      return { ...page, ...(await trustOfSpan(memory.context, page)) };
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
      return diagnosticReport(await memory.validate(asStrings(a.paths)));
    },
    async memory_forget(a) {
      try {
        return { ...(await forgetEntry(memory, fs, a.id as string, { git, ...(a.commit ? { commit: true } : {}) })) };
      } catch (e) {
        // The shared hint names the CLI's --no-commit; over MCP that is `commit: false` (U41).
        if (!(e instanceof MemoryError) || e.code !== 'git.uncommitted-edits') throw e;
        throw new MemoryError(e.code, e.message, {
          ...(e.data ? { data: { ...e.data } } : {}),
          hint: (e.hint ?? '').replace('run again with --no-commit', 'call again with commit: false (the default)'),
        });
      }
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
      // The use case composes the bullet, so the size cap is checked on the text as sent (U66).
      const res = await memory.appendDaily(a.text as string, {
        observation: { role, source, ...(session ? { session } : {}) },
      });
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
