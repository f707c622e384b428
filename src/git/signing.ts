// Signed checkpoints. isomorphic-git writes a commit object without a signature, so a repository
// that signs its commits (`commit.gpgsign`, from any git config level) got unsigned memory commits
// in silence (T17). When git says it signs, the commit object is made by the system git instead
// (`git commit-tree -S`), which signs it with the configured `gpg.format` and `user.signingkey`;
// the caller still moves the ref. deps: git/system-git, core/errors.
import { MemoryError } from '../core/errors.js';
import { runGit } from './system-git.js';

/** One commit object to write: the tree, its parent and one person as author and committer. */
export interface CommitToSign {
  readonly message: string;
  readonly tree: string;
  readonly parent: string | null;
  /** `timezoneOffset` as isomorphic-git has it: minutes, the sign of Date#getTimezoneOffset. */
  readonly person: { name: string; email: string; timestamp: number; timezoneOffset: number };
}

/** Whether git (system, global and repository config) signs this work tree's commits. */
async function signsCommits(workTree: string): Promise<boolean> {
  try {
    const r = await runGit(workTree, ['config', '--bool', 'commit.gpgsign']);
    return r.code === 0 && r.stdout.trim() === 'true';
  } catch {
    return false; // no system git: nothing could sign; the commit is written as before
  }
}

/** `@seconds ±hhmm`, git's raw date form, for an isomorphic-git timestamp and offset. */
function rawDate(p: CommitToSign['person']): string {
  const east = -p.timezoneOffset;
  const abs = Math.abs(east);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `@${p.timestamp} ${east < 0 ? '-' : '+'}${hhmm}`;
}

/**
 * Write `commit` signed when the repository signs its commits.
 * @returns the new commit's oid, or undefined when the repository does not sign (write it as usual).
 * @throws MemoryError `git.failed` when signing fails (no key, no agent): nothing is committed.
 */
export async function writeSignedCommitIfConfigured(
  workTree: string,
  commit: CommitToSign,
): Promise<string | undefined> {
  if (!(await signsCommits(workTree))) return undefined;
  const { person } = commit;
  const date = rawDate(person);
  const r = await runGit(
    workTree,
    ['commit-tree', commit.tree, ...(commit.parent ? ['-p', commit.parent] : []), '-S'],
    {
      input: commit.message,
      env: {
        GIT_AUTHOR_NAME: person.name,
        GIT_AUTHOR_EMAIL: person.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: person.name,
        GIT_COMMITTER_EMAIL: person.email,
        GIT_COMMITTER_DATE: date,
      },
    },
  );
  const oid = r.stdout.trim();
  if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(oid)) {
    const why = r.stderr.split('\n').find((l) => l.trim()) ?? `exit ${r.code}`;
    throw new MemoryError(
      'git.failed',
      `this repository signs its commits (commit.gpgsign), and signing the checkpoint failed: ${why.trim()}; nothing was committed`,
      {
        data: { stderr: r.stderr.slice(0, 2000) },
        hint: 'check user.signingkey and gpg.format (git commit-tree -S shows the same error), or turn commit.gpgsign off for this repository',
      },
    );
  }
  return oid;
}
