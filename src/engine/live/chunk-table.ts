// The chunk table of a live-index snapshot and the path-ordered helpers it shares with the index:
// paths sort by UTF-16 code units, the order a full build uses.
// deps: engine (index-manager, live-index-types types).
import type { ChunkRecord } from '../chunks/index-manager.js';
import type { FileState } from './live-index-types.js';
import { countOf, keysOf, LazyFileState } from './lazy-records.js';

export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Index at which `key` is (or would be inserted) in the `byPath`-sorted `sorted`. */
export function lowerBoundPath(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The chunk table of one snapshot: chunk id → record, iterated in path order then chunk order (the
 * order of a full build, which filter-only recall and fusion ties depend on). Built from the per-file
 * records without copying 50k entries per update; immutable once published.
 */
export class ChunkTable implements ReadonlyMap<string, ChunkRecord> {
  readonly #files: ReadonlyMap<string, FileState>;
  #paths: readonly string[] | (() => readonly string[]);
  readonly size: number;

  /**
   * @param sortedPaths the keys of `files` in path order, or a function giving them (called once,
   *   when the table is first walked in order).
   * @param size the number of chunks, when known (else counted over `files`).
   */
  constructor(
    files: ReadonlyMap<string, FileState>,
    sortedPaths: readonly string[] | (() => readonly string[]),
    size?: number,
  ) {
    this.#files = files;
    this.#paths = sortedPaths;
    if (size === undefined) {
      size = 0;
      for (const f of files.values()) size += countOf(f);
    }
    this.size = size;
  }

  /** The paths in order. */
  get #sorted(): readonly string[] {
    if (typeof this.#paths === 'function') this.#paths = this.#paths();
    return this.#paths;
  }

  get(id: string): ChunkRecord | undefined {
    const hash = id.lastIndexOf('#');
    if (hash < 0) return undefined;
    const f = this.#files.get(id.slice(0, hash));
    if (!f) return undefined;
    // A file loaded from disk: the id column finds the record; only it is decoded (a vector
    // candidate check or a hit does not decode its whole file).
    if (f instanceof LazyFileState) return f.find(id);
    const records = f.records;
    for (const r of records) if (r.id === id) return r;
    return undefined;
  }

  /** The first record of `path` (ChunkSource.firstOf): one record decoded, not the file's. */
  firstOf(path: string): ChunkRecord | undefined {
    const f = this.#files.get(path);
    if (!f) return undefined;
    return f instanceof LazyFileState ? f.first() : f.records[0];
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The records that carry `supersedes` (files loaded from disk without any are not decoded). */
  *superseding(): Iterable<ChunkRecord> {
    const files = this.#files as ReadonlyMap<string, FileState> & { supersedingPaths?: () => readonly string[] };
    // Loaded files know which paths carry `supersedes` without making the other states.
    for (const p of files.supersedingPaths ? files.supersedingPaths() : this.#sorted) {
      const f = this.#files.get(p)!;
      if (f instanceof LazyFileState && !f.supersedes) continue;
      for (const r of f.records) if (r.supersedes?.length) yield r;
    }
  }

  /**
   * (embedding key, chunk id) of every chunk that has a key, in table order; records loaded from
   * disk stay encoded (the keys come from the artifact's columns).
   */
  *vectorKeys(): Iterable<readonly [vkey: string, id: string]> {
    for (const p of this.#sorted) yield* keysOf(this.#files.get(p)!);
  }

  /** (embedding key, chunk id) of the chunks of `path` that have a key; nothing when the path has none. */
  keysOfPath(path: string): Iterable<readonly [vkey: string, id: string]> {
    const f = this.#files.get(path);
    return f ? keysOf(f) : [];
  }

  *values(): MapIterator<ChunkRecord> {
    for (const p of this.#sorted) yield* this.#files.get(p)!.records;
  }

  *keys(): MapIterator<string> {
    for (const r of this.values()) yield r.id;
  }

  *entries(): MapIterator<[string, ChunkRecord]> {
    for (const r of this.values()) yield [r.id, r];
  }

  [Symbol.iterator](): MapIterator<[string, ChunkRecord]> {
    return this.entries();
  }

  forEach(fn: (value: ChunkRecord, key: string, map: ReadonlyMap<string, ChunkRecord>) => void): void {
    for (const r of this.values()) fn(r, r.id, this);
  }
}
