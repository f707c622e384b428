// The repository around a workspace and which of its paths are memory: the git context that both
// the live index engine (branch switches) and the git use cases (checkpoint, history, sync) open.
// deps: core, git, engine (load).
import { posix, relative, sep } from 'node:path';
import { matchesAny } from '../../core/glob.js';
import { classify } from '../../core/layout.js';
import { notARepository, openRepo, type GitRepo, type MemoryScope } from '../../git/repo.js';
import type { LoadedConfig } from './load.js';

/** Where the workspace's repository is (from platform/discover.ts). Both undefined outside git. */
export interface GitLocation {
  readonly gitdir?: string | undefined;
  readonly workTree?: string | undefined;
}

/** The repository and the memory scope of a Memory. */
export interface GitContext {
  readonly repo: GitRepo;
  readonly scope: MemoryScope;
}

/**
 * Open the repository around `memory` and describe which of its paths are memory (the layout's kinds,
 * minus its ignore globs), relative to the work tree.
 * @throws MemoryError `git.not-a-repository` (hint: `git init`) outside a work tree.
 */
export function gitContext(
  memory: { readonly root: string; readonly loaded: LoadedConfig },
  where: GitLocation,
): GitContext {
  if (!where.gitdir || !where.workTree) throw notARepository(memory.root);
  const rel = relative(where.workTree, memory.root).split(sep).join('/');
  if (rel.startsWith('..') || posix.isAbsolute(rel)) throw notARepository(memory.root);
  const layout = memory.loaded.layout;
  const repo = openRepo({ workTree: where.workTree, gitdir: where.gitdir });
  const reach = folderReach(Object.values(layout.kinds).flat());
  return {
    repo,
    scope: {
      prefix: rel,
      accept: (p) => classify(p, layout) !== undefined,
      descend: (d) => reach(d) && !matchesAny(`${d}/`, layout.ignore) && !matchesAny(`${d}/x`, layout.ignore),
    },
  };
}

/**
 * @returns a test telling whether a folder can hold a file matching one of `globs`, so walks of the
 * work tree and of git trees skip `src/`, `node_modules/` and the like (the default layout only
 * needs `memory/`). A glob's static part is the folder path before its first wildcard.
 */
export function folderReach(globs: readonly string[]): (folder: string) => boolean {
  const literalDirs: string[] = [];
  const globDirs: string[] = [];
  for (const g of globs) {
    const wild = g.search(/[*?[{]/);
    if (wild < 0) {
      const slash = g.lastIndexOf('/');
      if (slash > 0) literalDirs.push(`${g.slice(0, slash)}/`);
    } else {
      const slash = g.lastIndexOf('/', wild);
      globDirs.push(slash >= 0 ? g.slice(0, slash + 1) : '');
    }
  }
  return (folder) => {
    const d = `${folder}/`;
    return (
      literalDirs.some((s) => s.startsWith(d)) || globDirs.some((s) => s === '' || s.startsWith(d) || d.startsWith(s))
    );
  };
}
