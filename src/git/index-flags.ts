// Which index entries git itself keeps out of `git status`: entries marked `skip-worktree` (the paths
// outside a sparse checkout's cone, `git update-index --skip-worktree`, a partial clone's paths that
// were never checked out) and `assume-unchanged` (`git update-index --assume-unchanged`), and the
// folder entries of a sparse index. git shows no change for them whatever the work tree holds, so a
// checkpoint must not either (docs/bad-inputs.md R01): a file missing there is not deleted, a file
// edited there is not committed. The index is read with isomorphic-git (versions 2 and 3); an index
// it cannot read (version 4, an unknown flag) is asked of the system git (`git ls-files -v`).
// deps: node:fs, isomorphic-git (managers), git/repo, git/system-git, core/errors.
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import type { GitRepo } from './repo.js';
import { runGit } from './system-git.js';

/** Paths git keeps as they are in the index. */
export interface IndexHolds {
  /** @returns true when git shows no work-tree change for the repo path `repoPath`. */
  held(repoPath: string): boolean;
  /** How many entries are held (files and sparse folders). */
  readonly count: number;
  /**
   * The entries marked skip-worktree (not assume-unchanged), repo paths in index order: files, and
   * folders ending in `/` (a sparse index). What a sparse checkout leaves out of the work tree.
   */
  readonly skipped: readonly string[];
}

const NONE: IndexHolds = { held: () => false, count: 0, skipped: [] };

/** Holds built from entries: file paths, and folder prefixes ending in `/` (a sparse index). */
function holdsOf(files: Set<string>, folders: string[], skipped: string[]): IndexHolds {
  if (files.size === 0 && folders.length === 0) return NONE;
  return {
    held: (p) => files.has(p) || folders.some((f) => p.startsWith(f)),
    count: files.size + folders.length,
    skipped,
  };
}

/**
 * The skip-worktree entries of a repository whose work tree is a sparse checkout (`<gitdir>/info/
 * sparse-checkout` exists: per work tree, so a linked worktree's own), else none without reading the
 * index. Repo paths; a sparse index's folders end in `/`.
 * @throws MemoryError `git.index-unreadable` as indexHolds.
 */
export async function sparseSkipped(repo: GitRepo): Promise<readonly string[]> {
  try {
    await nodeFs.promises.lstat(join(repo.gitdir, 'info', 'sparse-checkout'));
  } catch {
    return [];
  }
  return (await indexHolds(repo)).skipped;
}

/**
 * Read the index of `repo` and collect its held entries. No index yet (a fresh repository) holds nothing.
 * @throws MemoryError `git.index-unreadable` when neither isomorphic-git nor the system git can read it.
 */
export async function indexHolds(repo: GitRepo): Promise<IndexHolds> {
  try {
    await repo.fs.promises.lstat(`${repo.gitdir}/index`);
  } catch {
    return NONE;
  }
  try {
    return await readWithIsomorphicGit(repo);
  } catch (first) {
    return readWithSystemGit(repo, first);
  }
}

async function readWithIsomorphicGit(repo: GitRepo): Promise<IndexHolds> {
  // Imported here, not at the top: isomorphic-git loads on first use (see loadGit in repo.ts).
  const [{ GitIndexManager }, { FileSystem }] = await Promise.all([
    import('isomorphic-git/managers'),
    import('isomorphic-git/models'),
  ]);
  const files = new Set<string>();
  const folders: string[] = [];
  const skipped: string[] = [];
  await GitIndexManager.acquire({ fs: new FileSystem(repo.fs), gitdir: repo.gitdir, cache: {} }, async (index) => {
    for (const e of index.entries as Array<{
      path: string;
      mode: number;
      flags: { assumeValid?: boolean; skipWorktree?: boolean };
    }>) {
      if (!e.flags.assumeValid && !e.flags.skipWorktree) continue;
      // A sparse index keeps a whole folder outside the cone as one entry (mode 040000, path ending in /).
      const folder = (e.mode & 0o170000) === 0o040000;
      const path = folder && !e.path.endsWith('/') ? `${e.path}/` : e.path;
      if (folder) folders.push(path);
      else files.add(path);
      if (e.flags.skipWorktree) skipped.push(path);
    }
  });
  return holdsOf(files, folders, skipped);
}

/** `git ls-files -v`: `S` marks skip-worktree, a lower-case tag assume-unchanged. */
async function readWithSystemGit(repo: GitRepo, first: unknown): Promise<IndexHolds> {
  let out: string;
  try {
    const r = await runGit(repo.dir, ['ls-files', '-v', '-z', '--sparse'], {
      env: { GIT_DIR: repo.gitdir, GIT_WORK_TREE: repo.dir },
    });
    if (r.code !== 0) throw new Error(r.stderr.trim().split('\n')[0] ?? `exit ${r.code}`);
    out = r.stdout;
  } catch (e) {
    throw new MemoryError(
      'git.index-unreadable',
      `cannot read the git index (${(first as Error).message}; git ls-files: ${(e as Error).message})`,
      {
        cause: first,
        hint: 'run `git status` to see whether git can read it; `git update-index --index-version 2` writes one gitmem reads',
      },
    );
  }
  const files = new Set<string>();
  const folders: string[] = [];
  const skipped: string[] = [];
  for (const rec of out.split('\0')) {
    if (rec.length < 3) continue;
    const tag = rec[0]!;
    const path = rec.slice(2);
    if (tag !== 'S' && tag === tag.toUpperCase()) continue;
    if (path.endsWith('/')) folders.push(path);
    else files.add(path);
    if (tag === 'S') skipped.push(path);
  }
  return holdsOf(files, folders, skipped);
}
