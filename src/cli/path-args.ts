// Path arguments as a user at a shell means them (L4, R63): `gitmem get`, `mv`, `log`, `files`,
// `validate`, `review --approve` and `remember --file` take workspace-relative paths, but a user in a
// subfolder of the workspace types paths relative to where they stand. The rule, one place for every
// command:
// - the current folder is outside the workspace (`--dir` elsewhere) or is its root: the argument is
//   used as given (workspace-relative);
// - in a subfolder: the path relative to the current folder is used when it exists (or, for a path
//   to be created, always); else the workspace-relative path when that exists (a path copied from
//   gitmem's own output still works); else, for a path that can only be a file (a `/` or a file
//   extension), `fs.not-found` naming both forms; an entry id (no `/`, no extension) is left to
//   the command.
// - an absolute path inside the workspace is made workspace-relative; a path that leaves the
//   workspace is left to the command's confinement (`path.outside-root`).
// deps: platform (discover), core (errors).
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { discoverWorkspace } from '../platform/discover.js';

/**
 * `existing`: the path names something there (a file, folder or id); `new`: a path to be created;
 * `code`: a code path, folder or glob that may no longer exist (from the current folder unless only
 * the workspace-relative form exists; never refused here).
 */
export type PathArgKind = 'existing' | 'new' | 'code';

const posix = (p: string): string => p.split(sep).join('/');
const inside = (rel: string): boolean => rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
const looksLikeFile = (arg: string): boolean => arg.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(arg);

/**
 * `arg` as the workspace-relative path the user meant (see the module comment); `dir` is `--dir`.
 * A `path:start-end` suffix (gitmem get) is kept as given.
 * @throws MemoryError `fs.not-found` when neither the folder-relative nor the workspace-relative form exists.
 */
export function workspacePathArg(dir: string | undefined, arg: string, kind: PathArgKind = 'existing'): string {
  const cwd = process.cwd();
  const { root } = discoverWorkspace(dir, cwd);
  if (isAbsolute(arg)) {
    const rel = relative(root, arg);
    return inside(rel) ? posix(rel) : arg;
  }
  const here = relative(root, cwd);
  if (!inside(here)) return arg;
  const range = /^(.*?)(:\d+(?:-\d+)?)$/.exec(arg);
  const [path, suffix] = range && !existsSync(resolve(cwd, arg)) ? [range[1]!, range[2]!] : [arg, ''];
  const fromHere = relative(root, resolve(cwd, path));
  if (!inside(fromHere)) return arg; // leaves the workspace: the command refuses it
  if (kind === 'new' || existsSync(resolve(root, fromHere))) return `${posix(fromHere)}${suffix}`;
  if (existsSync(resolve(root, path))) return arg;
  if (kind === 'code') return `${posix(fromHere)}${suffix}`;
  if (!looksLikeFile(path)) return arg;
  throw new MemoryError(
    'fs.not-found',
    `${path} not found: neither ${posix(fromHere)} (from the current folder, ${posix(here)}) nor ${path} (from the workspace root) exists`,
    { hint: 'give the path from the current folder or from the workspace root' },
  );
}

/** {@link workspacePathArg} of each of `args`. */
export function workspacePathArgs(
  dir: string | undefined,
  args: readonly string[],
  kind: PathArgKind = 'existing',
): string[] {
  return args.map((a) => workspacePathArg(dir, a, kind));
}
