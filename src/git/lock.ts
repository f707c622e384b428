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
      // Both locks name their holder; `index.lock` too, so one left by a SIGKILLed gitmem (not by
      // canonical git, whose lock holds index data) is recognised as stale instead of blocking every
      // later checkpoint (found by the crash-consistency harness, bench/reliability/crash.ts).
      await createComplete(
        path,
        JSON.stringify({
          pid: process.pid,
          host: hostname(),
          at: new Date().toISOString(),
          ...(ours ? {} : { gitmem: 'index-lock' }),
        }),
      );
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new MemoryError('git.not-a-repository', `git directory is missing: ${path}`, { cause: e });
      }
      if (code !== 'EEXIST')
        throw new MemoryError('git.busy', `cannot create ${path}: ${(e as Error).message}`, {
          cause: e,
          data: { lock: path },
        });
    }
    if (await isStale(path, ours)) {
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

/**
 * Create `path` holding `text`, complete or not at all: temp file + hard link (EEXIST when taken),
 * falling back to an O_EXCL create where hard links are unsupported.
 */
async function createComplete(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fsp.writeFile(tmp, text, { flag: 'wx' });
  try {
    await fsp.link(tmp, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    const h = await fsp.open(path, 'wx');
    try {
      await h.writeFile(text);
    } finally {
      await h.close();
    }
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

/**
 * A lock is stale when it names a process on this host that no longer exists. Our own lock is also
 * stale when it stays unreadable for 30 s; an `index.lock` counts only when gitmem wrote it (canonical
 * git's is never removed: that is the user's to decide).
 */
async function isStale(path: string, ours: boolean): Promise<boolean> {
  let info: { pid?: unknown; host?: unknown; gitmem?: unknown };
  try {
    info = JSON.parse(await fsp.readFile(path, 'utf8')) as typeof info;
    if (!ours && info.gitmem !== 'index-lock') return false;
  } catch {
    if (!ours) return false;
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
