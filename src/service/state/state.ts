// Working-state continuity service (docs/DESIGN.md §5): read, snapshot, set, new (archive + reset), validate,
// handoff and absorb over CURRENT_STATE.md, plus the lifecycle entry points agent hosts call
// (startup, new, end of run, pre-compaction, post-turn). Every write is an atomic replace with
// optimistic concurrency (expected content hash → `fs.conflict`), serialised per file in-process.
// deps: core, continuity, and service/git-ops/checkpoint.ts for the optional checkpoint commit.
import type { Diagnostic } from '../../core/diagnostics.js';
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import { systemClock, type Clock, type MemoryFs } from '../../core/ports.js';
import { decodeText } from '../../core/text.js';
import { appendToDaily, archiveBlock } from '../../continuity/archive.js';
import { absorbResults, handoffSeed, type HandoffSeed } from '../../continuity/handoff.js';
import { parseState, type ParsedState } from '../../continuity/parse-state.js';
import {
  applyStateUpdate,
  changedFields,
  hasContent,
  renderFreshState,
  renderState,
  type StateUpdate,
} from '../../continuity/render-state.js';
import {
  EMPTY_FIELDS,
  formatTimestamp,
  localDateTime,
  type StateField,
  type StateFields,
} from '../../continuity/sections.js';
import { snapshotState, type StateSnapshot } from '../../continuity/snapshot.js';
import { validateState } from '../../continuity/validate-state.js';
import { checkpointMemory, type CheckpointResult, type GitLocation } from '../git-ops/checkpoint.js';
import type { Memory } from '../memory.js';

export type { StateUpdate } from '../../continuity/render-state.js';
export type { StateSnapshot } from '../../continuity/snapshot.js';
export type { HandoffSeed } from '../../continuity/handoff.js';
export type { StateField, StateFields } from '../../continuity/sections.js';

export interface StateServiceDeps {
  /** The opened workspace (root, layout, config). */
  readonly memory: Memory;
  /** The same file access the Memory was created with. */
  readonly fs: MemoryFs;
  readonly clock?: Clock;
  /** Where the repository is, for `commit` options (see platform/discover.ts). */
  readonly git?: GitLocation;
  /** Minutes east of UTC for timestamps and "today" (default: the host's zone). */
  readonly utcOffsetMinutes?: number;
}

/** CURRENT_STATE.md as read now. `hash` is {@link contentHash} of the file (null when it is missing). */
export interface StateRead {
  readonly path: RelPath;
  readonly exists: boolean;
  readonly hash: string | null;
  readonly parsed: ParsedState;
}

export interface WriteOptions {
  /**
   * Optimistic concurrency: the hash the caller last read (from {@link StateService.read} or a
   * previous result); null = "the file must not exist". A different current hash → `fs.conflict`.
   */
  readonly expectedHash?: string | null;
  /** Checkpoint-commit the memory after writing (`true` or a commit message). */
  readonly commit?: boolean | string;
}

export interface StateSetResult {
  readonly path: RelPath;
  /** Hash of the file after the call (pass it as `expectedHash` next time). */
  readonly hash: string;
  /** False when nothing was written (post-turn / end-of-run without a substantive change). */
  readonly written: boolean;
  /** Fields whose values changed. */
  readonly changed: readonly StateField[];
  readonly snapshot: StateSnapshot;
  readonly checkpoint?: CheckpointResult;
}

export interface StateNewResult {
  readonly path: RelPath;
  readonly hash: string;
  /** Where the outgoing state went; null when it held nothing to archive. */
  readonly archived: { readonly path: RelPath; readonly results: number } | null;
  readonly checkpoint?: CheckpointResult;
}

export interface StateAbsorbResult extends StateSetResult {
  readonly added: readonly string[];
  readonly duplicates: readonly string[];
}

