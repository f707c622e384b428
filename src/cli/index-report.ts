// The lines `gitmem index` prints about the semantic half of the index. deps: none.

/** What an index run did for vectors: embedded now, still missing, distinct chunks in all; or why it is off. */
export interface VectorsSummary {
  readonly embedded: number;
  readonly missing: number;
  readonly total: number;
  readonly unavailable: string | null;
}

/**
 * @returns one line, e.g. `Vectors: 388 embedded chunks (12 new)`, or, when some chunks are not
 *   embedded yet (an interrupted run), `Vectors: 10 of 2764 chunks embedded (10 new, 2754 missing)`;
 *   `vectors: off — <reason>` when the model is not usable.
 */
export function vectorsLine(v: VectorsSummary): string {
  if (v.unavailable) return `vectors: off — ${v.unavailable}`;
  if (v.missing > 0)
    return `Vectors: ${v.total - v.missing} of ${v.total} chunks embedded (${v.embedded} new, ${v.missing} missing)`;
  return `Vectors: ${v.total} embedded chunks (${v.embedded} new)`;
}
