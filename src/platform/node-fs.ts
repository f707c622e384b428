// MemoryFs over node:fs confined to one workspace root: `..`, absolute paths and symlinks that
// lead outside the root are refused on every read and write. The walk of `list` (and the two
// confinement checks) is confined-walk.ts. Imports core and node:* only.
// deps: core (errors, paths, ports, secrets), platform (stat-key, listing-prefetch, lockfile, safe-read, confined-walk).
import { promises as fsp, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { toRelPath, type RelPath } from '../core/paths.js';
import type { FileStat, MemoryFs } from '../core/ports.js';
import { writeTextFileAtomic } from './atomic-text.js';
import { statAt } from './stat-key.js';
import { currentListing, prefetchedListing, type PrefetchedListing } from './listing-prefetch.js';
import { refuseInWrite } from '../core/write-guard.js';
import { guardWrite, refuseNulInWrite } from './write-guards.js';
import { acquireLockFile, createExclusive, shortName, type LockAttempt } from './lockfile.js';
import { DEFAULT_MAX_READ_BYTES, readBounded } from './safe-read.js';
import { inPrivateFolder, inside, walkConfined } from './confined-walk.js';
import { writeFailed } from './write-failed.js';
import { realPathInside } from './real-path.js';

/** Remove `dir` and each folder above it while it is empty, up to `last` (included), never `root`. */
async function removeEmptyFolders(dir: string, root: string, last?: string): Promise<void> {
  for (let d = dir; d !== root && inside(root, d); d = dirname(d)) {
    try {
      await fsp.rmdir(d);
    } catch {
      return; // not empty (or not ours to remove): the folders above it are not empty either
    }
    if (d === last) return;
  }
}

/**
 * Create a {@link MemoryFs} rooted at `root` (an existing folder).
 * @throws MemoryError `workspace.not-found` when the root does not exist.
 */
export function createNodeFs(
  root: string,
  options: { maxReadBytes?: number; listing?: Promise<PrefetchedListing | undefined> } = {},
): MemoryFs {
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (cause) {
    throw new MemoryError('workspace.not-found', `workspace folder not found: ${root}`, { cause, hint: 'check --dir' });
  }
  // A file given as the workspace (`--dir notes.md`) would be walked as an unreadable folder and
  // every write would fail deep inside with ENOTDIR (H07).
  if (!statSync(realRoot).isDirectory())
    throw new MemoryError('workspace.not-found', `workspace is not a folder: ${root}`, {
      hint: 'check --dir: it names a file; give the folder that holds the memory',
    });

  /**
   * The listing of this root taken at process start (platform/listing-prefetch.ts): `options.listing`,
   * else the process entry's; undefined without one, or once it is too old to stand for now.
   */
  const listing = async (): Promise<PrefetchedListing | undefined> => {
    return currentListing(await (options.listing ?? prefetchedListing(realRoot)), realRoot);
  };

  /** Paths found inside the root by the last {@link MemoryFs.list} walk → their absolute paths. */
  const verified = new Map<string, string>();

  /** Absolute path for `path`, after checking that no symlink on the way leaves the root. */
  async function resolveInside(path: RelPath, forWrite: boolean): Promise<string> {
    // Paths the last list() walked were checked then (every folder's realpath, every symlink's
    // target; each key is already a normalised RelPath, so toRelPath would return it unchanged):
    // skip the per-call normalising and realpath walk, which dominated reading a 10,000-file workspace.
    const known = verified.get(path);
    if (known !== undefined) return known;
    const rel = toRelPath(path);
    const abs = join(realRoot, ...rel.split('/'));
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
        if (inPrivateFolder(relative(realRoot, real)) && !inPrivateFolder(rel)) {
          throw new MemoryError('path.outside-root', `path leads into the git folder through a symlink: ${rel}`, {
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

  /** Atomic replace of `abs` with `data` (folders made), a failure as `fs.write-failed`. */
  async function replace(abs: string, path: RelPath, data: string | Uint8Array): Promise<void> {
    try {
      await fsp.mkdir(dirname(abs), { recursive: true });
      // Temp file in the same folder, fsync, rename; keeps the old file on failure (platform/atomic-text.ts).
      await writeTextFileAtomic(abs, data);
    } catch (e) {
      throw writeFailed('fs.write-failed', `cannot write ${path}`, e, dirname(abs));
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

    async writeTextAtomic(path, text, carried) {
      const abs = await resolveInside(path, true);
      // The guards every write path shares (CLI, MCP, language server, backends): before any byte
      // reaches the disk, the name and the lines this write adds are scanned, and a file that is not
      // valid UTF-8 is not replaced by a text that lost its bytes.
      await guardWrite(abs, path, text, { rewrite: true, maxReadBytes, carried });
      await replace(abs, path, text);
    },

    async writeBytesAtomic(path, bytes, carried) {
      const abs = await resolveInside(path, true);
      await guardWrite(abs, path, new TextDecoder().decode(bytes), { rewrite: false, maxReadBytes, carried });
      await replace(abs, path, bytes);
    },

    async checkWrite(path, text, options) {
      const abs = await resolveInside(path, true);
      const create = options?.create === true;
      await guardWrite(abs, path, text, { rewrite: !create, maxReadBytes, ...(create ? { fresh: true } : {}) });
    },

    async createTextExclusive(path, text) {
      const abs = await resolveInside(path, true);
      refuseNulInWrite(path, text);
      refuseInWrite(path, text);
      try {
        await fsp.mkdir(dirname(abs), { recursive: true });
        return await createExclusive(abs, text);
      } catch (e) {
        throw writeFailed('fs.write-failed', `cannot write ${path}`, e, dirname(abs));
      }
    },

    async renameFile(from, to) {
      const src = await resolveInside(from, true);
      const dst = await resolveInside(to, true);
      let made: string | undefined; // the first folder this rename created, if any
      try {
        made = await fsp.mkdir(dirname(dst), { recursive: true });
        await fsp.link(src, dst);
      } catch (e) {
        if (made) await removeEmptyFolders(dirname(dst), realRoot, made); // a failed rename leaves no folder (U67)
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        if (code === 'ENOENT') throw new MemoryError('fs.not-found', `no such file: ${from}`);
        throw new MemoryError('fs.write-failed', `cannot move ${from} to ${to}: ${(e as Error).message}`, { cause: e });
      }
      try {
        await fsp.unlink(src);
      } catch (e) {
        // The file now has both names: drop the new one, so a failed rename changed nothing (U67).
        const undone = await fsp.unlink(dst).then(
          () => true,
          () => false,
        );
        if (undone && made) await removeEmptyFolders(dirname(dst), realRoot, made);
        throw new MemoryError(
          'fs.write-failed',
          undone
            ? `cannot move ${from} to ${to}: the old name cannot be removed (${(e as Error).message}); it stays at ${from}`
            : `moved ${from} to ${to} but could not remove the old name: ${(e as Error).message}`,
          { cause: e },
        );
      }
      // The folders the old name leaves empty go too, as git's own mv does (U64); never the root.
      await removeEmptyFolders(dirname(src), realRoot);
      return true;
    },

    async realPath(path) {
      return realPathInside(realRoot, await resolveInside(path, false));
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
        throw writeFailed('fs.write-failed', `cannot create the folder of ${path}`, e, realRoot);
      }
      const lock = join(dirname(abs), `.${shortName(abs)}.lock`);
      let got: LockAttempt;
      try {
        got = await acquireLockFile(lock, { waitMs: options.waitMs ?? 10_000 });
      } catch (e) {
        throw writeFailed('fs.write-failed', `cannot lock ${path}`, e, dirname(abs));
      }
      if (!got.taken) {
        throw new MemoryError('fs.conflict', `${path} is locked by another process (pid ${got.holder?.pid ?? '?'})`, {
          data: { path, lock },
          hint: `retry in a moment; if no gitmem process is running, remove ${lock}`,
        });
      }
      try {
        return await fn();
      } finally {
        await got.release();
      }
    },

    async stat(path) {
      // A path the last walk found needs no check (and no extra async hop per file of the walk).
      return statAt(verified.get(path) ?? (await resolveInside(path, false)));
    },

    async statAll(paths) {
      const out: (FileStat | undefined)[] = new Array(paths.length);
      // The process entry's listing of this root (platform/listing-prefetch.ts): its regular files need no stat here.
      const pre = (await listing())?.stats();
      for (let i = 0; i < paths.length; i++) {
        const p = paths[i]!;
        const abs = verified.get(p) ?? (await resolveInside(p, false));
        out[i] = pre?.get(abs) ?? statAt(abs);
      }
      return out;
    },

    async listingDigest() {
      return (await listing())?.digest;
    },

    async list(accept, onSkip, taken) {
      verified.clear();
      return walkConfined({ realRoot, verified, accept, onSkip, taken });
    },
  };
}
