// MemoryFs over node:fs confined to one workspace root: `..`, absolute paths and symlinks that
// lead outside the root are refused on every read and write. Imports core and node:* only.
import { promises as fsp, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { MemoryError } from '../core/errors.js';
import { toRelPath, type RelPath } from '../core/paths.js';
import type { MemoryFs } from '../core/ports.js';

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/**
 * Create a {@link MemoryFs} rooted at `root` (an existing folder).
 * @throws MemoryError `workspace.not-found` when the root does not exist.
 */
export function createNodeFs(root: string): MemoryFs {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (cause) {
    throw new MemoryError('workspace.not-found', `workspace folder not found: ${root}`, { cause, hint: 'check --dir' });
  }

  /** Absolute path for `path`, after checking that no symlink on the way leaves the root. */
  async function resolveInside(path: RelPath, forWrite: boolean): Promise<string> {
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
        if (!forWrite) throw new MemoryError('fs.read-failed', `cannot read ${rel}: ${code ?? String(e)}`, { cause: e });
        break;
      }
    }
    return abs;
  }

  return {
    root: realRoot,

    async read(path) {
      const abs = await resolveInside(path, false);
      try {
        return new Uint8Array(await fsp.readFile(abs));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return undefined;
        if (code === 'EISDIR') throw new MemoryError('fs.read-failed', `${path} is a folder, not a file`);
        throw new MemoryError('fs.read-failed', `cannot read ${path}: ${code ?? String(e)}`, { cause: e });
      }
    },

    async writeTextAtomic(path, text) {
      const abs = await resolveInside(path, true);
      try {
        await fsp.mkdir(dirname(abs), { recursive: true });
        // write-file-atomic: temp file in the same folder, fsync, rename; keeps the old file on failure.
        await writeFileAtomic(abs, text, { encoding: 'utf8', fsync: true });
      } catch (e) {
        throw new MemoryError('fs.write-failed', `cannot write ${path}: ${(e as Error).message}`, { cause: e });
      }
    },

    async stat(path) {
      const abs = await resolveInside(path, false);
      try {
        const s = await fsp.stat(abs);
        return { size: s.size, mtimeMs: s.mtimeMs, isDirectory: s.isDirectory() };
      } catch {
        return undefined;
      }
    },

    async list(accept, onSkip) {
      const out: RelPath[] = [];
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
          else if (isFile) {
            let rp: RelPath;
            try {
              rp = toRelPath(relPath);
            } catch {
              onSkip?.(relPath, 'unusable file name');
              continue;
            }
            if (accept(rp)) out.push(rp);
          }
        }
      }
      await walk(realRoot, '');
      return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
  };
}
