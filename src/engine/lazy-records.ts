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

/** A loaded artifact's records per path: counts without decoding, records decoded on first use. */
export function lazyGroups(
  table: ChunkRecordTable | undefined,
): RecordsByPath & { group(path: string): { count: number; records: () => readonly ChunkRecord[] } | undefined } {
  const groups = new Map<string, { count: number; records: () => readonly ChunkRecord[] }>();
  for (const [path, ranges] of table?.byPath ?? []) {
    const count = ranges.reduce((s, [a, b]) => s + b - a, 0);
    groups.set(path, { count, records: lazyList(count, () => ranges.flatMap(([a, b]) => table!.slice(a, b))) });
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

  constructor(
    hash: string,
    stat: string | undefined,
    count: number,
    load: (() => readonly ChunkRecord[]) | undefined,
    supersedes: boolean,
  ) {
    this.hash = hash;
    if (stat) this.stat = stat;
    this.chunkCount = count;
    this.load = load ?? (() => []);
    this.supersedes = supersedes;
  }

  get records(): readonly ChunkRecord[] {
    return this.load();
  }
}

/** `prev` with another stat key (its records stay undecoded when they were). */
export function withStat(prev: FileState, stat: string | undefined): FileState {
  if (prev instanceof LazyFileState)
    return new LazyFileState(prev.hash, stat, prev.chunkCount, prev.load, prev.supersedes);
  return stat ? { hash: prev.hash, records: prev.records, stat } : { hash: prev.hash, records: prev.records };
}

/** Number of records of a file state (without decoding lazily loaded ones). */
export function countOf(f: FileState): number {
  return f instanceof LazyFileState ? f.chunkCount : f.records.length;
}
