// File states of a loaded index whose chunk records stay encoded until something reads them: a
// one-shot query decodes the records of the files its hits are in (and of changed files), never all
// of a 50k-chunk index. deps: engine (chunk-codec, index-manager and live-index-types types).
import type { ChunkRecordTable } from './chunk-codec.js';
import type { ChunkRecord } from './index-manager.js';
import type { FileState } from './live-index-types.js';

/** Records per path, as the live index reads them (a Map, or the lazy groups of a loaded artifact). */
export interface RecordsByPath {
  get(path: string): readonly ChunkRecord[] | undefined;
  keys(): Iterable<string>;
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

/** A loaded artifact's records per path: counts without decoding, records decoded on first use. */
export function lazyGroups(
  table: ChunkRecordTable | undefined,
): RecordsByPath & { group(path: string): LazyGroup | undefined } {
  const groups = new Map<string, LazyGroup>();
  for (const [path, ranges] of table?.byPath ?? []) {
    const count = ranges.reduce((s, [a, b]) => s + b - a, 0);
    const t = table!;
    groups.set(path, {
      count,
      records: lazyList(count, () => ranges.flatMap(([a, b]) => t.slice(a, b))),
      find(id) {
        for (const [a, b] of ranges) for (let i = a; i < b; i++) if (t.id(i) === id) return t.record(i);
        return undefined;
      },
      *keys() {
        for (const [a, b] of ranges)
          for (let i = a; i < b; i++) {
            const k = t.vkey(i);
            if (k) yield [k, t.id(i)] as const;
          }
      },
    });
  }
  return {
    get: (path) => groups.get(path)?.records(),
    keys: () => groups.keys(),
    group: (path) => groups.get(path),
  };
}

/** A file's indexed state whose records are decoded when first read (a class: 10k of them are made per load). */
export class LazyFileState implements FileState {
  readonly hash: string;
  readonly stat?: string;
  readonly chunkCount: number;
  readonly load: () => readonly ChunkRecord[];
  /** Whether any record carries `supersedes` (known from the artifact's column without decoding). */
  readonly supersedes: boolean;
  /** The records' (embedding key, id) pairs from the artifact's columns, without decoding. */
  readonly keys: VectorKeys;
  /** The record with this id (from the artifact: only it is decoded), or undefined. */
  readonly find: (id: string) => ChunkRecord | undefined;

  constructor(
    hash: string,
    stat: string | undefined,
    count: number,
    load: (() => readonly ChunkRecord[]) | undefined,
    supersedes: boolean,
    keys?: VectorKeys,
    find?: (id: string) => ChunkRecord | undefined,
  ) {
    this.hash = hash;
    if (stat) this.stat = stat;
    this.chunkCount = count;
    this.load = load ?? (() => []);
    this.supersedes = supersedes;
    this.keys = keys ?? (() => recordKeys(this.load()));
    this.find = find ?? ((id) => this.load().find((r) => r.id === id));
  }

  get records(): readonly ChunkRecord[] {
    return this.load();
  }
}

/** `prev` with another stat key (its records stay undecoded when they were). */
export function withStat(prev: FileState, stat: string | undefined): FileState {
  if (prev instanceof LazyFileState)
    return new LazyFileState(prev.hash, stat, prev.chunkCount, prev.load, prev.supersedes, prev.keys, prev.find);
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
