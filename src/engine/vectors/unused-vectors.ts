// The vectors no chunk uses any more that the semantic index keeps for a while: a deleted file that
// comes back (an undo, a checkout back and forth) reuses its vectors instead of re-embedding them.
// They are never search results (no chunk maps to them). deps: indexes (the vector table).
import type { VectorTable } from '../../indexes/vector/vector.js';

/**
 * Unused vectors are kept this long (ms) and at most {@link ORPHAN_MIN} or {@link ORPHAN_SHARE} of
 * the used ones, whichever is more, oldest dropped first.
 */
const ORPHAN_TTL_MS = 30 * 60_000;
const ORPHAN_MIN = 1024;
const ORPHAN_SHARE = 0.05;

/** The unused vectors of one vector table: key → Date.now() when its last chunk went (oldest first). */
export class UnusedVectors {
  readonly #since = new Map<string, number>();

  /** How many vectors are kept unused. */
  get size(): number {
    return this.#since.size;
  }

  has(key: string): boolean {
    return this.#since.has(key);
  }

  /**
   * Keys of `table` that `live` does not hold become unused (kept); unused ones `live` holds again
   * are in use again; the oldest unused ones over the bound, and those past their time, are deleted
   * from `table`.
   * @returns whether `table` changed (a vector was deleted)
   */
  release(table: VectorTable, live: ReadonlyMap<string, unknown>): boolean {
    const now = Date.now();
    for (const k of this.#since.keys()) if (live.has(k)) this.#since.delete(k);
    for (const k of table.ids()) if (!live.has(k) && !this.#since.has(k)) this.#since.set(k, now);
    const cap = Math.max(ORPHAN_MIN, Math.ceil(live.size * ORPHAN_SHARE));
    let changed = false;
    for (const [k, t] of this.#since) {
      if (this.#since.size <= cap && now - t < ORPHAN_TTL_MS) break;
      this.#since.delete(k);
      table.delete(k);
      changed = true;
    }
    return changed;
  }
}
