// `gitmem sync` in a clone made before the remote's first push: the local branch has no commit yet
// (unborn), so there is nothing to merge into and `git push HEAD` names nothing. Like `git pull`, the
// unborn branch adopts the remote's branch: its ref, index and the files missing from the work tree;
// a local file standing where the remote has other content stops the sync with nothing changed,
// unless it is an untouched `gitmem init` scaffold (docs/bad-inputs.md R52). deps: core, git, service/init.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../../core/errors.js';
import { gitOut, runGit } from '../../git/system-git.js';
import { isUntouchedScaffold } from '../init/scaffold.js';

export interface AdoptedBranch {
  /** The remote commit the branch now points at. */
  readonly oid: string;
  /** Every path of its tree (repository-relative, POSIX). */
  readonly paths: readonly string[];
}

/**
 * Point the unborn `branchRef` at `remote`'s `remoteBranch`, load its tree into the index, and write
 * the files the work tree lacks. Files already there must hold the remote's content (git's blob
 * hash); none is overwritten with anything else.
 * @returns the adopted commit, or undefined when the remote has no such branch (or the fetch fails:
 *   the sync's own fetch reports that).
 * @throws MemoryError `git.dirty` (with `data.files`) when local files differ from the remote's at
 *   the same paths: nothing changed; `git.failed` when git refuses a step.
 */
export async function adoptRemoteBranch(
  cwd: string,
  where: { remote: string; remoteBranch: string; branchRef: string; tracking: string },
  env: Record<string, string>,
): Promise<AdoptedBranch | undefined> {
  const { remote, remoteBranch, branchRef, tracking } = where;
  const f = await runGit(cwd, ['fetch', '--quiet', '--no-tags', remote, `+refs/heads/${remoteBranch}:${tracking}`], {
    env,
  });
  if (f.code !== 0) return undefined;
  const oid = await gitOut(cwd, ['rev-parse', '--verify', `${tracking}^{commit}`]);
  const blobs = new Map<string, string>();
  for (const rec of (await gitOut(cwd, ['ls-tree', '-r', '-z', oid])).split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(rec);
    if (m) blobs.set(m[2]!, m[1]!);
  }
  const present = [...blobs.keys()].filter((p) => !p.includes('\n') && existsSync(join(cwd, p)));
  const hashes = present.length
    ? (await gitOut(cwd, ['hash-object', '--stdin-paths'], { input: present.join('\n') + '\n' })).split('\n')
    : [];
  const differ = present.filter(
    (p, i) => hashes[i] !== blobs.get(p) && !isUntouchedScaffold(p, readText(join(cwd, p))),
  );
  if (differ.length) {
    throw new MemoryError(
      'git.dirty',
      `sync stopped: this clone has no commit yet and ${differ.length} local file${differ.length === 1 ? '' : 's'} differ${differ.length === 1 ? 's' : ''} from ${remote}/${remoteBranch} (${differ.slice(0, 3).join(', ')}${differ.length > 3 ? ', …' : ''}); nothing changed`,
      {
        data: { files: differ, remote, branch: remoteBranch },
        hint: 'move those files aside, run gitmem sync (it brings in the remote branch), then bring back what you need',
      },
    );
  }
  await gitOut(cwd, ['update-ref', '-m', `gitmem sync: adopt ${remote}/${remoteBranch}`, branchRef, oid, '']);
  await gitOut(cwd, ['read-tree', oid]);
  await gitOut(cwd, ['checkout-index', '--all', '--force']);
  return { oid, paths: [...blobs.keys()] };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '\0'; // unreadable (a folder, no permission): never replaceable
  }
}
