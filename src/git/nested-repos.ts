// Memory inside a nested repository: a memory folder that is a submodule (or a clone inside the work
// tree) has its own git, so this repository's checkpoint never sees the files changed there. They
// were left out silently and checkpoint said "Nothing to commit", sync "Memory synced" (R82). Now a
// checkpoint refuses while such a repository holds uncommitted memory files, naming it and the command
// that commits them there. deps: core/errors, git/repo (types), git/system-git.
import { join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import type { GitRepo, MemoryScope } from './repo.js';
import { runGit } from './system-git.js';

/**
 * The memory files (workspace-relative) changed, added or deleted in the nested repository at the
 * workspace-relative folder `folder`, as its own `git status` shows them. Empty when git cannot read it.
 */
async function changedMemoryIn(repo: GitRepo, scope: MemoryScope, folder: string): Promise<string[]> {
  const abs = scope.prefix ? join(repo.dir, scope.prefix, folder) : join(repo.dir, folder);
  const r = await runGit(abs, ['status', '--porcelain', '-z', '--untracked-files=all', '--ignored=no'], {
    env: { GIT_DIR: join(abs, '.git'), GIT_WORK_TREE: abs },
  });
  if (r.code !== 0) return [];
  const out: string[] = [];
  const recs = r.stdout.split('\0');
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i]!;
    if (rec.length < 4) continue;
    if (rec[0] === 'R' || rec[0] === 'C') i++; // a rename's or copy's source path follows
    const path = `${folder}/${rec.slice(3)}`;
    if (scope.accept(path)) out.push(path);
  }
  return out;
}

/**
 * @throws MemoryError `git.nested-repository` when one of `nested` (workspace-relative folders that
 *   are their own repository) holds uncommitted memory files; `data.repositories` lists each with them.
 */
export async function assertNoNestedMemoryChanges(
  nested: readonly string[],
  repo: GitRepo,
  scope: MemoryScope,
): Promise<void> {
  const found: { folder: string; files: string[] }[] = [];
  for (const folder of nested) {
    const files = await changedMemoryIn(repo, scope, folder);
    if (files.length) found.push({ folder, files });
  }
  const [first] = found;
  if (!first) return;
  const n = first.files.length;
  throw new MemoryError(
    'git.nested-repository',
    `${first.folder} is its own git repository (a submodule or nested clone): ${n} memory file${n === 1 ? '' : 's'} changed there (${first.files.slice(0, 3).join(', ')}${n > 3 ? ', …' : ''}) cannot be committed here; nothing committed${found.length > 1 ? ` (and ${found.length - 1} more such repositories)` : ''}`,
    {
      data: { repositories: found },
      hint: `commit them in that repository (git -C ${first.folder} add -A && git -C ${first.folder} commit), then commit its new state here`,
    },
  );
}
