// Workspace-relative POSIX paths (branded) and the confinement rule: no `..`, no absolute paths,
// no NUL. Symlink escapes are checked by platform/node-fs.ts, which can see the disk.
// Imports only node:path/posix and core.
import { posix } from 'node:path';
import { MemoryError } from './errors.js';

/** A normalised, workspace-relative POSIX path that never escapes the root (e.g. `memory/MEMORY.md`). */
export type RelPath = string & { readonly __brand: 'RelPath' };

/**
 * Normalise user or disk input into a {@link RelPath}.
 * Backslashes are treated as separators; `./` and duplicate slashes are removed.
 * @throws MemoryError `path.invalid` for empty input or NUL bytes, `path.outside-root` for absolute
 *   paths (`/x`, `C:\x`, `\\server`) and any `..` segment.
 */
export function toRelPath(input: string): RelPath {
  if (typeof input !== 'string' || input.length === 0) {
    throw new MemoryError('path.invalid', 'empty path');
  }
  if (input.includes('\0'))
    throw new MemoryError('path.invalid', 'path contains a NUL byte', { data: { path: input } });
  if (input.length > 4096) throw new MemoryError('path.invalid', 'path is longer than 4096 characters');
  const slashed = input.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    throw new MemoryError('path.outside-root', `absolute paths are not allowed: ${input}`, {
      data: { path: input },
      hint: 'give a path relative to the workspace root',
    });
  }
  if (slashed.split('/').some((s) => s === '..')) {
    throw new MemoryError('path.outside-root', `path escapes the workspace root: ${input}`, {
      data: { path: input },
      hint: 'paths may not contain ".." segments',
    });
  }
  const norm = posix.normalize(slashed).replace(/\/+$/, '');
  if (norm === '.' || norm === '') throw new MemoryError('path.invalid', `not a file path: ${input}`);
  // `./C:/x` normalises to a drive path: refuse it like `C:/x` (found by the path fuzzer).
  if (/^[A-Za-z]:/.test(norm)) {
    throw new MemoryError('path.outside-root', `absolute paths are not allowed: ${input}`, {
      data: { path: input },
      hint: 'give a path relative to the workspace root',
    });
  }
  return norm as RelPath;
}

/**
 * A path a write is to create, from user input: as {@link toRelPath}, but a backslash is refused
 * instead of taken as a folder separator (U63). On Linux and macOS a backslash is a character of a
 * name, so `a\b.md` would make a folder `a` nobody asked for; on Windows it would be one.
 * @param consequence what the refusal means for the caller, after the reason (default `nothing moved`).
 * @throws MemoryError `path.invalid` for a backslash, and as {@link toRelPath}.
 */
export function toNewRelPath(input: string, consequence = 'nothing moved'): RelPath {
  if (typeof input === 'string' && input.includes('\\')) {
    throw new MemoryError('path.invalid', `the new name ${input} holds a backslash; ${consequence}`, {
      data: { path: input },
      hint: 'separate folders with / (memory/playbook/a/b.md); a backslash cannot be part of a memory file name',
    });
  }
  return toRelPath(input);
}

/**
 * Why a memory file at `path` is not indexed for its name alone, or undefined: a line break (LF, CR,
 * U+2028/2029) would split every line that names the file (B59). The walk and the watcher ask it.
 */
export function nameProblem(path: string): string | undefined {
  if (!/[\r\n\u2028\u2029]/.test(path)) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /[\r\n\u2028\u2029]/.test(name)
    ? `name ${JSON.stringify(name)} holds a line break (rename it)`
    : 'a folder name on the path holds a line break (rename it)';
}

/** @returns the {@link RelPath}, or undefined when {@link toRelPath} would throw. */
export function tryRelPath(input: string): RelPath | undefined {
  try {
    return toRelPath(input);
  } catch {
    return undefined;
  }
}

/**
 * Resolve a relative markdown link target against the folder of `from`.
 * @returns undefined when the target escapes the root, is absolute, or is a URL.
 */
export function resolveRelative(from: RelPath, target: string): RelPath | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/') || target.startsWith('#')) return undefined;
  let clean = target.split('#')[0]!.split('?')[0]!;
  try {
    clean = decodeURIComponent(clean);
  } catch {
    /* keep the raw target: a bad escape is just an unresolved link */
  }
  if (!clean) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(from), clean));
  if (joined.startsWith('../') || joined === '..') return undefined;
  return tryRelPath(joined);
}

/** File name without folder and without the `.md` extension (`entries/use-lunr.md` → `use-lunr`). */
export function slugOf(path: string): string {
  return posix.basename(path).replace(/\.md$/i, '');
}
