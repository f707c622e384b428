// Lineage of recall results: the commit that last changed each result's lines.
// deps: git, engine (git-context), service (Memory type).
import { chunkLineage, type Lineage } from '../../git/lineage.js';
import { toRepoPath } from '../../git/repo.js';
import { gitContext, type GitLocation } from '../../engine/git-context.js';
import type { Memory } from '../memory.js';

export type { GitLocation } from '../../engine/git-context.js';

/**
 * Add `lineage: {commit, author, date}` to recall results: the commit that last changed each
 * result's lines (its current text, read from the work tree). Results whose lines are not committed
 * yet get no lineage. Outside a git repository the results are returned unchanged.
 */
export async function withLineage<T extends { path: string; startLine: number; endLine: number; lineage?: Lineage }>(
  memory: Memory,
  where: GitLocation,
  results: T[],
): Promise<T[]> {
  if (!where.gitdir || !where.workTree) return results;
  let ctx: ReturnType<typeof gitContext>;
  try {
    ctx = gitContext(memory, where);
  } catch {
    return results; // e.g. a linked worktree: recall still answers, without lineage
  }
  for (const r of results) {
    try {
      // The text as written (reveal): blame compares it with the committed lines.
      const lines = await memory.get(`${r.path}:${r.startLine}-${r.endLine}`, { reveal: true });
      const lineage = await chunkLineage(ctx.repo, toRepoPath(ctx.scope, r.path), lines.text);
      if (lineage) r.lineage = lineage;
    } catch {
      /* a file removed since the recall, or unreadable history: no lineage for this result */
    }
  }
  return results;
}
