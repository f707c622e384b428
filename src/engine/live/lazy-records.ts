// File states of a loaded index whose chunk records stay encoded until something reads them: a
// one-shot query decodes the records of the files its hits are in (and of changed files), never all
// of a 50k-chunk index. deps: engine (chunk-codec, index-manager and live-index-types types).
import type { ChunkRecordTable } from '../chunks/chunk-codec.js';
import type { ChunkRecord } from '../chunks/index-manager.js';
import type { FileState } from './live-index-types.js';

/** Records per path, as the live index reads them (a Map, or the lazy groups of a loaded artifact). */
export interface RecordsByPath {
  get(path: string): readonly ChunkRecord[] | undefined;
  keys(): Iterable<string>;
  /** The chunk ids of `path`, in record order, from a loaded artifact's id column (no record decoded). */
  ids?(path: string): string[] | undefined;
}

/** `load` once, on first call. */
export function lazyList(count: number, load: () => ChunkRecord[]): () => readonly ChunkRecord[] {
  let v: readonly ChunkRecord[] | undefined = count === 0 ? [] : undefined;
  return () => (v ??= load());
}

/** (embedding key, chunk id) of each record that has a key, in record order. */
export type VectorKeys = () => Iterable<readonly [vkey: string, id: string]>;

/** One path's records in a loaded artifact: the count, the records (decoded once), the key columns. */
export interface LazyGroup {
  readonly count: number;
  readonly records: () => readonly ChunkRecord[];
  readonly keys: VectorKeys;
  /** The record with this id, found by the id column; only that record is decoded. */
  readonly find: (id: string) => ChunkRecord | undefined;
}

/** Record index ranges `[start, end)` of one path in a loaded artifact. */
type Ranges = readonly (readonly [number, number])[];

function rangeCount(ranges: Ranges): number {
  let n = 0;
  for (const [a, b] of ranges) n += b - a;
  return n;
}

function sliceRanges(t: ChunkRecordTable, ranges: Ranges): ChunkRecord[] {
  if (ranges.length === 1) return t.slice(ranges[0]![0], ranges[0]![1]);
  return ranges.flatMap(([a, b]) => t.slice(a, b));
}

function findIn(t: ChunkRecordTable, ranges: Ranges, id: string): ChunkRecord | undefined {
  for (const [a, b] of ranges) {
    const i = t.indexOfId(a, b, id);
    if (i >= 0) return t.record(i);
  }
  return undefined;
}

function idsIn(t: ChunkRecordTable, ranges: Ranges): string[] {
  const out: string[] = [];
  for (const [a, b] of ranges) for (let i = a; i < b; i++) out.push(t.id(i));
  return out;
}

function* keysIn(t: ChunkRecordTable, ranges: Ranges): Iterable<readonly [vkey: string, id: string]> {
  for (const [a, b] of ranges)
    for (let i = a; i < b; i++) {
      const k = t.vkey(i);
      if (k) yield [k, t.id(i)] as const;
    }
}

/**
 * A loaded artifact's records per path: counts without decoding, records decoded on first use.
 * Nothing is made per path up front (the artifact's own path → ranges map is read on demand).
 */
export function lazyGroups(table: ChunkRecordTable | undefined): RecordsByPath & {
  group(path: string): LazyGroup | undefined;
  count(path: string): number | undefined;
  ids(path: string): string[] | undefined;
} {
  const byPath = table?.byPath ?? new Map<string, Ranges>();
  const decoded = new Map<string, readonly ChunkRecord[]>();
  const get = (path: string): readonly ChunkRecord[] | undefined => {
    const ranges = byPath.get(path);
    if (!ranges) return undefined;
    let v = decoded.get(path);
    if (!v) decoded.set(path, (v = sliceRanges(table!, ranges)));
    return v;
  };
  return {
    get,
    keys: () => byPath.keys(),
    ids: (path) => {
      const ranges = byPath.get(path);
      return ranges && idsIn(table!, ranges);
    },
    count: (path) => {
      const ranges = byPath.get(path);
      return ranges && rangeCount(ranges);
    },
    group: (path) => {
      const ranges = byPath.get(path);
      if (!ranges) return undefined;
      const t = table!;
      return {
        count: rangeCount(ranges),
        records: () => get(path)!,
        find: (id) => findIn(t, ranges, id),
        keys: () => keysIn(t, ranges),
      };
    },
  };
}

