// The history of a code file a memory cites, as the code check (service/trust/code-check.ts) needs
// it: the file in the work tree (its text and blob id), its text at a commit, the commits that
// changed it since a commit, and where a blob lives now (a rename). Reads only; the work tree file is
// read without following a symlink out of the repository. deps: isomorphic-git (through repo.ts).
import { join } from 'node:path';
import { fileCommits, git, loadGit, readHead, type GitRepo } from './repo.js';

/** A work-tree file: its text (UTF-8, line ends as written) and git blob id. */
export interface WorkFile {
  readonly text: string;
  readonly oid: string;
}

/** Most commits of a cited file's history looked at; older changes are not counted. */
export const CODE_HISTORY_DEPTH = 500;

/**
 * The work-tree file at repository path `path` (POSIX). A symlink is read as git stores it (its
 * target text), never followed. @returns undefined when it is missing or not a file.
 */
export async function readWorkFile(repo: GitRepo, path: string): Promise<WorkFile | undefined> {
  const abs = join(repo.dir, ...path.split('/'));
  let bytes: Uint8Array;
  try {
    const st = await repo.fs.promises.lstat(abs);
    if (st.isSymbolicLink()) bytes = new TextEncoder().encode(await repo.fs.promises.readlink(abs));
    else if (st.isFile()) bytes = await repo.fs.promises.readFile(abs);
    else return undefined;
  } catch {
    return undefined;
  }
  const { oid } = await git.hashBlob({ object: bytes });
  return { text: new TextDecoder().decode(bytes), oid };
}

/** @returns the HEAD commit id, or undefined in a repository with no commits. */
export async function headCommit(repo: GitRepo): Promise<string | undefined> {
  const head = await readHead(repo);
  return head.kind === 'unborn' ? undefined : head.oid;
}

/** @returns the text and blob id of `path` at `commit`, or undefined when the file is not in that commit. */
export async function textAt(repo: GitRepo, commit: string, path: string): Promise<WorkFile | undefined> {
  try {
    const { blob, oid } = await git.readBlob({
      fs: repo.fs,
      gitdir: repo.gitdir,
      oid: commit,
      filepath: path,
      cache: repo.cache,
    });
    return { text: new TextDecoder().decode(blob), oid };
  } catch {
    return undefined;
  }
}

/** A commit that changed a cited file. */
export interface CodeCommit {
  readonly oid: string;
  /** Committer time, seconds since the epoch. */
  readonly timestamp: number;
}

/**
 * The commits of HEAD's history that changed `path` and are not in `since`'s history (`since` itself
 * excluded), newest first, at most {@link CODE_HISTORY_DEPTH} looked at.
 * @returns [] when the file is not in HEAD or nothing changed it since.
 */
export async function commitsSince(repo: GitRepo, path: string, since: string): Promise<CodeCommit[]> {
  const head = await headCommit(repo);
  if (!head || head === since) return [];
  const log = await fileCommits(repo, head, path, CODE_HISTORY_DEPTH); // [] when not in HEAD
  const out: CodeCommit[] = [];
  for (const c of log) {
    if (c.oid === since) break;
    const before = await git
      .isDescendent({ fs: repo.fs, gitdir: repo.gitdir, oid: since, ancestor: c.oid, depth: -1, cache: repo.cache })
      .catch(() => false);
    if (before) break;
    out.push({ oid: c.oid, timestamp: c.commit.committer.timestamp });
  }
  return out;
}

/**
 * The path of a file in HEAD's tree whose blob is `oid` (where a cited file moved to).
 * @returns undefined when no file of HEAD has that blob.
 */
export async function findBlobInHead(repo: GitRepo, oid: string): Promise<string | undefined> {
  const head = await headCommit(repo);
  if (!head) return undefined;
  let found: string | undefined;
  const g = await loadGit(); // TREE is a plain function: the promise-returning proxy cannot hand it out
  await g.walk({
    fs: repo.fs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    trees: [g.TREE({ ref: head })],
    cache: repo.cache,
    map: async (filepath, [entry]) => {
      if (found || !entry) return null;
      if ((await entry.type()) === 'blob' && (await entry.oid()) === oid) found = filepath;
      return true;
    },
  });
  return found;
}
