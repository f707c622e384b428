// CURRENT_STATE.md as the working-state use cases share it: where it is, reading it, the checked
// atomic replace (expected content hash → `fs.conflict`), the per-file in-process queue plus the
// cross-process file lock, the optional checkpoint commit and the snapshot of a parsed state.
// The use cases are service/state/set.ts, new.ts and absorb.ts; service/state/state.ts calls them as fn(ctx, input).
// deps: core, continuity, and service/git-ops/checkpoint.ts for the optional checkpoint commit.
import { MemoryError } from '../../core/errors.js';
import { checkExpectedHash } from '../shared/inputs.js';
import { writeExtended } from '../shared/memory-files.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import type { Clock, MemoryFs } from '../../core/ports.js';
import { decodeText } from '../../core/text.js';
import { parseState, type ParsedState } from '../../continuity/parse-state.js';
import { renderFreshState } from '../../continuity/render-state.js';
import { EMPTY_FIELDS, formatTimestamp } from '../../continuity/sections.js';
import { snapshotState, type StateSnapshot } from '../../continuity/snapshot.js';
import { checkpointMemory, type CheckpointResult, type GitLocation } from '../git-ops/checkpoint.js';
import type { MemoryContext } from '../shared/memory-context.js';
import type { MemoryConfig } from '../../core/config.js';

/** What every working-state call takes besides its own fields. */
export interface StateInput {
  /** Where the repository is, for `commit` options (see platform/discover.ts). */
  readonly git?: GitLocation | undefined;
  /** Minutes east of UTC for timestamps and "today" (default: the host's zone). */
  readonly utcOffsetMinutes?: number | undefined;
}

/** CURRENT_STATE.md as read now. `hash` is {@link contentHash} of the file (null when it is missing). */
export interface StateRead {
  readonly path: RelPath;
  readonly exists: boolean;
  readonly hash: string | null;
  readonly parsed: ParsedState;
  /** The file's text as read (absent when there is no file). */
  readonly text?: string;
}

export interface WriteOptions {
  /**
   * Optimistic concurrency: the hash the caller last read (from {@link stateRead} in state.ts or a
   * previous result); null = "the file must not exist". A different current hash → `fs.conflict`.
   */
  readonly expectedHash?: string | null;
  /** Checkpoint-commit the memory after writing (`true` or a commit message). */
  readonly commit?: boolean | string;
}

