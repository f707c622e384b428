// Serialise git writes (B23): one in-process queue per gitdir, a cross-process gitmem lock file
// (`<gitdir>/gitmem-checkpoint.lock`, pid inside, stale when its process is gone) and canonical
// git's own `<gitdir>/index.lock`, so neither `git` nor another gitmem process writes meanwhile.
// deps: core, platform/lockfile.ts (the one lock-file implementation). No isomorphic-git here.
import { join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { acquireLockFile, type LockAttempt } from '../platform/lockfile.js';

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
