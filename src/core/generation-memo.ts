// A bounded memo of values by string key, in two generations: the one memo of the secret scan's
// line findings (core/secrets.ts) and the keyword analysis of a chunk (indexes/lexical/lexical-analysis.ts).

/**
 * Values remembered by key, bounded: two generations of at most `maxChars` UTF-16 units of key each;
 * when the current one is full it becomes the previous one and the oldest is dropped (a hit in the
 * previous one moves to the current one), so what the caller keeps reading stays and the rest goes.
 * A key longer than `maxKey` is computed every time, never kept.
 */
export class GenerationMemo<V> {
  #cur = new Map<string, V>();
  #prev = new Map<string, V>();
  #chars = 0;
  #hits = 0;
  #misses = 0;
  readonly #maxChars: number;
  readonly #maxKey: number;

  /**
   * @param maxChars key text kept per generation (UTF-16 units).
   * @param maxKey longest key kept (UTF-16 units).
   */
  constructor(maxChars: number, maxKey: number) {
    this.#maxChars = maxChars;
    this.#maxKey = maxKey;
  }

  /** Keys remembered now. */
  get size(): number {
    return this.#cur.size + this.#prev.size;
  }

  /** Lookups answered from the memo and lookups computed anew, since construction. */
  get stats(): { hits: number; misses: number } {
    return { hits: this.#hits, misses: this.#misses };
  }

  /** The value of `key`: remembered, or `compute()`d and remembered. */
  get(key: string, compute: () => V): V {
    if (key.length > this.#maxKey) {
      this.#misses++;
      return compute();
    }
    let hit = this.#cur.get(key);
    if (hit !== undefined) {
      this.#hits++;
      return hit;
    }
    hit = this.#prev.get(key);
    if (hit !== undefined) this.#hits++;
    else {
      this.#misses++;
      hit = compute();
    }
    if (this.#chars + key.length > this.#maxChars) {
      this.#prev = this.#cur;
      this.#cur = new Map();
      this.#chars = 0;
    }
    this.#cur.set(key, hit);
    this.#chars += key.length;
    return hit;
  }
}
