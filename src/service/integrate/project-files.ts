// The files of a project (or of the home folder, with --user) that agent hosts read, as gitmem reads
// and writes them outside the memory folders: read (undefined when missing), replaced atomically,
// folders made under a base and never above it, and every path confined to that base. Shared by
// `gitmem integrate` and `gitmem export`. deps: service/integrate (edits), node:fs, node:path.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
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

/** Replace `file` with `text`: a temp file beside it, then a rename (never a half-written file). */
export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.gitmem-${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
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

/** The file's path under `base`, refused when it would leave it. */
export function confined(base: string, path: string): string {
  const file = resolve(base, path);
  if (!file.startsWith(base + sep)) throw new EditError(`${path} is outside ${base}`);
  return file;
}