/**
 * A file's indexed state whose records are decoded when first read. A class without per-instance
 * closures: 10k of them are made per load, and each extra object per file is GC work.
 */
export class LazyFileState implements FileState {
  readonly hash: string;
  readonly stat?: string;
  readonly chunkCount: number;
  /** Whether any record carries `supersedes` (known from the artifact's column without decoding). */
  readonly supersedes: boolean;
  /** The artifact and this file's record ranges in it (undefined: no records, or `from` decodes them). */
  #table: ChunkRecordTable | undefined;
  #ranges: Ranges | undefined;
  readonly #from: (() => readonly ChunkRecord[]) | undefined;
  readonly #keys: VectorKeys | undefined;
  #records: readonly ChunkRecord[] | undefined;

  /**
   * @param source the artifact and this file's ranges in it, or a function that decodes the
   *   records (with `keys`, their (embedding key, id) pairs without decoding), or undefined (none).
   */
  constructor(
    hash: string,
    stat: string | undefined,
    count: number,
    source: { readonly table: ChunkRecordTable; readonly ranges: Ranges } | (() => readonly ChunkRecord[]) | undefined,
    supersedes: boolean,
    keys?: VectorKeys,
  ) {
    this.hash = hash;
    if (stat) this.stat = stat;
    this.chunkCount = count;
    this.supersedes = supersedes;
    if (typeof source === 'function') this.#from = source;
    else if (source) {
      this.#table = source.table;
      this.#ranges = source.ranges;
    }
    this.#keys = keys;
    if (count === 0) this.#records = [];
  }

  /** The records, decoded on first call. */
  load(): readonly ChunkRecord[] {
    if (this.#records) return this.#records;
    const t = this.#table;
    this.#records = t ? sliceRanges(t, this.#ranges!) : (this.#from?.() ?? []);
    // Decoded: the artifact is no longer needed here (a compacted-away artifact read at offsets can
    // then be collected and its file closed).
    this.#table = undefined;
    this.#ranges = undefined;
    return this.#records;
  }

  get records(): readonly ChunkRecord[] {
    return this.load();
  }

  /** The records' (embedding key, id) pairs from the artifact's columns, without decoding. */
  keys(): Iterable<readonly [vkey: string, id: string]> {
    if (this.#keys) return this.#keys();
    const t = this.#table;
    return t && !this.#records ? keysIn(t, this.#ranges!) : recordKeys(this.load());
  }

  /** The record with this id (from the artifact: only it is decoded), or undefined. */
  find(id: string): ChunkRecord | undefined {
    const t = this.#table;
    if (t && !this.#records) return findIn(t, this.#ranges!, id);
    return this.load().find((r) => r.id === id);
  }

  /** The first record (from the artifact: only it is decoded), or undefined when there is none. */
  first(): ChunkRecord | undefined {
    const t = this.#table;
    if (t && !this.#records) {
      const r = this.#ranges![0];
      return r && r[1] > r[0] ? t.record(r[0]) : undefined;
    }
    return this.load()[0];
  }

  /** This state with another stat key (records shared, still undecoded when they were). */
  withStat(stat: string | undefined): LazyFileState {
    const next = new LazyFileState(
      this.hash,
      stat,
      this.chunkCount,
      this.#table ? { table: this.#table, ranges: this.#ranges! } : () => this.load(),
      this.supersedes,
      this.#keys,
    );
    if (this.#records) next.#records = this.#records;
    return next;
  }
}

/** `prev` with another stat key (its records stay undecoded when they were). */
export function withStat(prev: FileState, stat: string | undefined): FileState {
  if (prev instanceof LazyFileState) return prev.withStat(stat);
  return stat ? { hash: prev.hash, records: prev.records, stat } : { hash: prev.hash, records: prev.records };
}

/** Number of records of a file state (without decoding lazily loaded ones). */
export function countOf(f: FileState): number {
  return f instanceof LazyFileState ? f.chunkCount : f.records.length;
}

/** (embedding key, id) of the records that have a key. */
function* recordKeys(records: readonly ChunkRecord[]): Iterable<readonly [vkey: string, id: string]> {
  for (const r of records) if (r.vkey) yield [r.vkey, r.id] as const;
}

/** (embedding key, id) pairs of a file state, from the artifact's columns when it was loaded lazily. */
export function keysOf(f: FileState): Iterable<readonly [vkey: string, id: string]> {
  return f instanceof LazyFileState ? f.keys() : recordKeys(f.records);
}
