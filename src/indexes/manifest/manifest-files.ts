// The per-file entries of a saved index's manifest kept in file tables (indexes/manifest/file-table.ts is their
// codec): which tables a save writes (a delta against the previous base, or a new base), a loaded
// manifest's entries walked from the tables' columns, and its `docs` built from them on first read.
// Pure: no I/O (store.ts writes and reads the tables as artifacts).
// deps: core (errors, hash), indexes (file-table, manifest).
import { MemoryError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import { decodeFileColumns, docAt, encodeFileTable, type FileColumns, type FileRow } from './file-table.js';
import type { ArtifactInfo, IndexManifest, ManifestDoc } from './manifest.js';

/** Name prefixes of the per-file tables (indexes/manifest/file-table.ts); the rest of the name is a content hash. */
export const FILES_BASE = 'files-';
const FILES_DELTA = 'files-delta-';

/**
 * Of each manifest this process loaded or wrote with file tables: the base table's name and the
 * paths its delta table holds. A save whose previous manifest is known here writes only a delta.
 */
const tables = new WeakMap<IndexManifest, { readonly base: string; readonly delta: ReadonlySet<string> }>();

/**
 * A delta table is folded into a new base once it holds more files than this (of `n` in all): a
 * sixteenth of the files (at least 64), and never more than half of them.
 */
export function fileDeltaLimit(n: number): number {
  return Math.min(Math.max(64, n >> 4), Math.max(1, n >> 1));
}

/**
 * The file tables of a save: a delta against the previous base when the previous manifest's tables
 * are known and the files changed since that base stay under {@link fileDeltaLimit}; else a new base.
 */
export function fileTables(
  docs: Readonly<Record<string, ManifestDoc>>,
  previous: IndexManifest | undefined,
): {
  data: Record<string, Uint8Array>;
  reuse: Record<string, ArtifactInfo>;
  files: { base: string; delta?: string };
  delta: ReadonlySet<string>;
} {
  const paths = Object.keys(docs);
  const prev = previous && tables.get(previous);
  const baseInfo = prev && Object.hasOwn(previous.artifacts, prev.base) ? previous.artifacts[prev.base] : undefined;
  if (prev && baseInfo) {
    const delta = new Set(prev.delta);
    // The previous entries are walked from its columns (eachDoc): no ManifestDoc per file is made.
    const before = new Set<string>();
    eachDoc(previous, (p, contentHash, stat, chunkCount) => {
      before.add(p);
      if (delta.has(p)) return;
      const d = Object.hasOwn(docs, p) ? docs[p] : undefined;
      if (d?.contentHash !== contentHash || d.chunkCount !== chunkCount || d.stat !== stat) delta.add(p);
    });
    for (const p of paths) if (!before.has(p)) delta.add(p);
    if (delta.size <= fileDeltaLimit(paths.length)) {
      const reuse = { [prev.base]: baseInfo };
      if (delta.size === 0) return { data: {}, reuse, files: { base: prev.base }, delta };
      const rows: FileRow[] = [...delta].sort().map((p) => [p, Object.hasOwn(docs, p) ? docs[p]! : null]);
      const bytes = encodeFileTable(rows);
      const name = `${FILES_DELTA}${sha256(bytes).slice(0, 16)}.bin`;
      return { data: { [name]: bytes }, reuse, files: { base: prev.base, delta: name }, delta };
    }
  }
  const bytes = encodeFileTable(paths.map((p) => [p, docs[p]!]));
  const name = `${FILES_BASE}${sha256(bytes).slice(0, 16)}.bin`;
  return { data: { [name]: bytes }, reuse: {}, files: { base: name }, delta: new Set() };
}

/**
 * Of each manifest loadIndex (store.ts) filled in from file tables: the decoded columns of its base
 * table and the rows of its delta table, which {@link eachDoc} walks without making an object per file.
 */
const columns = new WeakMap<
  IndexManifest,
  { readonly base: FileColumns; readonly delta: ReadonlyMap<string, ManifestDoc | null> }
>();

/**
 * Call `fn` with every per-file entry of `manifest` (path, content hash, stat key, chunk count), in
 * the order of its `docs`. For a manifest loaded from file tables the columns are read directly:
 * no `ManifestDoc` is made (its `docs` are built only when something reads them).
 */
export function eachDoc(
  manifest: IndexManifest,
  fn: (path: string, hash: string, stat: string | undefined, chunkCount: number) => void,
): void {
  const c = columns.get(manifest);
  if (!c) {
    const docs = manifest.docs;
    for (const p in docs) {
      const d = docs[p]!;
      fn(p, d.contentHash, d.stat, d.chunkCount);
    }
    return;
  }
  const { base, delta } = c;
  const inline = new Set<string>();
  for (let i = 0; i < base.n; i++) {
    const p = base.paths[i]!;
    if (delta.size > 0 && delta.has(p)) {
      inline.add(p);
      const d = delta.get(p);
      if (d) fn(p, d.contentHash, d.stat, d.chunkCount);
      continue;
    }
    fn(p, base.hashAt(i), base.statAt(i), base.counts[i]!);
  }
  for (const [p, d] of delta) if (d && !inline.has(p)) fn(p, d.contentHash, d.stat, d.chunkCount);
}

/**
 * The manifest with its per-file entries in the file tables `files` names (verified artifacts);
 * `docs` is built from the columns on first read.
 * @throws MemoryError `index.corrupt` when a table does not decode, the base holds a removal or the
 *   chunk counts do not add up.
 */
export function withTables(manifest: IndexManifest, artifacts: Readonly<Record<string, Uint8Array>>): IndexManifest {
  const files = manifest.files!;
  const base = decodeFileColumns(artifacts[files.base]!);
  const delta = new Map<string, ManifestDoc | null>();
  if (files.delta) {
    const d = decodeFileColumns(artifacts[files.delta]!);
    for (let i = 0; i < d.n; i++) delta.set(d.paths[i]!, docAt(d, i));
  }
  let sum = 0;
  const out = { ...manifest } as IndexManifest;
  columns.set(out, { base, delta });
  for (let i = 0; i < base.n; i++)
    if (base.counts[i] === null) throw new MemoryError('index.corrupt', `file table ${files.base} holds a removal`);
  eachDoc(out, (_p, _h, _s, count) => {
    sum += count;
  });
  if (sum !== manifest.chunkCount) throw new MemoryError('index.corrupt', 'per-file chunk counts do not add up');
  let docs: Record<string, ManifestDoc> | undefined;
  Object.defineProperty(out, 'docs', {
    enumerable: true,
    get() {
      if (docs) return docs;
      docs = {};
      eachDoc(out, (p, contentHash, stat, chunkCount) => {
        docs![p] = stat !== undefined ? { contentHash, chunkCount, stat } : { contentHash, chunkCount };
      });
      return docs;
    },
  });
  tables.set(out, { base: files.base, delta: new Set(delta.keys()) });
  return out;
}

/** Record the file tables of a manifest {@link fileTables} planned and saveIndex (store.ts) wrote. */
export function recordTables(manifest: IndexManifest, base: string, delta: ReadonlySet<string>): void {
  tables.set(manifest, { base, delta });
}

/** One file's entry as {@link docLookup} finds it. */
export interface DocEntry {
  readonly hash: string;
  readonly stat: string | undefined;
  readonly chunkCount: number;
}

/** Of each manifest: its per-file lookup and file count, made on first use. */
interface Lookup {
  readonly get: (path: string) => DocEntry | undefined;
  /** The chunk count only (no object made). */
  readonly chunks: (path: string) => number | undefined;
  readonly count: number;
  /** The base table's columns, when its paths are sorted (what {@link docChunkCounter} walks). */
  readonly sorted?: FileColumns | undefined;
}
const lookups = new WeakMap<IndexManifest, Lookup>();

function lookupOf(manifest: IndexManifest): Lookup {
  let l = lookups.get(manifest);
  if (l) return l;
  const c = columns.get(manifest);
  if (!c) {
    const docs = manifest.docs;
    const get = (p: string): DocEntry | undefined => {
      if (!Object.hasOwn(docs, p)) return undefined;
      const d = docs[p]!;
      return { hash: d.contentHash, stat: d.stat, chunkCount: d.chunkCount };
    };
    const chunks = (p: string) => (Object.hasOwn(docs, p) ? docs[p]!.chunkCount : undefined);
    l = { get, chunks, count: Object.keys(docs).length };
  } else {
    // Path → row of the base table: a binary search over its paths when they are sorted (a base
    // table is written in path order), else one Map of numbers (no object per file); the delta's rows win.
    const { base, delta } = c;
    const row = rowFinder(base);
    let count = base.n;
    for (const [p, d] of delta) {
      const inBase = row(p) !== undefined;
      if (d && !inBase) count++;
      else if (!d && inBase) count--;
    }
    const rows = { get: row };
    const get = (p: string): DocEntry | undefined => {
      if (delta.size > 0 && delta.has(p)) {
        const d = delta.get(p);
        return d ? { hash: d.contentHash, stat: d.stat, chunkCount: d.chunkCount } : undefined;
      }
      const i = rows.get(p);
      return i === undefined ? undefined : { hash: base.hashAt(i), stat: base.statAt(i), chunkCount: base.counts[i]! };
    };
    const chunks = (p: string): number | undefined => {
      if (delta.size > 0 && delta.has(p)) return delta.get(p)?.chunkCount;
      const i = rows.get(p);
      return i === undefined ? undefined : base.counts[i]!;
    };
    l = { get, chunks, count, sorted: row.sorted ? base : undefined };
  }
  lookups.set(manifest, l);
  return l;
}

/** Row of a path in `base`: binary search when its paths are strictly increasing, else a Map made now. */
function rowFinder(base: FileColumns): ((path: string) => number | undefined) & { sorted: boolean } {
  const paths = base.paths;
  let sorted = true;
  for (let i = 1; i < base.n && sorted; i++) if (!(paths[i - 1]! < paths[i]!)) sorted = false;
  if (!sorted) {
    const rows = new Map<string, number>();
    for (let i = 0; i < base.n; i++) rows.set(paths[i]!, i);
    return Object.assign((p: string) => rows.get(p), { sorted });
  }
  const find = (p: string): number | undefined => {
    let lo = 0;
    let hi = base.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const q = paths[mid]!;
      if (q === p) return mid;
      if (q < p) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
  return Object.assign(find, { sorted });
}

/**
 * The chunk count `manifest` records per path (as {@link docChunkCount}), for a caller that asks in
 * increasing path order (the load check walks a base artifact's sorted path runs): a walk alongside
 * the file table's sorted paths, no lookup structure per call; a path out of order is looked up.
 */
export function docChunkCounter(manifest: IndexManifest): (path: string) => number | undefined {
  const l = lookupOf(manifest);
  const c = columns.get(manifest);
  const base = l.sorted;
  if (!c || !base) return l.chunks;
  const delta = c.delta;
  let i = 0;
  let last = '';
  return (p) => {
    if (delta.size > 0 && delta.has(p)) return delta.get(p)?.chunkCount;
    if (p < last) return l.chunks(p);
    last = p;
    const paths = base.paths;
    while (i < base.n && paths[i]! < p) i++;
    return i < base.n && paths[i] === p ? base.counts[i]! : undefined;
  };
}

/**
 * The per-file entry of `path` in `manifest` (undefined: not indexed), read from the file tables'
 * columns for a manifest loaded from them: no `ManifestDoc` per file is made.
 */
export function docLookup(manifest: IndexManifest, path: string): DocEntry | undefined {
  return lookupOf(manifest).get(path);
}

/** The chunk count `manifest` records for `path` (undefined: not indexed), without an object per call. */
export function docChunkCount(manifest: IndexManifest, path: string): number | undefined {
  return lookupOf(manifest).chunks(path);
}

/** How many files `manifest` indexes (what {@link eachDoc} walks). */
export function docCount(manifest: IndexManifest): number {
  return lookupOf(manifest).count;
}
