// Path → record ranges of a chunk-record artifact (engine/chunks/chunk-codec.ts), read from its path
// column without a Map when the runs' paths are strictly increasing (JavaScript string order, what a
// base built from the sorted file list holds): `get` is a binary search and `forEach` walks the runs
// in order, so a one-shot query at 100,000 files does not hash every path into a Map (issue 46).
// Otherwise (a path in several runs, or runs out of order) the Map is built at once. Pure.

/** Record index ranges `[start, end)` of one path. */
export type Ranges = readonly (readonly [number, number])[];

/**
 * The runs of an artifact: `R` runs, run `r` holds records `[start(r), start(r + 1))` of path `pathOf(r)`.
 * Read-only; the Map of every path is made only when something iterates it as a Map (keys, entries).
 */
export class PathRuns implements ReadonlyMap<string, Ranges> {
  readonly #R: number;
  readonly #pathOf: (r: number) => string;
  readonly #start: (r: number) => number;
  /** Every path, when the runs are not strictly increasing (or once something iterated the map). */
  #map: Map<string, [number, number][]> | undefined;

  constructor(R: number, pathOf: (r: number) => string, start: (r: number) => number) {
    this.#R = R;
    this.#pathOf = pathOf;
    this.#start = start;
    let prev = '';
    for (let r = 0; r < R; r++) {
      const p = pathOf(r);
      if (r > 0 && !(prev < p)) {
        this.#map = this.#build();
        return;
      }
      prev = p;
    }
  }

  #build(): Map<string, [number, number][]> {
    const m = new Map<string, [number, number][]>();
    for (let r = 0; r < this.#R; r++) {
      const path = this.#pathOf(r);
      const range: [number, number] = [this.#start(r), this.#start(r + 1)];
      const list = m.get(path);
      if (list) list.push(range);
      else m.set(path, [range]);
    }
    return m;
  }

  /** The Map of every path (made on first use when the runs are sorted). */
  #all(): Map<string, [number, number][]> {
    return (this.#map ??= this.#build());
  }

  get size(): number {
    return this.#map ? this.#map.size : this.#R;
  }

  get(path: string): Ranges | undefined {
    if (this.#map) return this.#map.get(path);
    let lo = 0;
    let hi = this.#R - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.#pathOf(mid);
      if (p === path) return [[this.#start(mid), this.#start(mid + 1)]];
      if (p < path) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  /** Each path with its ranges, in run order (first-seen order when the map was built). */
  forEach(fn: (ranges: Ranges, path: string, map: ReadonlyMap<string, Ranges>) => void): void {
    if (this.#map) {
      this.#map.forEach((v, k) => fn(v, k, this));
      return;
    }
    for (let r = 0; r < this.#R; r++) fn([[this.#start(r), this.#start(r + 1)]], this.#pathOf(r), this);
  }

  keys(): MapIterator<string> {
    return this.#all().keys();
  }

  values(): MapIterator<Ranges> {
    return this.#all().values();
  }

  entries(): MapIterator<[string, Ranges]> {
    return this.#all().entries();
  }

  [Symbol.iterator](): MapIterator<[string, Ranges]> {
    return this.entries();
  }
}
