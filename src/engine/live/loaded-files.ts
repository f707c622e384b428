// The file states of an index as loaded (engine/live/live-index-store.ts restoreState), made when something
// reads them: a one-shot query reads a file state per hit, not 10k of them. `get` makes one path's
// state from the manifest's file tables and the chunk artifacts' path runs; walking the whole map
// (a diff, an update, a save) makes every state once. The cross-checks of a load (chunk counts per
// path, the paths each segment holds) run when it is made, without a state per file (B66).
// Immutable: the live index copies it before its first change, and a published snapshot keeps reading it.
// deps: core (errors), indexes (manifest, manifest-files), engine (chunk-codec, chunk-table, lazy-records,
// live-index-types).
import { MemoryError } from '../../core/errors.js';
import type { IndexManifest } from '../../indexes/manifest/manifest.js';
import { docChunkCount, docChunkCounter, docCount, docLookup, eachDoc } from '../../indexes/manifest/manifest-files.js';
import type { ChunkRecordTable } from '../chunks/chunk-codec.js';
import { byPath } from './chunk-table.js';
import { LazyFileState } from './lazy-records.js';
import type { FileState } from './live-index-types.js';

type Ranges = readonly (readonly [number, number])[];

/** What the file states are made from: the verified manifest and the decoded parts. */
export interface LoadedSource {
  readonly manifest: IndexManifest;
  readonly baseTable: ChunkRecordTable | undefined;
  readonly deltaTable: ChunkRecordTable | undefined;
  /** Paths changed or deleted since the base was built (their records are in the delta). */
  readonly touched: ReadonlySet<string>;
  /** Paths whose records carry `supersedes`, of the base and of the delta. */
  readonly supBase: ReadonlySet<string>;
  readonly supDelta: ReadonlySet<string>;
}

const NO_RUNS = new Map<string, Ranges>();

/**
 * States {@link LoadedFiles.get} makes one at a time (a binary search of the file table each) before
 * it makes them all through {@link LoadedFiles.all} (one walk of the table, then a Map lookup each):
 * a query reads a few; a diff against the workspace after an edit reads every one (at 100,000
 * files, 100,000 binary searches of path strings took longer than the rest of the diff).
 */
const MADE_ALONE = 2048;

function corrupt(message: string): MemoryError {
  return new MemoryError('index.corrupt', message, { hint: 'run `gitmem index --rebuild`' });
}

/** The chunks `ranges` hold, checked against what the manifest records for `path`. @throws MemoryError `index.corrupt`. */
function checkedCount(path: string, ranges: Ranges, want: number): number {
  let n = 0;
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i]!; // (no destructuring: it would take the array's iterator again)
    n += r[1] - r[0];
  }
  if (n !== want) throw corrupt(`chunk count of ${path} does not match`);
  return n;
}

/** The loaded file states, path → {@link FileState}, made on demand. */
export class LoadedFiles implements ReadonlyMap<string, FileState> {
  readonly #s: LoadedSource;
  /** States made by {@link get}. */
  readonly #made = new Map<string, LazyFileState>();
  #all: { files: Map<string, FileState>; sorted: string[] } | undefined;
  /** {@link known} calls answered by a lookup of the file table. */
  #lookups = 0;
  readonly size: number;
  /** Chunks of all files (the manifest's count, which its file tables add up to). */
  readonly chunkCount: number;

  /** @throws MemoryError `index.corrupt` when the segments' paths or chunk counts disagree with the manifest (B66). */
  constructor(source: LoadedSource) {
    this.#s = source;
    this.size = docCount(source.manifest);
    this.chunkCount = source.manifest.chunkCount;
    // Checked now, so that a damaged index fails the load (and is rebuilt), not a later query (B66):
    // every path the segments hold is indexed with as many chunks as the manifest records, and the
    // segments hold every chunk the manifest counts. One pass over the artifacts' path runs, no state made.
    const { manifest, touched } = source;
    // (forEach, not for…of: an entries iterator makes a [path, ranges] pair per file in this cold code.)
    let held = 0;
    (source.deltaTable?.byPath ?? NO_RUNS).forEach((ranges, p) => {
      const want = touched.has(p) ? docChunkCount(manifest, p) : undefined;
      if (want === undefined) throw corrupt(`delta holds ${p} unexpectedly`);
      held += checkedCount(p, ranges, want);
    });
    // A base's runs come in path order, as the file table's rows: the counts are read walking both.
    const countOf = docChunkCounter(manifest);
    (source.baseTable?.byPath ?? NO_RUNS).forEach((ranges, p) => {
      if (touched.size > 0 && touched.has(p)) return; // masked: the delta holds its records
      const want = countOf(p);
      if (want === undefined) throw corrupt(`base holds unknown ${p}`);
      held += checkedCount(p, ranges, want);
    });
    if (held !== this.chunkCount) throw corrupt('the segments do not hold every chunk the manifest counts');
  }