/** CURRENT_STATE.md opened for the use cases: its path and the steps every read or write shares. */
export interface StateFile {
  readonly ctx: MemoryContext;
  readonly fs: MemoryFs;
  readonly path: RelPath;
  readonly clock: Clock;
  readonly cfg: MemoryConfig['state'];
  /** Minutes east of UTC at `d`. */
  offset(d: Date): number;
  /** `d` as a `Last updated` timestamp. */
  stamp(d: Date): string;
  /** In-process queue plus a cross-process file lock: read-check-write is atomic across processes too. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  readText(p: RelPath): Promise<string | undefined>;
  read(): Promise<StateRead>;
  /** Re-read just before replacing: a different hash means another writer got there first. */
  /** `carried`: memory text the write copies as it stands (core/ports.ts writeTextAtomic). */
  writeChecked(p: RelPath, text: string, expected: string | null, carried?: string): Promise<string>;
  check(current: StateRead, options: WriteOptions): void;
  /** Commit exactly `paths` (the files this call wrote), never other pending memory changes. */
  commit(
    options: WriteOptions,
    summary: string,
    paths?: readonly string[] | 'all',
  ): Promise<CheckpointResult | undefined>;
  snapshotOf(
    parsed: ParsedState,
    options?: { maxTokens?: number; staleAfterHours?: number; preface?: readonly string[] },
  ): StateSnapshot;
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
export async function statePath(ctx: Pick<MemoryContext, 'fs' | 'loaded'>): Promise<RelPath> {
  const { fs, loaded } = ctx;
  const globs = loaded.layout.kinds.current_state;
  const literal = globs.filter((g) => !/[*?[{]/.test(g));
  for (const g of literal) if (await fs.stat(toRelPath(g))) return toRelPath(g);
  if (literal[0]) return toRelPath(literal[0]);
  const found = await fs.list((p) => classify(p, loaded.layout) === 'current_state');
  if (found[0]) return found[0];
  throw new MemoryError(
    'config.invalid',
    'the layout names no CURRENT_STATE.md file (kinds.current_state is a pattern with no match)',
    {
      hint: 'create the file, or set kinds.current_state to a path in gitmem.config.json',
    },
  );
}

/** Open the workspace's CURRENT_STATE.md for the working-state use cases (over the context's file system and clock). */
export async function openStateFile(ctx: MemoryContext, input: StateInput = {}): Promise<StateFile> {
  const { fs, clock } = ctx;
  const path = await statePath(ctx);
  const lockKey = `${fs.root}\0${path}`;
  /** In-process queue plus a cross-process file lock: read-check-write is atomic across processes too. */
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => serialised(lockKey, () => fs.withFileLock(path, fn));
  const cfg = ctx.config.state;
  const offset = (d: Date) => input.utcOffsetMinutes ?? -d.getTimezoneOffset();
  const stamp = (d: Date) => formatTimestamp(d, offset(d));

  /** The file's bytes and their text, or undefined when missing. @throws MemoryError `fs.read-failed` when binary. */
  async function readNote(p: RelPath): Promise<{ bytes: Uint8Array; text: string } | undefined> {
    const bytes = await fs.read(p);
    if (!bytes) return undefined;
    const dec = decodeText(bytes);
    if (dec.problem === 'binary')
      throw new MemoryError('fs.read-failed', `${p} is binary, not a markdown file`, { data: { path: p } });
    return { bytes, text: dec.text };
  }

  async function readText(p: RelPath): Promise<string | undefined> {
    return (await readNote(p))?.text;
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
    return { path, exists: true, hash: contentHash(text), parsed: parseState(text), text };
  }

  /**
   * Re-read just before replacing: a different hash means another writer got there first. A text
   * that extends the file (the archive appended to a daily note) keeps the file's own bytes (R55).
   */
  async function writeChecked(p: RelPath, text: string, expected: string | null, carried?: string): Promise<string> {
    const now = await readNote(p);
    const actual = now === undefined ? null : contentHash(now.text);
    if (actual !== expected) throw conflict(p, expected, actual);
    await (now ? writeExtended(fs, p, now, text, carried) : fs.writeTextAtomic(p, text, carried));
    return contentHash(text);
  }

  function check(current: StateRead, options: WriteOptions): void {
    checkExpectedHash('expectedHash', options.expectedHash);
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
    if (!input.git?.gitdir) {
      throw new MemoryError(
        'git.not-a-repository',
        `${ctx.root} is not in a git work tree; the state was written but not committed`,
        {
          hint: 'run `git init` to put the workspace under git, or drop --commit',
        },
      );
    }
    return checkpointMemory(ctx, {
      git: input.git,
      message: typeof options.commit === 'string' ? options.commit : summary,
      ...(paths === 'all' ? {} : { paths }),
    });
  }

  function snapshotOf(
    parsed: ParsedState,
    options: { maxTokens?: number; staleAfterHours?: number; preface?: readonly string[] } = {},
  ): StateSnapshot {
    return snapshotState(parsed, {
      now: clock.now(),
      staleAfterHours: options.staleAfterHours ?? cfg.staleAfterHours,
      maxTokens: options.maxTokens ?? cfg.snapshotMaxTokens,
      ...(options.preface ? { preface: options.preface } : {}),
    });
  }

  return {
    ctx,
    fs,
    path,
    clock,
    cfg,
    offset,
    stamp,
    exclusive,
    readText,
    read,
    writeChecked,
    check,
    commit,
    snapshotOf,
  };
}
