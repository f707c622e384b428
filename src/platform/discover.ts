// Find the workspace root and the git directory the way git does: walk up to a `.git` folder or
// a `.git` file (`gitdir: …`, worktrees and submodules). Imports core and node:* only.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';

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
export function discoverWorkspace(
  dir: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Discovered {
  const start = resolve(cwd, dir ?? '.');
  const byEnv = envWorkTree(start, cwd, env);
  let cur = start;
  for (;;) {
    // A repository nearer than the one GIT_DIR / GIT_WORK_TREE name is the one the folder belongs to.
    if (byEnv && cur === byEnv.workTree) break;
    const gitdir = gitdirOf(cur);
    if (gitdir) return { root: dir === undefined ? cur : start, workTree: cur, gitdir };
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  if (byEnv) return { root: dir === undefined ? byEnv.workTree : start, ...byEnv };
  return { root: start, workTree: undefined, gitdir: undefined };
}

/**
 * The repository that `GIT_DIR` and `GIT_WORK_TREE` name (both set, relative to `cwd` as git reads
 * them), when `start` lies in that work tree: a bare repository kept for a home folder's dotfiles (R83).
 */
function envWorkTree(
  start: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { workTree: string; gitdir: string } | undefined {
  if (!env.GIT_DIR || !env.GIT_WORK_TREE) return undefined;
  const workTree = resolve(cwd, env.GIT_WORK_TREE);
  const gitdir = resolve(cwd, env.GIT_DIR);
  const inside = start === workTree || start.startsWith(workTree.endsWith(sep) ? workTree : workTree + sep);
  if (!inside || !existsSync(join(gitdir, 'HEAD'))) return undefined;
  return { workTree, gitdir };
}

/** @returns true when `path` exists. */
export function pathExists(path: string): boolean {
  return existsSync(path);
}