  /** How many file states have been made so far (for tests and benchmarks). */
  get madeStates(): number {
    return this.#all ? this.#all.files.size : this.#made.size;
  }

  /** One path's state, or undefined when it is not indexed. */
  get(path: string): FileState | undefined {
    if (this.#all) return this.#all.files.get(path);
    const hit = this.#made.get(path);
    if (hit) return hit;
    if (this.#made.size >= MADE_ALONE) return this.all().files.get(path);
    const d = docLookup(this.#s.manifest, path);
    if (!d) return undefined;
    const f = this.#make(path, d.hash, d.stat, d.chunkCount);
    this.#made.set(path, f);
    return f;
  }

  /** What the manifest recorded of `path` (content hash, stat key), without making its state. */
  known(path: string): { readonly hash: string; readonly stat?: string | undefined } | undefined {
    if (this.#all) return this.#all.files.get(path);
    // A walk asks of every file: past MADE_ALONE lookups, one walk of the table and a Map lookup each.
    if (++this.#lookups > MADE_ALONE) return this.all().files.get(path);
    return docLookup(this.#s.manifest, path);
  }

  has(path: string): boolean {
    return this.#all ? this.#all.files.has(path) : docChunkCount(this.#s.manifest, path) !== undefined;
  }

  #make(path: string, hash: string, stat: string | undefined, chunkCount: number): LazyFileState {
    const s = this.#s;
    const inDelta = s.touched.has(path);
    const table = inDelta ? s.deltaTable : s.baseTable;
    const ranges = (table?.byPath ?? NO_RUNS).get(path);
    // The constructor checked that `ranges` hold `chunkCount` records.
    const sup = (inDelta ? s.supDelta : s.supBase).has(path);
    return new LazyFileState(hash, stat, chunkCount, ranges && table ? { table, ranges } : undefined, sup);
  }

  /**
   * Every state, and the paths in `byPath` order (made once; the states {@link get} made are reused).
   */
  all(): { readonly files: ReadonlyMap<string, FileState>; readonly sorted: readonly string[] } {
    if (this.#all) return this.#all;
    const files = new Map<string, FileState>();
    let sorted = true;
    let last = '';
    eachDoc(this.#s.manifest, (path, hash, stat, chunkCount) => {
      files.set(path, this.#made.get(path) ?? this.#make(path, hash, stat, chunkCount));
      if (sorted && byPath(last, path) > 0) sorted = false;
      last = path;
    });
    // The file table lists paths in the saved (sorted) order; a delta may append: sort only then.
    const paths = [...files.keys()];
    this.#all = { files, sorted: sorted ? paths : paths.sort(byPath) };
    this.#made.clear();
    return this.#all;
  }

  /** The indexed paths whose records carry `supersedes`, in `byPath` order (no other state is made). */
  supersedingPaths(): string[] {
    const s = this.#s;
    const out: string[] = [];
    for (const p of s.supBase) if (!s.touched.has(p) && this.has(p)) out.push(p);
    for (const p of s.supDelta) if (s.touched.has(p) && this.has(p)) out.push(p);
    return out.sort(byPath);
  }

  keys(): MapIterator<string> {
    return this.all().files.keys() as MapIterator<string>;
  }

  values(): MapIterator<FileState> {
    return this.all().files.values() as MapIterator<FileState>;
  }

  entries(): MapIterator<[string, FileState]> {
    return this.all().files.entries() as MapIterator<[string, FileState]>;
  }

  [Symbol.iterator](): MapIterator<[string, FileState]> {
    return this.entries();
  }

  forEach(fn: (value: FileState, key: string, map: ReadonlyMap<string, FileState>) => void): void {
    for (const [k, v] of this.all().files) fn(v, k, this);
  }
}
