// Serialise git writes (B23): one in-process queue per gitdir, a cross-process gitmem lock file
// (`<gitdir>/gitmem-checkpoint.lock`, pid inside, stale when its process is gone) and canonical
// git's own `<gitdir>/index.lock`, so neither `git` nor another gitmem process writes meanwhile.
// deps: core, node:fs/node:path/node:os. No isomorphic-git here.
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '../core/errors.js';

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
  await acquire(own, options.waitMs ?? 15_000, true);
  try {
    const index = join(gitdir, INDEX_LOCK);
    await acquire(index, options.indexWaitMs ?? 1_500, false);
    try {
      return await fn();
    } finally {
      await fsp.rm(index, { force: true });
    }
  } finally {
    await fsp.rm(own, { force: true });
  }
}

async function acquire(path: string, waitMs: number, ours: boolean): Promise<void> {
  const deadline = Date.now() + waitMs;
  let delay = 10;
  for (;;) {
    try {
      const h = await fsp.open(path, 'wx');
      try {
        if (ours) await h.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() }));
      } finally {
        await h.close();
      }
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new MemoryError('git.not-a-repository', `git directory is missing: ${path}`, { cause: e });
      }
      if (code !== 'EEXIST') throw new MemoryError('git.busy', `cannot create ${path}: ${(e as Error).message}`, { cause: e, data: { lock: path } });
    }
    if (ours && (await isStale(path))) {
      await fsp.rm(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new MemoryError('git.busy', `the repository is busy: ${path} exists`, {
        data: { lock: path },
        hint: ours
          ? 'another gitmem checkpoint is running; retry in a moment'
          : `another git process is running; if none is, a crashed one left ${path} behind: remove it and retry`,
      });
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 200);
  }
}

/** Our lock is stale when it names a process on this host that no longer exists. */
async function isStale(path: string): Promise<boolean> {
  let info: { pid?: unknown; host?: unknown };
  try {
    info = JSON.parse(await fsp.readFile(path, 'utf8')) as typeof info;
  } catch {
    // Unreadable or half-written: stale only once it is old enough that no writer is mid-way.
    try {
      const st = await fsp.stat(path);
      return Date.now() - st.mtimeMs > 30_000;
    } catch {
      return false;
    }
  }
  if (typeof info.pid !== 'number' || info.host !== hostname()) return false;
  if (info.pid === process.pid) return false;
  try {
    process.kill(info.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
