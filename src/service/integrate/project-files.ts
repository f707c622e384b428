// The files of a project (or of the home folder, with --user) that agent hosts read, as gitmem reads
// and writes them outside the memory folders: read (undefined when missing), replaced atomically with
// their permission bits kept, a read-only file refused, folders made under a base and never above
// it, and every path confined to that base with symbolic links followed (a linked file is written
// where the link points, and the link stays). Shared by `gitmem integrate` and `gitmem export`.
// deps: service/integrate (edits), node:fs, node:path.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { EditError } from './edits.js';

/** The file's UTF-8 text; undefined when it does not exist. @throws other read errors */
export function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Replace `file` with `text`: a temp file beside it, then a rename (never a half-written file). The
 * file keeps its permission bits (a 0600 settings file stays 0600: docs/bad-inputs.md R73).
 */
export function writeAtomic(file: string, text: string): void {
  const mode = modeOf(file);
  const tmp = `${file}.gitmem-${process.pid}.tmp`;
  writeFileSync(tmp, text);
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, file);
}

function modeOf(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/**
 * Refuse to change a file nobody may write (no write bit: a person made it read-only, whoever runs
 * gitmem — root too, which could write it anyway). @throws EditError naming the file; nothing written.
 */
export function assertWritable(file: string, path: string): void {
  const mode = modeOf(file);
  if (mode !== undefined && (mode & 0o222) === 0)
    throw new EditError(
      `${path} is read-only; nothing written: make it writable (chmod u+w) to let gitmem add to it, or edit it by hand`,
    );
}

/** mkdir -p, returning the folders it created (outermost first), never above `base`. */
export function makeDirs(dir: string, base: string): string[] {
  const made: string[] = [];
  let d = dir;
  const missing: string[] = [];
  while (d.startsWith(base + sep) && !exists(d)) {
    missing.unshift(d);
    d = dirname(d);
  }
  for (const m of missing) {
    mkdirSync(m);
    made.push(m);
  }
  return made;
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file to read and write for `path` under `base`: the path itself, or, where it or a folder on
 * the way is a symbolic link, the place the link points to (so a linked config is edited and the link
 * stays: R74), given as a path under `base`. @throws EditError when the path, or where a link points,
 * leaves `base` (nothing is written outside it).
 */
export function confined(base: string, path: string): string {
  const file = resolve(base, path);
  if (!file.startsWith(base + sep)) throw new EditError(`${path} is outside ${base}`);
  const realBase = realOrSelf(base);
  const real = realPath(file);
  if (real !== file && !real.startsWith(realBase + sep))
    throw new EditError(
      `${path} is a symbolic link (or inside one) to ${real}, outside ${base}; nothing written: edit it there by hand`,
    );
  return real === file ? file : join(base, relative(realBase, real));
}

/** Whether `file` itself is a symbolic link (a missing file is not). */
export function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** `file` with every symbolic link on its way resolved; the part that does not exist yet kept as written. */
function realPath(file: string): string {
  let isLink = false;
  try {
    isLink = lstatSync(file).isSymbolicLink();
  } catch {
    // not there (yet): resolve the folder it goes in
  }
  if (isLink && !exists(file)) throw new EditError(`${file} is a symbolic link to a file that does not exist`);
  if (exists(file)) return realpathSync(file);
  const dir = dirname(file);
  return dir === file ? file : join(realPath(dir), basename(file));
}
