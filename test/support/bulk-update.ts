// The large update of the recall-during-embedding tests (B41: the language server, B42: MCP): bulk
// entry files that all match one query, and the form two answers are compared in.

/** A query every bulk entry matches, by keyword and by meaning. */
export const BULK_QUERY = 'webhook retries tenant cache rollback';

/** Entry `bulk-<i>` of `paragraphs` paragraphs (one chunk each) about `topic`. */
export function bulkEntry(i: number, paragraphs: number, topic = 'the deploy pipeline retries webhooks'): string {
  const para = (k: number) =>
    `Paragraph ${k} of note ${i}: ${topic} with exponential back-off, and the cache keys include the tenant id ${i * 10 + k} so that a rollback never serves stale data.`;
  return `---\nid: bulk-${i}\ntype: learning\ntitle: bulk note ${i}\n---\n\n${Array.from({ length: paragraphs }, (_, k) => para(k)).join('\n\n')}\n`;
}

/** Results as compared between two indexes: place, lines, scores (rounded: vectors from different batches differ in float rounding). */
export const rankedShape = (res: any) =>
  res.results.map((r: any) => ({
    path: r.path,
    lines: [r.startLine, r.endLine],
    keyword: r.scores.keyword === null ? null : Number(r.scores.keyword.toFixed(3)),
    vector: r.scores.vector === null ? null : Number(r.scores.vector.toFixed(3)),
  }));
