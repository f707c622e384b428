// IndexStorage over one folder of derived state (default `<gitdir>/gitmem/`). Atomic replace for
// every artifact. Imports core and node:* only (plus write-file-atomic).
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { MemoryError } from '../core/errors.js';
import type { IndexLock, IndexStorage } from '../core/ports.js';

/** Name of the single-writer lock file in the index folder (B37). */
export const WRITE_LOCK = 'write.lock';

interface LockHolder {
  pid: number;
  host: string;
  token: string;
  since: string;
  purpose?: string;
}

function alive(pid: number): boolean {
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
      if (typeof j.pid === 'number' && typeof j.token === 'string') holder = j;
    } catch {
      holder = undefined; // being written right now, or torn by a crash
    }
    return { holder, ageMs: Date.now() - st.mtimeMs };
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * Create the derived-state folder with a `.gitignore` of `*`: wherever it lives (`.gitmem/` outside
 * git, a configured `index.dir` inside the work tree), git never offers it for a commit.
 */
async function ensureFolder(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  const gi = join(dir, '.gitignore');
  try {
    await fsp.writeFile(gi, '# gitmem derived state: disposable, never committed\n*\n', { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/**
 * Take `<dir>/write.lock` (O_EXCL create, pid + host + token inside). A lock whose process is gone
 * (same host) or that stayed unreadable for 2 s is stale and is broken by renaming it away; a lock
 * of a live process is waited for up to `waitMs`.
 */
async function acquireLock(dir: string, waitMs: number, purpose: string | undefined): Promise<IndexLock | undefined> {
  const path = join(dir, WRITE_LOCK);
  await ensureFolder(dir);
  const token = randomBytes(8).toString('hex');
  const deadline = Date.now() + waitMs;
  let delay = 10;
  for (;;) {
    try {
      const fh = await fsp.open(path, 'wx');
      try {
        const me: LockHolder = {
          pid: process.pid,
          host: hostname(),
          token,
          since: new Date().toISOString(),
          ...(purpose ? { purpose } : {}),
        };
        await fh.writeFile(JSON.stringify(me));
      } finally {
        await fh.close();
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          const cur = await readHolder(path);
          if (cur?.holder?.token === token) await fsp.rm(path, { force: true });
        },
      };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new MemoryError('index.write-failed', `cannot create the index lock ${path}: ${(e as Error).message}`, {
          cause: e,
        });
      }
    }
    const cur = await readHolder(path);
    if (!cur) continue; // released meanwhile: try again at once
    const stale = cur.holder ? cur.holder.host === hostname() && !alive(cur.holder.pid) : cur.ageMs > 2000;
    if (stale) {
      const tomb = `${path}.stale-${process.pid}-${token}`;
      try {
        await fsp.rename(path, tomb);
        const taken = await readHolder(tomb);
        // Another process replaced the stale lock between our read and rename: give it back.
        if (cur.holder && taken?.holder && taken.holder.token !== cur.holder.token)
          await fsp.link(tomb, path).catch(() => undefined);
      } catch {
        /* someone else broke it first */
      }
      await fsp.rm(tomb, { force: true });
      continue;
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 100);
  }
}

function checkName(name: string): void {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) {
    throw new MemoryError('path.invalid', `invalid artifact name: ${name}`);
  }
}

/** Create an {@link IndexStorage} in `dir` (created on first write). */
export function createIndexStorage(dir: string): IndexStorage {
  return {
    location: dir,
    async read(name) {
      checkName(name);
      try {
        return new Uint8Array(await fsp.readFile(join(dir, name)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new MemoryError('index.corrupt', `cannot read index artifact ${name}: ${(e as Error).message}`, {
          cause: e,
        });
      }
    },
    async write(name, data) {
      checkName(name);
      try {
        await ensureFolder(dir);
        await writeFileAtomic(join(dir, name), typeof data === 'string' ? data : Buffer.from(data), { fsync: true });
      } catch (e) {
        throw new MemoryError('index.write-failed', `cannot write index artifact ${name}: ${(e as Error).message}`, {
          cause: e,
          hint: `check that ${dir} is writable`,
        });
      }
    },
    async remove(name) {
      checkName(name);
      await fsp.rm(join(dir, name), { force: true });
    },
    lock(options = {}) {
      return acquireLock(dir, options.waitMs ?? 0, options.purpose);
    },
  };
}
