// The change to a cited code file since a memory was written: a unified diff of the file at the
// memory's baseline commit (a code check's `since`, service/trust/code-check.ts) against the work
// tree, or against the path it moved to. The editor's "show the code's changes since this memory"
// action asks it (the language server's `gitmem/codeDiff`). Reads only.
// deps: core, parse (citations), git (code-history, repo), ace (unified-diff), engine (git-context).
import { MemoryError } from '../../core/errors.js';
import { unifiedDiff } from '../../ace/unified-diff.js';
import { normaliseCitedPath } from '../../parse/citations.js';
import { headCommit, readWorkFile, textAt } from '../../git/code-history.js';
import { gitContext } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';

/** What {@link codeDiffSince} compares: a cited path (repository-relative POSIX) from `since`. */
export interface CodeDiffRequest {
  readonly path: string;
  /** The baseline commit id (full or abbreviated hex), as a code check's `since` gives it. */
  readonly since: string;
  /** Compare with this path of the work tree instead (an `orphaned` file's rename). */
  readonly movedTo?: string;
}

/** The diff, and what it compared. */
export interface CodeDiff {
  readonly path: string;
  readonly since: string;
  readonly movedTo?: string;
  /** `--- a/<path>` / `+++ b/<path or movedTo>` unified diff, 3 lines of context; '' when unchanged. */
  readonly diff: string;
  /** The file is not in the work tree (deleted): the diff removes every line. */
  readonly deleted: boolean;
}

const COMMIT = /^[0-9a-f]{4,40}$/i;

/**
 * Unified diff of `req.path` at `req.since` → the work-tree file (`req.movedTo` when given).
 * @throws MemoryError `usage` for a path that leaves the repository or an id that is not hex;
 *   `git.not-found` when the file is not in that commit; `git.not-a-repository` outside git.
 */
export async function codeDiffSince(
  ctx: Pick<MemoryContext, 'fs' | 'loaded' | 'git'>,
  req: CodeDiffRequest,
): Promise<CodeDiff> {
  const path = normaliseCitedPath(req.path);
  const movedTo = req.movedTo === undefined ? undefined : normaliseCitedPath(req.movedTo);
  if (!path || (req.movedTo !== undefined && !movedTo))
    throw new MemoryError('usage', `not a repository path: ${req.movedTo ?? req.path}`);
  if (!COMMIT.test(req.since)) throw new MemoryError('usage', `not a commit id: ${req.since}`);
  const { repo } = gitContext({ root: ctx.fs.root, loaded: ctx.loaded }, ctx.git ?? {});
  if (!(await headCommit(repo))) throw new MemoryError('git.not-found', 'the repository has no commits');
  const before = await textAt(repo, req.since, path);
  if (!before) throw new MemoryError('git.not-found', `${path} is not in commit ${req.since.slice(0, 12)}`);
  const now = await readWorkFile(repo, movedTo ?? path);
  let diff = unifiedDiff(path, before.text, now?.text);
  if (movedTo && diff) diff = diff.replace(`+++ b/${path}\n`, `+++ b/${movedTo}\n`);
  return { path, since: req.since, ...(movedTo ? { movedTo } : {}), diff, deleted: now === undefined };
}
