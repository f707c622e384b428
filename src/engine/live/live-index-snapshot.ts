// The snapshot the live keyword index (engine/live/live-index.ts) publishes: the base segment with the
// entries of changed or deleted files masked, plus the delta segment, over a copy of the chunk table.
// deps: indexes (lexical, manifest types), engine (chunk-table, index-manager, live-index-store, live-index-types).
import { SegmentedLexical, type LexicalIndex, type LexicalSearcher } from '../../indexes/lexical/lexical.js';
import type { IndexManifest } from '../../indexes/manifest/manifest.js';
import { ChunkTable } from './chunk-table.js';
import { INDEX_FORMAT_VERSION, type IndexSnapshot } from '../chunks/index-manager.js';
import { withVectorKeys } from './vector-key-map.js';
import type { Part } from './live-index-store.js';
import type { FileState } from './live-index-types.js';
import type { RecordsByPath } from './lazy-records.js';
import { LoadedFiles } from './loaded-files.js';

/** The parts and files a snapshot is composed of (read, never kept). */
export interface SnapshotParts {
  readonly base: Part | undefined;
  readonly baseByPath: RecordsByPath;
  readonly delta: Part | undefined;
  readonly touched: ReadonlySet<string>;
  /** The files; a {@link LoadedFiles} (immutable, made on demand) right after a load. */
  readonly files: ReadonlyMap<string, FileState>;
  /**
   * Keys of `files`, sorted (made when first asked); undefined with loaded files (they give their own order).
   * `files` and these are never changed after (live-index-files.ts parts).
   */
  readonly sorted: (() => readonly string[]) | undefined;
  /** Chunks over `files`, when known. */
  readonly chunks?: number | undefined;
}

/** The keyword searcher over base (masked) + delta: the one segment itself when nothing is masked. */
export function searcherOf(parts: SnapshotParts): LexicalSearcher {
  const masked: string[] = [];
  const maskedIds: number[] = [];
  const byPath = parts.baseByPath;
  // A loaded base's record i is its segment's document i (restoreState checks the two artifacts
  // agree): masking a 1,000-file checkout's base entries takes their record ranges, with no id
  // decoded and no ref looked up in the segment (at 100k files that read ~8,000 ids and binary-searched
  // the 800k refs for each).
  const table = parts.base?.table;
  const runs = table?.byPath;
  for (const p of parts.touched) {
    if (runs) {
      for (const [a, b] of runs.get(p) ?? []) for (let i = a; i < b; i++) maskedIds.push(i);
      continue;
    }
    const ids = byPath.ids ? byPath.ids(p) : byPath.get(p)?.map((r) => r.id);
    if (ids) for (const id of ids) masked.push(id);
  }
  const segs: { index: LexicalIndex; masked?: string[]; maskedIds?: number[] }[] = [];
  if (parts.base) segs.push({ index: parts.base.lexical, masked, maskedIds });
  if (parts.delta) segs.push({ index: parts.delta.lexical });
  if (segs.length === 1 && masked.length === 0 && maskedIds.length === 0) return segs[0]!.index;
  return new SegmentedLexical(segs, { disjoint: runs !== undefined && onlyTouched(parts) });
}

/**
 * True when the base was masked by whole files and a loaded delta holds only touched files: a chunk
 * id is `path#line`, so no delta chunk can be live in the base (what SegmentedLexical would otherwise
 * check by looking every delta chunk up in the base's refs).
 */
function onlyTouched(parts: SnapshotParts): boolean {
  const runs = parts.delta?.table?.byPath;
  if (!parts.delta) return true;
  if (!runs) return false;
  let only = true;
  runs.forEach((_ranges, p) => {
    if (!parts.touched.has(p)) only = false;
  });
  return only;
}

/** How a snapshot was made: `loaded` from disk or `built` now, why, and how long it took. */
export interface SnapshotOrigin {
  readonly source: 'loaded' | 'built';
  /** Why it was built (kept on `built` snapshots only), e.g. `empty`, `update`. */
  readonly reason: string;
  /** Milliseconds the load or build took. */
  readonly ms: number;
}

/**
 * A snapshot over `lexical` and `chunks`; without a manifest (nothing loaded or saved yet), an empty
 * one with `fingerprint`.
 */
export function makeSnapshot(
  lexical: LexicalSearcher,
  chunks: ChunkTable,
  manifest: IndexManifest | undefined,
  fingerprint: string,
  { source, reason, ms }: SnapshotOrigin,
): IndexSnapshot {
  const m: IndexManifest = manifest ?? {
    formatVersion: INDEX_FORMAT_VERSION,
    lunrVersion: '',
    createdAt: new Date(0).toISOString(),
    fingerprint,
    docs: {},
    artifacts: {},
    chunkCount: 0,
  };
  return withVectorKeys({ lexical, chunks, manifest: m, source, ...(source === 'built' ? { reason } : {}), ms });
}

/** The snapshot before anything is loaded or built: no chunks, `built` for the reason `empty`. */
export function emptySnapshot(fingerprint: string): IndexSnapshot {
  return makeSnapshot(new SegmentedLexical([]), new ChunkTable(new Map(), []), undefined, fingerprint, {
    source: 'built',
    reason: 'empty',
    ms: 0,
  });
}

/**
 * The chunk table of a snapshot, over files that later updates do not change: loaded files read as
 * they are (no state per file made), else the immutable view the file set gives.
 */
export function chunkTableOf(parts: SnapshotParts): ChunkTable {
  const files = parts.files;
  if (files instanceof LoadedFiles) return new ChunkTable(files, () => files.all().sorted, files.chunkCount);
  return new ChunkTable(files, parts.sorted ?? [], parts.chunks);
}