/** The working-state API: CLI, MCP and agent hosts all go through it. */
export interface StateService {
  /** CURRENT_STATE.md of the workspace's layout. */
  readonly path: RelPath;
  read(): Promise<StateRead>;
  /** The continuity block, plus the file's content hash to pass as `expectedHash` (null: no file). */
  snapshot(options?: {
    maxTokens?: number;
    staleAfterHours?: number;
  }): Promise<StateSnapshot & { readonly hash: string | null }>;
  /** Apply `update`, bump `Last updated`, atomic replace. `ifChanged`: write only on a substantive change. */
  set(update: StateUpdate, options?: WriteOptions & { ifChanged?: boolean }): Promise<StateSetResult>;
  /** Reset boundary: archive the outgoing state into today's daily note (append-only), then reset to the template. */
  'new'(options?: WriteOptions): Promise<StateNewResult>;
  validate(): Promise<Diagnostic[]>;
  /** Compact seed (objective, current step, key decisions) for a child agent. */
  handoff(options?: { maxTokens?: number }): Promise<HandoffSeed>;
  /** Append a child's Unsurfaced Results (its CURRENT_STATE.md text) to this state; nothing else changes. */
  absorb(childText: string, options?: WriteOptions): Promise<StateAbsorbResult>;

  // Lifecycle entry points for agent hosts (docs/DESIGN.md §5).
  /** Session start: the snapshot to inject. */
  startup(): Promise<StateSnapshot>;
  /** End of a run: record `update` when it changes something; optional checkpoint. */
  endOfRun(update?: StateUpdate, options?: WriteOptions): Promise<StateSetResult>;
  /**
   * Before context compaction: write now (even without changes, to bump the time) and return only
   * after the file is durably on disk (temp + fsync + rename, then read back and compared).
   */
  preCompaction(update?: StateUpdate, options?: WriteOptions): Promise<StateSetResult>;
  /** After a turn: write only when `update` changes a field. */
  postTurn(update?: StateUpdate, options?: WriteOptions): Promise<StateSetResult>;
}

/** Per-file queue: writers in one process never interleave their read-check-write. */
const queues = new Map<string, Promise<unknown>>();

async function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  try {
    return await run;
  } finally {
    if (queues.get(key) === tail) queues.delete(key);
  }
}

function conflict(path: string, expected: string | null, actual: string | null): MemoryError {
  return new MemoryError('fs.conflict', `${path} changed since it was read; nothing was written`, {
    data: { path, expectedHash: expected, actualHash: actual },
    hint: actual
      ? `read it again (\`gitmem state snapshot --json\` prints its hash) and retry the update with --expect-hash ${actual}`
      : 'the file was removed meanwhile; read it again and retry the update without --expect-hash',
  });
}

