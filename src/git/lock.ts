// Serialise git writes (B23): one in-process queue per gitdir, a cross-process gitmem lock file
// (`<gitdir>/gitmem-checkpoint.lock`, pid inside, stale when its process is gone) and canonical
// git's own `<gitdir>/index.lock`, so neither `git` nor another gitmem process writes meanwhile.
// A ref's lock a killed gitmem left is taken over (takeRefLock, below).
// deps: node:fs, core, platform/lockfile.ts (the one lock-file implementation). No isomorphic-git here.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { acquireLockFile, processAlive, type LockAttempt } from '../platform/lockfile.js';

const queues = new Map<string, Promise<unknown>>();

/** Lock-file names inside the gitdir. */
export const GITMEM_LOCK = 'gitmem-checkpoint.lock';
export const INDEX_LOCK = 'index.lock';

export interface LockOptions {
  /** How long to wait for another gitmem process (ms). Default 15 000. */
  readonly waitMs?: number;
  /** How long to wait for canonical git's `index.lock` to go away (ms). Default 1 500. */
  readonly indexWaitMs?: number;
}

/**
 * Run `fn` while holding the repository's write locks. Calls in this process run one after another
 * in call order; other processes wait on the lock file.
 * @throws MemoryError `git.busy` when a lock cannot be taken in time (a stale `index.lock` from a
 *   crashed git, or another long-running writer).
 */
export function withRepoLock<T>(gitdir: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const prev = queues.get(gitdir) ?? Promise.resolve();
  const run = prev.catch(() => undefined).then(() => underFileLocks(gitdir, fn, options));
  const tail = run.catch(() => undefined);
  queues.set(gitdir, tail);
  void tail.then(() => {
    if (queues.get(gitdir) === tail) queues.delete(gitdir);
  });
  return run;
}

async function underFileLocks<T>(gitdir: string, fn: () => Promise<T>, options: LockOptions): Promise<T> {
  const own = join(gitdir, GITMEM_LOCK);
  const releaseOwn = await acquire(own, options.waitMs ?? 15_000, true);
  try {
    const releaseIndex = await acquire(join(gitdir, INDEX_LOCK), options.indexWaitMs ?? 1_500, false);
    try {
      return await fn();
    } finally {
      await releaseIndex();
    }
  } finally {
    await releaseOwn();
  }
}

/**
 * Take one lock file (platform/lockfile.ts). Our own lock is stale when its process is gone or it
 * stayed unreadable for 30 s; an `index.lock` only when gitmem wrote it and its process is gone
 * (canonical git's holds index data and is never removed: that is the user's to decide).
 */
async function acquire(path: string, waitMs: number, ours: boolean): Promise<() => Promise<void>> {
  let got: LockAttempt;
  try {
    // `index.lock` names its holder too, so one left by a SIGKILLed gitmem (not by canonical git)
    // is recognised as stale instead of blocking every later checkpoint (found by the
    // crash-consistency harness, bench/reliability/crash.ts).
    got = await acquireLockFile(
      path,
      ours
        ? { waitMs, unreadableStaleMs: 30_000 }
        : {
            waitMs,
            unreadableStaleMs: Infinity,
            extra: { gitmem: 'index-lock' },
            breakable: (h) => h.gitmem === 'index-lock',
          },
    );
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new MemoryError('git.not-a-repository', `git directory is missing: ${path}`, { cause: e });
    }
    throw new MemoryError('git.busy', `cannot create ${path}: ${(e as Error).message}`, {
      cause: e,
      data: { lock: path },
    });
  }
  if (got.taken) return () => got.release();
  throw new MemoryError('git.busy', `the repository is busy: ${path} exists`, {
    data: { lock: path },
    hint: ours
      ? 'another gitmem checkpoint is running; retry in a moment'
      : `another git process is running; if none is, a crashed one left ${path} behind: remove it and retry`,
  });
}

