// MemoryFs over node:fs confined to one workspace root: `..`, absolute paths and symlinks that
// lead outside the root are refused on every read and write. A walk that meets one real file at two
// paths keeps one of them (linked-copies.ts). Imports core and node:* only.
// deps: core (errors, paths, ports, secrets, text), platform (stat-key, listing-prefetch, lockfile, safe-read, linked-copies).
import { promises as fsp, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { nameProblem, toRelPath, type RelPath } from '../core/paths.js';
import type { FileStat, MemoryFs } from '../core/ports.js';
import { writeTextFileAtomic } from './atomic-text.js';
import { statAt } from './stat-key.js';
import { currentListing, prefetchedListing, type PrefetchedListing } from './listing-prefetch.js';
import { refuseInWrite } from '../core/write-guard.js';
import { guardWrite, refuseNulInWrite } from './write-guards.js';
import { shownControls } from '../core/text.js';
import { acquireLockFile, createExclusive, shortName, type LockAttempt } from './lockfile.js';
import { DEFAULT_MAX_READ_BYTES, nonRegularKind, readBounded } from './safe-read.js';
import { dropLinkedCopies, linkedCopiesSaid, type RealOf } from './linked-copies.js';
import { writeFailed } from './write-failed.js';
import { realPathInside } from './real-path.js';

/**
 * `relPath` (directory entry names joined by `/` during a walk) as a RelPath without the cost of
 * {@link toRelPath}, when it already is one: entry names are single segments, never `.`/`..`, never
 * hold `/` or NUL. Paths with a backslash (a separator to toRelPath), a drive-like start or over
 * 4096 characters are left to toRelPath (undefined).
 */
function plainRelPath(relPath: string): RelPath | undefined {
  if (relPath.length > 4096 || relPath.includes('\\') || /^[A-Za-z]:/.test(relPath)) return undefined;
  return relPath as RelPath;
}

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

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

/** Git's own folder and gitmem's derived state: the walk never enters them, and no symlink may lead there (U38). */
function inPrivateFolder(relPath: string): boolean {
  return relPath.split(/[\\/]/).some((s) => s === '.git' || s === '.gitmem');
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
      const out: RelPath[] = [];
      verified.clear();
      const seen = new Set<string>();
      // Of each accepted file (parallel to `out`): its folder's real path, its name, and the target
      // when it is a symlink. A symlink to a file the walk also takes at its own path
      // (memory/alias.md -> ../MEMORY.md) would index, recall and validate the same lines twice
      // (U39); without a file symlink no two paths can share a real file (every real folder is
      // walked once), so real paths are joined only when the walk met one. (A real path and a map
      // entry per file took ~35 of the ~55 ms CPU of a 10,000-file walk in cpu profiles; one-shot
      // keyword recall at 10,000 files, 20 alternating A/B calls at load ≈ 9: CPU 453 -> 406 ms.)
      const dirOf: string[] = [];
      const nameOf: string[] = [];
      const links: { at: number; target: string; via: string | undefined }[] = [];
      // A symlinked folder's path → the path of the folder it leads to, for its one skip line (U65).
      const linkFolders = new Map<string, string>();
      // Symlinked folders are walked after every real one, in path order (U53): a folder is then
      // taken at its own path whatever order the listing gives, and its files reached again by a link
      // are dropped as linked copies below (kept there only when its own path is not memory). Each
      // real folder is walked at most once by a link; `walkedAt` says where.
      const later: { abs: string; rel: string }[] = [];
      const walkedAt = new Map<string, string>();
      const isMemoryName = (relPath: string): boolean => {
        try {
          return accept(toRelPath(relPath));
        } catch {
          return false;
        }
      };
      /** A memory file could be at `relPath`, or under it if it is a folder. */
      const keeps = (relPath: string): boolean => {
        try {
          return (taken ?? accept)(toRelPath(relPath));
        } catch {
          return false;
        }
      };
      const couldHoldMemory = (relPath: string): boolean =>
        keeps(relPath) || keeps(`${relPath}/a.md`) || keeps(`${relPath}/a/a.md`);
      /** `via`: the symlinked folder this walk went in by (and every folder under it), if any. */
      async function walk(absDir: string, relDir: string, via?: string): Promise<void> {
        const byLink = via !== undefined;
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
        const at = byLink ? walkedAt.get(real) : undefined;
        if (at !== undefined || (!byLink && seen.has(real))) {
          onSkip?.(relDir, at !== undefined ? `symlink to ${at}, indexed there` : 'symlink loop');
          return;
        }
        if (byLink) walkedAt.set(real, relDir);
        if (via === relDir) linkFolders.set(via, relative(realRoot, real).split(sep).join('/'));
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
          const abs = absDir.endsWith(sep) ? absDir + name : absDir + sep + name;
          // A name that is not valid UTF-8 comes back with U+FFFD in place of its bytes: no path
          // gitmem can form reaches the file, so it would vanish from every read. Said instead (B56).
          if (
            name.includes('\uFFFD') &&
            !(await fsp.lstat(abs).then(
              () => true,
              () => false,
            ))
          ) {
            const what = ent.isDirectory() ? 'folder' : 'file';
            onSkip?.(
              relPath,
              `${what} name is not valid UTF-8 (rename it)`,
              !ent.isDirectory() && isMemoryName(relPath),
            );
            continue;
          }
          // A line break in a name would split every line that names the file (recall, validate,
          // log, warnings) into two, the second looking like gitmem's own output (B59).
          const badName = nameProblem(name);
          if (badName !== undefined) {
            const what = ent.isDirectory() ? 'folder' : 'file';
            // Named with its breaks as symbols (LF -> U+240A): the raw path would split the report too.
            onSkip?.(
              shownControls(relPath).replace(/\n/g, '\u240a'),
              `${what} ${badName}`,
              !ent.isDirectory() && isMemoryName(relPath),
            );
            continue;
          }
          let isDir = ent.isDirectory();
          let isFile = ent.isFile();
          let linkTarget: string | undefined;
          if (ent.isSymbolicLink()) {
            try {
              const target = await fsp.realpath(abs);
              linkTarget = target;
              if (!inside(realRoot, target)) {
                // Said only where memory could be (B62): a link to a file or folder outside at a path
                // no memory file can have (`host.txt`, `vendor-docs/`) was never going to be read.
                if (couldHoldMemory(relPath)) onSkip?.(relPath, 'symlink leads outside the workspace');
                continue;
              }
              if (inPrivateFolder(relative(realRoot, target))) {
                onSkip?.(relPath, 'symlink leads into the git folder');
                continue;
              }
              const st = await fsp.stat(abs);
              isDir = st.isDirectory();
              isFile = st.isFile();
            } catch (e) {
              // A broken or looping link at a memory path is an unreadable memory file (U60).
              const why = (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'symlink loop' : 'broken symlink';
              onSkip?.(relPath, why, isMemoryName(relPath));
              continue;
            }
          }
          if (isDir && linkTarget !== undefined) {
            // A link to this folder or one above it would walk the same files forever.
            if (inside(linkTarget, real)) onSkip?.(relPath, 'symlink loop');
            else later.push({ abs, rel: relPath });
          } else if (isDir) await walk(abs, relPath, via);
          else if (!isFile) {
            // A FIFO, socket or device with a memory name is never read; it is reported as an
            // unreadable memory file (the loader's diagnostic, U60) instead of being hidden.
            if (onSkip && isMemoryName(relPath)) {
              let what = 'not a regular file';
              try {
                what = nonRegularKind(await fsp.stat(abs)) ?? what;
              } catch {
                /* vanished */
              }
              onSkip(relPath, `${what}, not a file; not indexed`, true);
            }
          } else {
            let rp: RelPath;
            try {
              rp = plainRelPath(relPath) ?? toRelPath(relPath);
            } catch {
              onSkip?.(relPath, 'unusable file name');
              continue;
            }
            if (accept(rp)) {
              if (linkTarget !== undefined || byLink)
                links.push({ at: out.length, target: linkTarget ?? join(real, name), via });
              out.push(rp);
              dirOf.push(real);
              nameOf.push(name);
              verified.set(rp, abs);
            }
          }
        }
      }
      await walk(realRoot, '');
      for (let round = later.splice(0); round.length > 0; round = later.splice(0)) {
        round.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
        for (const l of round) await walk(l.abs, l.rel, l.rel);
      }
      let realOf: Map<RelPath, RealOf> | undefined;
      if (links.length > 0) {
        realOf = new Map();
        for (let i = 0; i < out.length; i++) realOf.set(out[i]!, { real: join(dirOf[i]!, nameOf[i]!), link: false });
        for (const l of links) realOf.set(out[l.at]!, { real: l.target, link: true, via: l.via });
      }
      out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (!realOf) return out;
      const kept = dropLinkedCopies(out, realOf, taken);
      for (const d of kept.dropped) verified.delete(d);
      for (const [path, to] of linkedCopiesSaid(kept.dropped, out, realOf, linkFolders, realRoot))
        onSkip?.(path, `symlink to ${to}, indexed there`);
      return kept.paths;
    },
  };
}
