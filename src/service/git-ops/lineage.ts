// Lineage of recall results: the commit that last changed each result's lines. The attribution is
// the trust stage's (service/trust/provenance.ts: git/lineage.ts attributeLines, cached per blob), so
// `--lineage`, the editor's lineage hover and every result's `provenance` agree.
// deps: service (the context, trust).
import type { Lineage } from '../../git/lineage.js';
import type { GitLocation } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { fileFacts, spanProvenance } from '../trust/provenance.js';
import { readReviewMarks } from '../trust/review-marks.js';

export type { GitLocation } from '../../engine/load/git-context.js';

/**
 * Add `lineage: {commit, author, date}` to recall results: the commit that last changed each
 * result's lines (its current text, read from the work tree). Results whose lines are not committed
 * yet get no lineage. Outside a git repository the results are returned unchanged.
 */
export async function withLineage<T extends { path: string; startLine: number; endLine: number; lineage?: Lineage }>(
  context: MemoryContext,
  where: GitLocation,
  results: T[],
): Promise<T[]> {
  if (!where.gitdir || !where.workTree) return results;
  const ctx = { ...context, git: { gitdir: where.gitdir, workTree: where.workTree } };
  const marks = await readReviewMarks(ctx.storage);
  const facts = await fileFacts(ctx, [...new Set(results.map((r) => r.path))], { marks });
  for (const r of results) {
    const f = facts.get(r.path);
    const p = f ? spanProvenance(f, r.startLine, r.endLine) : undefined;
    if (p && 'date' in p) r.lineage = { commit: p.commit, author: p.author, date: p.date };
  }
  return results;
}