// ── A ref's lock (`<ref>.lock`, git's ref-update protocol) ─────────────────────────────────────────
// The lock holds only the new commit id (git renames it into the ref), so it cannot name its holder
// the way gitmem's own locks do. Before creating it, gitmem writes `<gitdir>/gitmem-ref-lock.json`
// ({ pid, lock, oid }) and removes it after the rename. A later update (run under the repository lock
// above, so no other gitmem is updating a ref) that finds the lock removes it only when that record
// names this lock, its process is gone, and the lock holds the recorded id (or nothing yet, written
// over 5 s ago): then it is the leftover of a gitmem killed between lock and rename (found by the
// crash-consistency harness, bench/reliability/crash.ts). A lock canonical git holds is never
// removed: that is `git.busy`.

/** The record of the ref lock gitmem is taking, inside the gitdir. */
export const REF_LOCK_RECORD = 'gitmem-ref-lock.json';

/** How old an empty ref lock must be before a dead gitmem's record lets it go (ms). */
const EMPTY_STALE_MS = 5_000;

interface RefLockRecord {
  readonly pid: number;
  readonly lock: string;
  readonly oid: string;
}

async function readRecord(gitdir: string): Promise<RefLockRecord | undefined> {
  try {
    const r = JSON.parse(await fsp.readFile(join(gitdir, REF_LOCK_RECORD), 'utf8')) as Partial<RefLockRecord>;
    return typeof r.pid === 'number' && typeof r.lock === 'string' && typeof r.oid === 'string'
      ? { pid: r.pid, lock: r.lock, oid: r.oid }
      : undefined;
  } catch {
    return undefined;
  }
}

/** True when `lock` is the leftover of the gitmem `rec` names, which died holding it (see the file comment). */
async function leftByDeadGitmem(rec: RefLockRecord | undefined, lock: string): Promise<boolean> {
  if (!rec || rec.lock !== lock || rec.pid === process.pid || processAlive(rec.pid)) return false;
  try {
    const [text, st] = await Promise.all([fsp.readFile(lock, 'utf8'), fsp.stat(lock)]);
    return text === `${rec.oid}\n` || (text === '' && Date.now() - st.mtimeMs > EMPTY_STALE_MS);
  } catch {
    return false;
  }
}

/**
 * Create `lock` exclusively for writing `oid`, after recording it in the gitdir; a leftover of a
 * killed gitmem is removed first. Call releaseRefLock once the lock is renamed or removed.
 * @throws MemoryError `git.busy` (naming the ref `ref`) when another process holds the lock.
 */
export async function takeRefLock(
  gitdir: string,
  lock: string,
  oid: string,
  ref: string,
): Promise<import('node:fs/promises').FileHandle> {
  // The record of an earlier update is read before this one replaces it.
  const prior = await readRecord(gitdir);
  await fsp.writeFile(join(gitdir, REF_LOCK_RECORD), JSON.stringify({ pid: process.pid, lock, oid }));
  try {
    return await fsp.open(lock, 'wx');
  } catch (first) {
    if ((first as NodeJS.ErrnoException).code === 'EEXIST' && (await leftByDeadGitmem(prior, lock))) {
      await fsp.rm(lock, { force: true });
      try {
        return await fsp.open(lock, 'wx');
      } catch (e) {
        throw busy(ref, lock, e);
      }
    }
    throw busy(ref, lock, first);
  }
}

/** Forget the record takeRefLock wrote (the lock is renamed into the ref, or removed). */
export async function releaseRefLock(gitdir: string): Promise<void> {
  await fsp.rm(join(gitdir, REF_LOCK_RECORD), { force: true });
}

function busy(ref: string, lock: string, e: unknown): MemoryError {
  return new MemoryError('git.busy', `cannot lock ${ref}: ${(e as Error).message}`, {
    cause: e,
    data: { lock },
    hint: `another git process is updating ${ref}; if none is, remove ${lock} and retry`,
  });
}
