// Find the workspace root and the git directory the way git does: walk up to a `.git` folder or
// a `.git` file (`gitdir: …`, worktrees and submodules). Imports core and node:* only.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface Discovered {
  /** Absolute workspace root. */
  readonly root: string;
  /** Absolute git work tree that holds the root, when inside one. */
  readonly workTree: string | undefined;
  /** Absolute git directory (`.git`, or the worktree's gitdir), when inside a work tree. */
  readonly gitdir: string | undefined;
}

/** @returns the gitdir that `<dir>/.git` denotes, or undefined when there is none. */
function gitdirOf(dir: string): string | undefined {
  const dotgit = join(dir, '.git');
  try {
    const st = statSync(dotgit);
    if (st.isDirectory()) return dotgit;
    if (st.isFile()) {
      const m = /^gitdir:\s*(.+)\s*$/m.exec(readFileSync(dotgit, 'utf8'));
      if (m) return isAbsolute(m[1]!) ? m[1]! : resolve(dir, m[1]!);
    }
  } catch {
    /* not there */
  }
  return undefined;
}

/**
 * Resolve the workspace for a command. With `dir`, the root is that folder; without it, walk up from
 * `cwd` to the git work tree (or use `cwd` when there is none).
 */
export function discoverWorkspace(dir: string | undefined, cwd: string): Discovered {
  const start = resolve(cwd, dir ?? '.');
  let cur = start;
  for (;;) {
    const gitdir = gitdirOf(cur);
    if (gitdir) return { root: dir === undefined ? cur : start, workTree: cur, gitdir };
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return { root: start, workTree: undefined, gitdir: undefined };
}

/** @returns true when `path` exists. */
export function pathExists(path: string): boolean {
  return existsSync(path);
}
