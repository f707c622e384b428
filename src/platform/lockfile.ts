// Lock files, the one implementation: a file created exclusively and published complete (temp file
// + hard link), naming its holder (pid, host, a token, since when). A lock whose process is gone
// (same host) is stale and is broken at once; an unreadable one only after it stayed unreadable for
// a while. The per-file write lock (node-fs withFileLock), the index folder's write.lock and git's
// checkpoint locks (git/lock.ts) are all this. Imports node:* only.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** `abs`'s file name, or a hash of it when helper names built on it would pass the 255-byte limit. */
export function shortName(abs: string): string {
  const name = basename(abs);
  return Buffer.byteLength(name) <= 200 ? name : createHash('sha256').update(name).digest('hex').slice(0, 32);
}

/** A temp name next to `abs` that no layout classifies as memory (dot-prefixed, `.tmp` suffix). */
function tempNameFor(abs: string): string {
  return join(dirname(abs), `.${shortName(abs)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Write `text` to a temp file (fsync), then hard-link it to `abs`: link(2) fails with EEXIST when the
 * name is taken and otherwise publishes the complete file in one step. File systems without hard
 * links fall back to an O_EXCL create (still exclusive; a kill mid-write can then leave a short file).
 * A failure at any step (a full disk: ENOSPC while the temp file is written) leaves neither the temp
 * file nor a short `abs` behind (docs/bad-inputs.md R23).
 * @returns false when `abs` exists.
 * @throws the node error (ENOENT when the folder is missing, EACCES, ENOSPC, …) for anything else.
 */
export async function createExclusive(abs: string, text: string | Uint8Array): Promise<boolean> {
  const tmp = tempNameFor(abs);
  try {
    await writeSynced(await fsp.open(tmp, 'wx'), text);
    try {
      await fsp.link(tmp, abs);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    }
    let h: import('node:fs/promises').FileHandle;
    try {
      h = await fsp.open(abs, 'wx');
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
    try {
      await writeSynced(h, text);
    } catch (e3) {
      await fsp.rm(abs, { force: true }).catch(() => undefined); // ours, and short
      throw e3;
    }
    return true;
  } finally {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Write `text` to `fh`, fsync, close (closed on a failure too). */
async function writeSynced(fh: import('node:fs/promises').FileHandle, text: string | Uint8Array): Promise<void> {
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** What a lock file says about its holder (extra fields, such as `purpose`, may follow). */
export interface LockHolder {
  readonly pid: number;
  readonly host?: string;
  readonly token?: string;
  readonly since?: string;
  readonly [field: string]: unknown;
}

export interface LockFileOptions {
  /** How long to wait for a live holder (ms); 0 = one try. */
  readonly waitMs: number;
  /** An unreadable lock (torn, being written, or not ours) older than this is stale (ms). Default 5 000; Infinity = never. */
  readonly unreadableStaleMs?: number;
  /** Extra fields written into the lock beside pid, host, token and since. */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Whether a readable lock of a gone process may be broken (default: always). */
  readonly breakable?: (holder: LockHolder) => boolean;
}

/** A taken lock, or the holder that kept it when the wait ran out. */
export type LockAttempt =
  | { readonly taken: true; release(): Promise<void> }
  | { readonly taken: false; readonly holder: LockHolder | undefined };

/**
 * Whether a process `pid` runs on this machine (signal 0: EPERM means it runs as another user).
 * The one process-alive check: lock holders here, streamed-build files in index-storage.ts.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(path: string): Promise<{ holder: LockHolder | undefined; ageMs: number } | undefined> {
  try {
    const [text, st] = await Promise.all([fsp.readFile(path, 'utf8'), fsp.stat(path)]);
    let holder: LockHolder | undefined;
    try {
      const j = JSON.parse(text) as LockHolder;
      if (j && typeof j === 'object' && typeof j.pid === 'number') holder = j;
    } catch {
      holder = undefined; // being written right now, torn by a crash, or not a gitmem lock
    }
    return { holder, ageMs: Date.now() - st.mtimeMs };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Locks this process holds (path → token), removed at exit if still ours (see {@link releaseAtExit}). */
const held = new Map<string, string>();
let exitHook = false;

/**
 * When the process ends through `process.exit` (a signal's grace period ran out, an exit mid-startup)
 * the async releases never run: remove, synchronously, every lock file that still names our token.
 */
function releaseAtExit(): void {
  for (const [path, token] of held) {
    try {
      if ((JSON.parse(readFileSync(path, 'utf8')) as LockHolder).token === token) rmSync(path, { force: true });
    } catch {
      /* gone, or no longer ours */
    }
  }
  held.clear();
}

/** Lock files being created right now: the file may exist before it is recorded in {@link held}. */
let creating = 0;

/** How many lock files this process holds right now (a signal handler waits for 0 before exiting). */
export function heldLockCount(): number {
  return held.size + creating;
}

async function createCounted(path: string, text: string): Promise<boolean> {
  creating++;
  try {
    return await createExclusive(path, text);
  } finally {
    creating--;
  }
}

/**
 * Take the lock file `path` (its folder must exist). Breaks stale locks (see the file comment),
 * waits for a live holder up to `waitMs` with growing pauses.
 * @returns `{ taken: true, release }` (release is idempotent and removes only our own lock), or
 *   `{ taken: false, holder }` when the wait ran out.
 * @throws the node error when the lock cannot be created for another reason (ENOENT, EACCES, …).
 */
export async function acquireLockFile(path: string, options: LockFileOptions): Promise<LockAttempt> {
  const token = randomBytes(8).toString('hex');
  const me = { pid: process.pid, host: hostname(), token, since: new Date().toISOString(), ...options.extra };
  const unreadableStaleMs = options.unreadableStaleMs ?? 5000;
  const deadline = Date.now() + options.waitMs;
  let delay = 5;
  for (;;) {
    if (await createCounted(path, JSON.stringify(me))) {
      let released = false;
      held.set(path, token);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', releaseAtExit);
      }
      return {
        taken: true,
        async release() {
          if (released) return;
          released = true;
          const cur = await readHolder(path);
          if (cur?.holder?.token === token) await fsp.rm(path, { force: true });
          if (held.get(path) === token) held.delete(path);
        },
      };
    }
    const cur = await readHolder(path);
    if (!cur) continue; // released meanwhile: try again at once
    const stale = cur.holder
      ? cur.holder.host === hostname() &&
        cur.holder.pid !== process.pid &&
        !processAlive(cur.holder.pid) &&
        (options.breakable?.(cur.holder) ?? true)
      : cur.ageMs > unreadableStaleMs;
    if (stale) {
      const tomb = `${path}.stale-${process.pid}-${token}`;
      try {
        await fsp.rename(path, tomb);
        const taken = await readHolder(tomb);
        // Another process replaced the stale lock between our read and the rename: give it back.
        if (cur.holder && taken?.holder && taken.holder.token !== cur.holder.token)
          await fsp.link(tomb, path).catch(() => undefined);
      } catch {
        /* someone else broke it first */
      }
      await fsp.rm(tomb, { force: true });
      continue;
    }
    if (Date.now() >= deadline) return { taken: false, holder: cur.holder };
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
}
