// The parts of what `gitmem index` prints about the semantic half of the index and about what was saved. deps: none.

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

/** What an index run left on disk (`IndexReport.saved`). */
export interface SavedSummary {
  readonly keyword: boolean;
  readonly vectors: boolean;
}

/**
 * @returns the end of the index summary line, saying what was saved: `(keyword and vectors)`,
 *   `(keyword only)` when vectors are off, and what was kept in memory only when a save was skipped
 *   (another gitmem process writes the index).
 */
export function savedNote(saved: SavedSummary, v: VectorsSummary): string {
  if (saved.keyword && saved.vectors) return '(keyword and vectors)';
  const busy = 'another gitmem process writes the index';
  if (v.unavailable) return saved.keyword ? '(keyword only; vectors off)' : `(keyword only, not saved: ${busy})`;
  if (saved.keyword) return `(keyword saved; vectors kept in memory only: ${busy})`;
  return `(not saved, kept in memory for this run: ${busy})`;
}

/** The parts of an index run the headline reports (`IndexReport`). */
export interface IndexHeadlineInput {
  readonly source: string;
  readonly reason?: string | null;
  readonly vectors: VectorsSummary;
}

/**
 * @returns the start of the index summary line, saying what this run did: `Index is up to date` only
 *   when it changed nothing; `Index updated (<reason>)` when the keyword index changed; and, when
 *   chunks were embedded (the rest of an interrupted run, or the model became available), how many:
 *   `Index updated (embedded 1330 chunks)`.
 */
export function indexHeadline(res: IndexHeadlineInput): string {
  const embedded = res.vectors.embedded > 0 ? `embedded ${res.vectors.embedded} chunks` : '';
  if (res.source === 'loaded') return embedded ? `Index updated (${embedded})` : 'Index is up to date';
  const reason = (res.reason ?? '').replace(/^index updated \((.*)\)$/, '$1');
  return `Index updated (${[reason, embedded].filter(Boolean).join('; ')})`;
}