/** @returns CURRENT_STATE.md's path for the layout: the first configured file that exists, else the first one. */
async function statePath(memory: Memory, fs: MemoryFs): Promise<RelPath> {
  const globs = memory.loaded.layout.kinds.current_state;
  const literal = globs.filter((g) => !/[*?[{]/.test(g));
  for (const g of literal) if (await fs.stat(toRelPath(g))) return toRelPath(g);
  if (literal[0]) return toRelPath(literal[0]);
  const found = await fs.list((p) => classify(p, memory.loaded.layout) === 'current_state');
  if (found[0]) return found[0];
  throw new MemoryError(
    'config.invalid',
    'the layout names no CURRENT_STATE.md file (kinds.current_state is a pattern with no match)',
    {
      hint: 'create the file, or set kinds.current_state to a path in gitmem.config.json',
    },
  );
}

/** Create the working-state service for an opened workspace. */
export async function createStateService(deps: StateServiceDeps): Promise<StateService> {
  const { memory, fs } = deps;
  const clock = deps.clock ?? systemClock;
  const path = await statePath(memory, fs);
  const lockKey = `${fs.root}\0${path}`;
  /** In-process queue plus a cross-process file lock: read-check-write is atomic across processes too. */
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> =>
    serialised(lockKey, () => (fs.withFileLock ? fs.withFileLock(path, fn) : fn()));
  const cfg = memory.config.state;
  const offset = (d: Date) => deps.utcOffsetMinutes ?? -d.getTimezoneOffset();
  const stamp = (d: Date) => formatTimestamp(d, offset(d));

  async function readText(p: RelPath): Promise<string | undefined> {
    const bytes = await fs.read(p);
    if (!bytes) return undefined;
    const dec = decodeText(bytes);
    if (dec.problem === 'binary')
      throw new MemoryError('fs.read-failed', `${p} is binary, not a markdown file`, { data: { path: p } });
    return dec.text;
  }

  async function read(): Promise<StateRead> {
    const text = await readText(path);
    if (text === undefined)
      return {
        path,
        exists: false,
        hash: null,
        parsed: parseState(renderFreshState(EMPTY_FIELDS, stamp(clock.now()))),
      };
    return { path, exists: true, hash: contentHash(text), parsed: parseState(text) };
  }

  /** Re-read just before replacing: a different hash means another writer got there first. */
  async function writeChecked(p: RelPath, text: string, expected: string | null): Promise<string> {
    const now = await readText(p);
    const actual = now === undefined ? null : contentHash(now);
    if (actual !== expected) throw conflict(p, expected, actual);
    await fs.writeTextAtomic(p, text);
    return contentHash(text);
  }

  function check(current: StateRead, options: WriteOptions): void {
    if (options.expectedHash !== undefined && options.expectedHash !== current.hash)
      throw conflict(path, options.expectedHash, current.hash);
  }

  /** Commit exactly `paths` (the files this call wrote), never other pending memory changes. */
  async function commit(
    options: WriteOptions,
    summary: string,
    paths: readonly string[] | 'all' = [path],
  ): Promise<CheckpointResult | undefined> {
    if (!options.commit) return undefined;
    if (!deps.git?.gitdir) {
      throw new MemoryError(
        'git.not-a-repository',
        `${memory.root} is not in a git work tree; the state was written but not committed`,
        {
          hint: 'run `git init` to put the workspace under git, or drop --commit',
        },
      );
    }
    return checkpointMemory(memory, deps.git, {
      message: typeof options.commit === 'string' ? options.commit : summary,
      ...(paths === 'all' ? {} : { paths }),
    });
  }

  function snapshotOf(
    parsed: ParsedState,
    options: { maxTokens?: number; staleAfterHours?: number } = {},
  ): StateSnapshot {
    return snapshotState(parsed, {
      now: clock.now(),
      staleAfterHours: options.staleAfterHours ?? cfg.staleAfterHours,
      maxTokens: options.maxTokens ?? cfg.snapshotMaxTokens,
    });
  }

  async function set(
    update: StateUpdate,
    options: WriteOptions & { ifChanged?: boolean; verify?: boolean } = {},
  ): Promise<StateSetResult> {
    const result = await exclusive(async () => {
      const cur = await read();
      check(cur, options);
      const fields = applyStateUpdate(cur.parsed.fields, update);
      const changed = changedFields(cur.parsed.fields, fields);
      if (options.ifChanged && changed.length === 0 && cur.exists) {
        return { path, hash: cur.hash!, written: false, changed, snapshot: snapshotOf(cur.parsed) };
      }
      const text = renderState(cur.parsed, fields, stamp(clock.now()));
      const hash = await writeChecked(path, text, cur.hash);
      if (options.verify) {
        // Durability for pre-compaction: what is on disk now is what we wrote.
        const back = await readText(path);
        if (back === undefined || contentHash(back) !== hash) {
          throw new MemoryError('fs.write-failed', `${path} did not read back as written`, { data: { path } });
        }
      }
      return { path, hash, written: true, changed, snapshot: snapshotOf(parseState(text)) };
    });
    const cp = result.written
      ? await commit(options, `state: ${result.changed.length ? `update ${result.changed.join(', ')}` : 'touch'}`)
      : undefined;
    return cp ? { ...result, checkpoint: cp } : result;
  }

  async function reset(options: WriteOptions = {}): Promise<StateNewResult> {
    const result = await exclusive(async () => {
      const cur = await read();
      check(cur, options);
      const now = clock.now();
      const fields: StateFields = cur.parsed.fields;
      const extras = cur.parsed.sections
        .filter((s) => !s.known)
        .map((s) => ({
          heading: s.name || '(untitled section)',
          lines: cur.parsed.lines.slice(s.bodyStart, s.bodyEnd),
        }))
        .filter((x) => x.lines.some((l) => l.trim() !== ''));
      let archived: StateNewResult['archived'] = null;
      if (hasContent(fields) || extras.length > 0) {
        const { date, time } = localDateTime(now, offset(now));
        const dir = memory.loaded.layout.memoryDir;
        const daily = toRelPath(dir ? `${dir}/${date}.md` : `${date}.md`);
        if (classify(daily, memory.loaded.layout) !== 'daily') {
          throw new MemoryError(
            'config.invalid',
            `${daily} would not be a daily note in this layout; the state was not reset`,
            { data: { path: daily } },
          );
        }
        const block = archiveBlock(fields, {
          time,
          updated: cur.parsed.updated?.raw ?? null,
          reason: 'Archived by `gitmem state new`',
          extras,
        });
        const archive = async () => {
          const before = await readText(daily);
          const next = appendToDaily(before, date, block);
          await writeChecked(daily, next, before === undefined ? null : contentHash(before));
        };
        // The daily note's lock too: `gitmem append` may be writing it (service/remember/daily.ts).
        await (fs.withFileLock ? fs.withFileLock(daily, archive) : archive());
        // Only reset once the archive is on disk with every unsurfaced result in it.
        const back = (await readText(daily)) ?? '';
        const missing = fields.results.filter((r) => !back.includes(r.split('\n')[0]!));
        if (missing.length)
          throw new MemoryError(
            'fs.write-failed',
            `archive in ${daily} lacks ${missing.length} unsurfaced result(s); the state was not reset`,
          );
        archived = { path: daily, results: fields.results.length };
      }
      const fresh = renderFreshState(EMPTY_FIELDS, stamp(now));
      const text = cur.exists ? `${cur.parsed.hasBom ? '\uFEFF' : ''}${fresh.replace(/\n/g, cur.parsed.eol)}` : fresh;
      const hash = await writeChecked(path, text, cur.hash);
      return { path, hash, archived };
    });
    const cp = await commit(options, `state: new${result.archived ? ` (archived to ${result.archived.path})` : ''}`, [
      path,
      ...(result.archived ? [result.archived.path] : []),
    ]);
    return cp ? { ...result, checkpoint: cp } : result;
  }

  const service: StateService = {
    path,
    read,
    async snapshot(options) {
      const cur = await read();
      // No file: nothing to continue, and no time to call fresh.
      if (!cur.exists) return { active: false, freshness: 'stale', updated: null, text: '', hash: null };
      return { ...snapshotOf(cur.parsed, options), hash: cur.hash };
    },
    set: (update, options) => set(update, options),
    new: (options) => reset(options),
    async validate() {
      const cur = await read();
      if (!cur.exists) return [];
      return validateState(path, cur.parsed, { now: clock.now(), staleAfterHours: cfg.staleAfterHours });
    },
    async handoff(options = {}) {
      return handoffSeed((await read()).parsed.fields, { maxTokens: options.maxTokens ?? cfg.snapshotMaxTokens });
    },
    async absorb(childText, options = {}) {
      const child = parseState(childText);
      if (!child.sections.some((s) => s.known === 'Unsurfaced Results')) {
        throw new MemoryError('usage', 'the child state has no "## Unsurfaced Results" section; nothing to absorb', {
          hint: "pass the child agent's CURRENT_STATE.md",
        });
      }
      let added: string[] = [];
      let duplicates: string[] = [];
      const res = await exclusive(async () => {
        const cur = await read();
        check(cur, options);
        const r = absorbResults(cur.parsed.fields, child.fields);
        added = r.added;
        duplicates = r.duplicates;
        if (added.length === 0)
          return {
            path,
            hash: cur.hash ?? contentHash(''),
            written: false,
            changed: [],
            snapshot: snapshotOf(cur.parsed),
          };
        const text = renderState(cur.parsed, r.fields, stamp(clock.now()));
        const hash = await writeChecked(path, text, cur.hash);
        return {
          path,
          hash,
          written: true,
          changed: ['results'] as StateField[],
          snapshot: snapshotOf(parseState(text)),
        };
      });
      const cp = res.written
        ? await commit(options, `state: absorb ${added.length} result(s) from a sub-agent`)
        : undefined;
      return { ...res, ...(cp ? { checkpoint: cp } : {}), added, duplicates };
    },
    async startup() {
      return service.snapshot();
    },
    async endOfRun(update = {}, options = {}) {
      // The checkpoint at the end of a run covers every memory change, even when the state is unchanged.
      const { commit: wanted, ...rest } = options;
      const res = await set(update, { ...rest, ifChanged: true });
      const cp = await commit({ commit: wanted }, 'state: end of run', 'all');
      return cp ? { ...res, checkpoint: cp } : res;
    },
    preCompaction: (update = {}, options = {}) => set(update, { ...options, verify: true }),
    postTurn: (update = {}, options = {}) => set(update, { ...options, ifChanged: true }),
  };
  return service;
}
