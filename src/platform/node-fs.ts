// MemoryFs over node:fs confined to one workspace root: `..`, absolute paths and symlinks that
// lead outside the root are refused on every read and write. Imports core and node:* only.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp, realpathSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { MemoryError } from '../core/errors.js';
import { toRelPath, type RelPath } from '../core/paths.js';
import type { MemoryFs } from '../core/ports.js';
import { refuseSecretsInWrite } from '../core/secrets.js';
import { DEFAULT_MAX_READ_BYTES, nonRegularKind, readBounded } from './safe-read.js';

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/**
 * Create a {@link MemoryFs} rooted at `root` (an existing folder).
 * @throws MemoryError `workspace.not-found` when the root does not exist.
 */
export function createNodeFs(root: string, options: { maxReadBytes?: number } = {}): MemoryFs {
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (cause) {
    throw new MemoryError('workspace.not-found', `workspace folder not found: ${root}`, { cause, hint: 'check --dir' });
  }

  /** Paths found inside the root by the last {@link MemoryFs.list} walk. */
  const verified = new Set<string>();

  /** Absolute path for `path`, after checking that no symlink on the way leaves the root. */
  async function resolveInside(path: RelPath, forWrite: boolean): Promise<string> {
    const rel = toRelPath(path);
    const abs = join(realRoot, ...rel.split('/'));
    // Paths the last list() walked were checked then (every folder's realpath, every symlink's
    // target): skip the per-call realpath walk, which dominated reading a 10,000-file workspace.
    if (verified.has(rel)) return abs;
    // Resolve the deepest existing ancestor (the file itself when it exists) and check it.
    let probe = abs;
    for (;;) {
      try {
        const real = await fsp.realpath(probe);
        if (!inside(realRoot, real)) {
          throw new MemoryError('path.outside-root', `path leads outside the workspace through a symlink: ${rel}`, {
            data: { path: rel },
          });
        }
        break;
      } catch (e) {
        if (e instanceof MemoryError) throw e;
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          const up = dirname(probe);
          if (up === probe || !inside(realRoot, up)) break;
          probe = up;
          continue;
        }
        if (code === 'ELOOP') {
          throw new MemoryError('path.invalid', `symlink loop at ${rel}`, { data: { path: rel } });
        }
        if (!forWrite)
          throw new MemoryError('fs.read-failed', `cannot read ${rel}: ${code ?? String(e)}`, { cause: e });
        break;
      }
    }
    return abs;
  }

  /**
   * Read with the type and size checked first (never a FIFO, device or unbounded stream); a file
   * whose size or mtime moves during the read is read again, a few times, before it is reported
   * `unstable` with the last bytes seen.
   */
  async function readStable(abs: string, path: string) {
    let r = await readBounded(abs, path, maxReadBytes);
    for (let i = 0; r?.unstable && i < 3; i++) {
      await new Promise((res) => setTimeout(res, 50 * (i + 1)));
      r = await readBounded(abs, path, maxReadBytes);
    }
    return r;
  }

  /** The file's current text for the secret guard ('' when new or not a readable regular file). */
  async function currentText(abs: string): Promise<string> {
    try {
      const r = await readBounded(abs, abs, maxReadBytes);
      return r ? new TextDecoder().decode(r.bytes) : '';
    } catch {
      return '';
    }
  }

  return {
    root: realRoot,

    async read(path) {
      const abs = await resolveInside(path, false);
      return (await readStable(abs, path))?.bytes;
    },

    async readChecked(path) {
      const abs = await resolveInside(path, false);
      const r = await readStable(abs, path);
      return r ? { bytes: r.bytes, unstable: r.unstable } : undefined;
    },

    async writeTextAtomic(path, text) {
      const abs = await resolveInside(path, true);
      // The secret guard every write path shares (CLI, MCP, language server, backends): before any byte
      // reaches the disk, the name and the lines this write adds are scanned.
      refuseSecretsInWrite(path, text, await currentText(abs));
      try {
        await fsp.mkdir(dirname(abs), { recursive: true });
        // write-file-atomic: temp file in the same folder, fsync, rename; keeps the old file on failure.
        await writeFileAtomic(abs, text, { encoding: 'utf8', fsync: true });
      } catch (e) {
        throw new MemoryError('fs.write-failed', `cannot write ${path}: ${(e as Error).message}`, { cause: e });
      }
    },

    async createTextExclusive(path, text) {
      const abs = await resolveInside(path, true);
      refuseSecretsInWrite(path, text);
      try {
        await fsp.mkdir(dirname(abs), { recursive: true });
        return await createExclusive(abs, text);
      } catch (e) {
        throw new MemoryError('fs.write-failed', `cannot write ${path}: ${(e as Error).message}`, { cause: e });
      }
    },

    async renameFile(from, to) {
      const src = await resolveInside(from, true);
      const dst = await resolveInside(to, true);
      try {
        await fsp.mkdir(dirname(dst), { recursive: true });
        await fsp.link(src, dst);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        if (code === 'ENOENT') throw new MemoryError('fs.not-found', `no such file: ${from}`);
        throw new MemoryError('fs.write-failed', `cannot move ${from} to ${to}: ${(e as Error).message}`, { cause: e });
      }
      try {
        await fsp.unlink(src);
      } catch (e) {
        throw new MemoryError(
          'fs.write-failed',
          `moved ${from} to ${to} but could not remove the old name: ${(e as Error).message}`,
          { cause: e },
        );
      }
      return true;
    },

    async remove(path) {
      const abs = await resolveInside(path, true);
      try {
        await fsp.rm(abs, { force: true });
      } catch (e) {
        throw new MemoryError('fs.write-failed', `cannot delete ${path}: ${(e as Error).message}`, { cause: e });
      }
    },

    async withFileLock(path, fn, options = {}) {
      const abs = await resolveInside(path, true);
      try {
        await fsp.mkdir(dirname(abs), { recursive: true });
      } catch (e) {
        throw new MemoryError('fs.write-failed', `cannot create the folder of ${path}: ${(e as Error).message}`, {
          cause: e,
        });
      }
      let release: () => Promise<void>;
      try {
        release = await acquireFileLock(abs, path, options.waitMs ?? 10_000);
      } catch (e) {
        if (e instanceof MemoryError) throw e;
        throw new MemoryError('fs.write-failed', `cannot lock ${path}: ${(e as Error).message}`, { cause: e });
      }
      try {
        return await fn();
      } finally {
        await release();
      }
    },

    async stat(path) {
      const abs = await resolveInside(path, false);
      // statSync, not fsp.stat: the freshness walk stats every file, and one promise stat is a round
      // trip through the libuv thread pool. On a loaded 2-core machine those hand-offs, not the
      // syscalls, were the largest cost of a one-shot recall (3,000 files: ~140 ms of 1.2 s).
      try {
        const s = statSync(abs, { bigint: true, throwIfNoEntry: false });
        if (!s) return undefined;
        return {
          size: Number(s.size),
          mtimeMs: Number(s.mtimeNs) / 1e6,
          isDirectory: s.isDirectory(),
          key: `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`,
        };
      } catch {
        return undefined;
      }
    },

    async list(accept, onSkip) {
      const out: RelPath[] = [];
      verified.clear();
      const seen = new Set<string>();
      async function walk(absDir: string, relDir: string): Promise<void> {
        let real: string;
        try {
          real = await fsp.realpath(absDir);
        } catch (e) {
          onSkip?.(relDir || '.', `unreadable: ${(e as NodeJS.ErrnoException).code ?? e}`);
          return;
        }
        if (!inside(realRoot, real)) {
          onSkip?.(relDir, 'symlink leads outside the workspace');
          return;
        }
        if (seen.has(real)) {
          onSkip?.(relDir, 'symlink loop');
          return;
        }
        seen.add(real);
        let entries: import('node:fs').Dirent[];
        try {
          entries = await fsp.readdir(absDir, { withFileTypes: true });
        } catch (e) {
          onSkip?.(relDir || '.', `unreadable: ${(e as NodeJS.ErrnoException).code ?? e}`);
          return;
        }
        for (const ent of entries) {
          const name = ent.name;
          if (name === '.git' || name === 'node_modules' || name === '.gitmem') continue;
          const relPath = relDir ? `${relDir}/${name}` : name;
          const abs = join(absDir, name);
          let isDir = ent.isDirectory();
          let isFile = ent.isFile();
          if (ent.isSymbolicLink()) {
            try {
              const target = await fsp.realpath(abs);
              if (!inside(realRoot, target)) {
                onSkip?.(relPath, 'symlink leads outside the workspace');
                continue;
              }
              const st = await fsp.stat(abs);
              isDir = st.isDirectory();
              isFile = st.isFile();
            } catch (e) {
              onSkip?.(relPath, (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'symlink loop' : 'broken symlink');
              continue;
            }
          }
          if (isDir) await walk(abs, relPath);
          else if (!isFile) {
            // A FIFO, socket or device with a memory name is never read; say so instead of hiding it.
            let rp: RelPath | undefined;
            try {
              rp = toRelPath(relPath);
            } catch {
              rp = undefined;
            }
            if (rp && onSkip && accept(rp)) {
              let what = 'not a regular file';
              try {
                what = nonRegularKind(await fsp.stat(abs)) ?? what;
              } catch {
                /* vanished */
              }
              onSkip(relPath, `${what}, not a file; not indexed`);
            }
          } else {
            let rp: RelPath;
            try {
              rp = toRelPath(relPath);
            } catch {
              onSkip?.(relPath, 'unusable file name');
              continue;
            }
            if (accept(rp)) {
              out.push(rp);
              verified.add(rp);
            }
          }
        }
      }
      await walk(realRoot, '');
      return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
  };
}

/** `abs`'s file name, or a hash of it when helper names built on it would pass the 255-byte limit. */
function shortName(abs: string): string {
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
 * @returns false when `abs` exists.
 */
async function createExclusive(abs: string, text: string | Uint8Array): Promise<boolean> {
  const tmp = tempNameFor(abs);
  const fh = await fsp.open(tmp, 'wx');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await fsp.link(tmp, abs);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    let h: import('node:fs/promises').FileHandle;
    try {
      h = await fsp.open(abs, 'wx');
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
    try {
      await h.writeFile(text);
      await h.sync();
    } finally {
      await h.close();
    }
    return true;
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

interface FileLockHolder {
  pid: number;
  host: string;
  token: string;
  since: string;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLockHolder(
  path: string,
): Promise<{ holder: FileLockHolder | undefined; ageMs: number } | undefined> {
  try {
    const [text, st] = await Promise.all([fsp.readFile(path, 'utf8'), fsp.stat(path)]);
    let holder: FileLockHolder | undefined;
    try {
      const j = JSON.parse(text) as FileLockHolder;
      if (typeof j.pid === 'number' && typeof j.token === 'string') holder = j;
    } catch {
      holder = undefined;
    }
    return { holder, ageMs: Date.now() - st.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Take `<dir>/.<name>.lock` for `abs`. The lock file is published complete (see {@link createExclusive}),
 * so a holder is always readable; one whose process is gone (same host), or an unreadable one older
 * than 5 s, is stale and is broken by renaming it away (and handed back if it turns out to be fresh).
 * @returns the release function.
 */
async function acquireFileLock(abs: string, rel: string, waitMs: number): Promise<() => Promise<void>> {
  const lock = join(dirname(abs), `.${shortName(abs)}.lock`);
  const token = randomBytes(8).toString('hex');
  const me: FileLockHolder = { pid: process.pid, host: hostname(), token, since: new Date().toISOString() };
  const deadline = Date.now() + waitMs;
  let delay = 5;
  for (;;) {
    if (await createExclusive(lock, JSON.stringify(me))) {
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const cur = await readLockHolder(lock);
        if (cur?.holder?.token === token) await fsp.rm(lock, { force: true });
      };
    }
    const cur = await readLockHolder(lock);
    if (!cur) continue; // released meanwhile
    const stale = cur.holder ? cur.holder.host === hostname() && !processAlive(cur.holder.pid) : cur.ageMs > 5000;
    if (stale) {
      const tomb = `${lock}.stale-${process.pid}-${token}`;
      try {
        await fsp.rename(lock, tomb);
        const taken = await readLockHolder(tomb);
        // Another process replaced the stale lock between our read and the rename: give it back.
        if (cur.holder && taken?.holder && taken.holder.token !== cur.holder.token)
          await fsp.link(tomb, lock).catch(() => undefined);
      } catch {
        /* someone else broke it first */
      }
      await fsp.rm(tomb, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new MemoryError('fs.conflict', `${rel} is locked by another process (pid ${cur.holder?.pid ?? '?'})`, {
        data: { path: rel, lock },
        hint: `retry in a moment; if no gitmem process is running, remove ${lock}`,
      });
    }
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
}
