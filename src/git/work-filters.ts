// Two ways git reads a work tree that hashing the bytes does not (docs/bad-inputs.md R06):
//  - a clean/smudge filter (`filter=<name>` in .gitattributes or .git/info/attributes, with
//    `filter.<name>.clean` configured, git-lfs among them): git stores what the clean filter makes of
//    the work-tree bytes, so the smudged copy is no change; committing the bytes as they are would
//    replace the stored content for everyone;
//  - core.ignorecase=true: a file renamed only in case (n1.md → N1.md) is the same index entry to git,
//    which shows no change; it is compared, and committed, under the name git tracks.
// The filters run through the system git (`git hash-object --path`), asked only when a filter is
// configured. deps: git/repo, git/system-git.
import { join } from 'node:path';
import { git, guard, type GitRepo } from './repo.js';
import { runGit } from './system-git.js';

/** What a work file's stored blob is when a clean filter applies: its oid and bytes. */
export interface CleanBlob {
  readonly oid: string;
  readonly blob: Uint8Array;
}

/**
 * The repo paths among `repoPaths` that a configured clean filter applies to. [] without system git,
 * with no `filter.*.clean` / `filter.*.process` configured, or when git cannot say.
 */
export async function filteredPaths(repo: GitRepo, repoPaths: readonly string[]): Promise<string[]> {
  if (repoPaths.length === 0) return [];
  const env = { GIT_DIR: repo.gitdir, GIT_WORK_TREE: repo.dir };
  try {
    const cfg = await runGit(repo.dir, ['config', '--get-regexp', '^filter\\..*\\.(clean|process)$'], { env });
    if (cfg.code !== 0 || !cfg.stdout.trim()) return [];
    const names = new Set(cfg.stdout.split('\n').map((l) => /^filter\.(.+)\.(?:clean|process)\s/.exec(l)?.[1]));
    const r = await runGit(repo.dir, ['check-attr', '-z', '--stdin', 'filter'], {
      env,
      input: `${repoPaths.join('\0')}\0`,
    });
    if (r.code !== 0) return [];
    const parts = r.stdout.split('\0');
    const out: string[] = [];
    for (let i = 0; i + 2 < parts.length; i += 3) if (names.has(parts[i + 2])) out.push(parts[i]!);
    return out;
  } catch {
    return [];
  }
}

/**
 * The blob git stores for the work file at `repoPath` (its clean filter applied by `git hash-object -w
 * --path`), written into the object store. @returns undefined when git fails (the caller keeps the bytes).
 */
export async function cleanBlob(repo: GitRepo, repoPath: string): Promise<CleanBlob | undefined> {
  const env = { GIT_DIR: repo.gitdir, GIT_WORK_TREE: repo.dir };
  try {
    const r = await runGit(repo.dir, ['hash-object', '-w', `--path=${repoPath}`, '--', join(repo.dir, repoPath)], {
      env,
    });
    const oid = r.stdout.trim();
    if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(oid)) return undefined;
    const { blob } = await guard('git.status', () =>
      git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
    );
    return { oid, blob };
  } catch {
    return undefined;
  }
}

/** `core.ignorecase` of the repository (isomorphic-git reads the repository's config). */
export async function ignoresCase(repo: GitRepo): Promise<boolean> {
  try {
    const v = await git.getConfig({ fs: repo.fs, gitdir: repo.gitdir, path: 'core.ignorecase' });
    return v === true || String(v).toLowerCase() === 'true';
  } catch {
    return false;
  }
}

/**
 * Under core.ignorecase, the name git tracks for each work path that HEAD lacks but holds in another
 * case (work repo path → HEAD repo path). Only HEAD paths with no exact work-tree match are used.
 */
export function caseFolded(
  workPaths: Iterable<string>,
  headPaths: ReadonlySet<string>,
  present: ReadonlySet<string>,
): Map<string, string> {
  const byLower = new Map<string, string>();
  for (const h of headPaths) if (!present.has(h)) byLower.set(h.toLowerCase(), h);
  const out = new Map<string, string>();
  for (const w of workPaths) {
    if (headPaths.has(w)) continue;
    const h = byLower.get(w.toLowerCase());
    if (h) {
      out.set(w, h);
      byLower.delete(w.toLowerCase());
    }
  }
  return out;
}
