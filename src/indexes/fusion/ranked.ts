// The one order of every ranked list (keyword hits, vector hits, fused and re-scored lists): score
// descending, ties by ref in code-unit order, so equal scores rank alike on every run and machine.
// deps: none.

/** A ranked hit: a chunk id (or an embedding key) and its score. */
export interface RankedHit {
  readonly ref: string;
  readonly score: number;
}

/** Score descending, then ref ascending (code-unit order); for `Array.prototype.sort`. */
export function compareHits(a: RankedHit, b: RankedHit): number {
  return b.score - a.score || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0);
}
