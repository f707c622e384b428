// How the live keyword index is persisted: the parts (segment + chunk records) it is made of, the
// `segments-<sha>.json` file naming them, decoding a verified manifest's artifacts back into the
// in-memory state, and encoding that state into the artifacts and per-file entries of a save.
// Artifacts have content-addressed names and the manifest is written last (indexes/manifest/store.ts).
// deps: core, indexes, engine (chunk-table, index-manager, live-index-types, segment-builder types).
import { MemoryError } from '../../core/errors.js';
import type { RangedFile } from '../../core/ports.js';
import { sha256 } from '../../core/hash.js';
import { LexicalIndex } from '../../indexes/lexical/lexical.js';
import type { ArtifactInfo, IndexManifest } from '../../indexes/manifest/manifest.js';
import { byPath } from './chunk-table.js';
import { decodeChunkRecords, type ChunkRecordTable } from '../chunks/chunk-codec.js';
import type { ChunkRecord } from '../chunks/index-manager.js';
import type { FileState } from './live-index-types.js';
import { countOf, lazyGroups, lazyList, type RecordsByPath } from './lazy-records.js';
import { LoadedFiles } from './loaded-files.js';
import type { BuiltSegment } from '../segments/segment-builder.js';

/** One indexed part: a keyword segment and the chunk records it was built from. */
export interface Part {
  readonly lexical: LexicalIndex;
  readonly records: readonly ChunkRecord[];
  readonly lexName: string;
  readonly chunksName: string;
  /** Checksums (a streamed part's gain its stat key when a save renames its files: live-index-stream.ts adoptStaged). */
  lexInfo: ArtifactInfo;
  chunksInfo: ArtifactInfo;
  /** The decoded artifact of a loaded part (its records decode on demand). */
  readonly table?: ChunkRecordTable;
  /** Bytes not yet written (a part built since the last save). */
  unsaved?: { lex: Uint8Array; chunks: Uint8Array } | undefined;
  /** Artifacts a streamed build wrote to the index folder under temporary names, not yet renamed. */
  staged?: { lex: string; chunks: string } | undefined;
}

/** `segments-<sha>.json`: which artifacts form the index, and which base paths are superseded. */
export interface SegmentsFile {
  readonly version: 1;
  readonly base: { readonly lex: string; readonly chunks: string } | null;
  readonly delta: { readonly lex: string; readonly chunks: string } | null;
  /** Paths changed or deleted since the base was built: their base entries are masked. */
  readonly touched: readonly string[];
}

const SEGMENTS_PREFIX = 'segments-';
/** Name ending of the chunk-record artifacts (`base-<sha>.chunks`, `delta-<sha>.chunks`). */
export const CHUNKS_SUFFIX = '.chunks';
export const utf8 = new TextEncoder();
const decode = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(b);

export function info(bytes: Uint8Array): ArtifactInfo {
  return { sha256: sha256(bytes), bytes: bytes.byteLength };
}

export function partOf(kind: 'base' | 'delta', built: BuiltSegment, records: readonly ChunkRecord[]): Part {
  if (!built.chunksBytes || !built.chunksInfo) throw new MemoryError('internal', 'segment built without its chunks');
  const tag = built.lexInfo.sha256.slice(0, 16);
  return {
    lexical: built.lexical,
    records,
    lexName: `${kind}-${tag}.lex`,
    chunksName: `${kind}-${tag}${CHUNKS_SUFFIX}`,
    lexInfo: built.lexInfo,
    chunksInfo: built.chunksInfo,
    unsaved: { lex: built.lexBytes, chunks: built.chunksBytes },
  };
}

/** The in-memory state a persisted index decodes to. */
export interface RestoredState {
  readonly base: Part | undefined;
  readonly delta: Part | undefined;
  readonly baseByPath: RecordsByPath;
  readonly touched: Set<string>;
  /** The file states, made on demand (their paths in order: `files.all().sorted`). */
  readonly files: LoadedFiles;
}

/**
 * Decode a verified manifest's artifacts (or, for chunk records, the `opened` files) into the live
 * state, cross-checking segments and chunk records; the per-file states (and their chunk-count
 * checks) are made when read (engine/live/loaded-files.ts). @throws MemoryError `index.corrupt` when they disagree.
 */
export function restoreState(
  manifest: IndexManifest,
  artifacts: Readonly<Record<string, Uint8Array>>,
  opened: Readonly<Record<string, RangedFile>> = {},
): RestoredState {
  const segName = Object.keys(manifest.artifacts).find((n) => n.startsWith(SEGMENTS_PREFIX));
  if (!segName) throw new MemoryError('index.corrupt', 'no segments file');
  const seg = JSON.parse(decode(artifacts[segName]!)) as SegmentsFile;
  if (seg.version !== 1 || !Array.isArray(seg.touched)) throw new MemoryError('index.corrupt', 'bad segments file');
  const part = (names: { lex: string; chunks: string } | null): Part | undefined => {
    if (!names) return undefined;
    const lexBytes = artifacts[names.lex];
    const lexFile = opened[names.lex];
    // Chunk records opened for ranged reads (LiveIndex.load): their JSON stays in the file.
    const chunkBytes = artifacts[names.chunks] ?? opened[names.chunks];
    if ((!lexBytes && !lexFile) || !chunkBytes) throw new MemoryError('index.corrupt', 'segment artifact missing');
    // A segment opened from its file reads a query's postings when it reaches them (lexical-codec).
    const lexical = lexFile ? LexicalIndex.fromFile(lexFile) : LexicalIndex.fromBinary(lexBytes!);
    const table = decodeChunkRecords(chunkBytes);
    if (table.size !== lexical.size) throw new MemoryError('index.corrupt', 'chunks do not match the segment');
    // Both artifacts are checksummed and written together; the ends are compared, not every record.
    for (const i of table.size ? [0, table.size - 1] : []) {
      if (table.id(i) !== lexical.refAt(i)) throw new MemoryError('index.corrupt', 'chunks do not match the segment');
    }
    const records = lazyList(table.size, () => table.slice(0, table.size));
    return {
      lexical,
      get records() {
        return records();
      },
      table,
      lexName: names.lex,
      chunksName: names.chunks,
      lexInfo: manifest.artifacts[names.lex]!,
      chunksInfo: manifest.artifacts[names.chunks]!,
    };
  };
  const base = part(seg.base);
  const delta = part(seg.delta);
  const touched = new Set(seg.touched);
  const baseByPath = lazyGroups(base?.table);
  // Paths whose records carry `supersedes` (a column of the artifact: only those records are decoded).
  const superseding = (p: Part | undefined) => new Set(p?.table?.superseding.map((i) => p.table!.record(i).path));
  const supBase = superseding(base);
  const supDelta = superseding(delta);
  // The per-file states are made when read (engine/live/loaded-files.ts): a query reads a few of them.
  const files = new LoadedFiles({
    manifest,
    baseTable: base?.table,
    deltaTable: delta?.table,
    touched,
    supBase,
    supDelta,
  });
  return { base, delta, baseByPath, touched, files };
}

/** What one save writes: new artifacts, their checksums, the artifacts reused, and the per-file docs. */
export interface EncodedState {
  readonly artifacts: Record<string, Uint8Array>;
  readonly checksums: Record<string, ArtifactInfo>;
  readonly reuse: Record<string, ArtifactInfo>;
  readonly docs: Record<string, { contentHash: string; chunkCount: number; stat?: string }>;
  readonly chunkCount: number;
}

/** Encode the live state for a save (unsaved parts as new artifacts, saved ones reused). */
export function encodeState(state: {
  readonly base: Part | undefined;
  readonly delta: Part | undefined;
  readonly touched: ReadonlySet<string>;
  readonly files: ReadonlyMap<string, FileState>;
  readonly sorted: readonly string[];
}): EncodedState {
  const artifacts: Record<string, Uint8Array> = {};
  const checksums: Record<string, ArtifactInfo> = {};
  const reuse: Record<string, ArtifactInfo> = {};
  for (const part of [state.base, state.delta]) {
    if (!part) continue;
    if (part.unsaved) {
      artifacts[part.lexName] = part.unsaved.lex;
      artifacts[part.chunksName] = part.unsaved.chunks;
      checksums[part.lexName] = part.lexInfo;
      checksums[part.chunksName] = part.chunksInfo;
    } else {
      reuse[part.lexName] = part.lexInfo;
      reuse[part.chunksName] = part.chunksInfo;
    }
  }
  const segments: SegmentsFile = {
    version: 1,
    base: state.base ? { lex: state.base.lexName, chunks: state.base.chunksName } : null,
    delta: state.delta ? { lex: state.delta.lexName, chunks: state.delta.chunksName } : null,
    touched: [...state.touched].sort(byPath),
  };
  const segBytes = utf8.encode(JSON.stringify(segments));
  artifacts[`${SEGMENTS_PREFIX}${sha256(segBytes).slice(0, 16)}.json`] = segBytes;
  const docs: Record<string, { contentHash: string; chunkCount: number; stat?: string }> = {};
  let chunkCount = 0;
  for (const p of state.sorted) {
    const f = state.files.get(p)!;
    docs[p] = { contentHash: f.hash, chunkCount: countOf(f), ...(f.stat ? { stat: f.stat } : {}) };
    chunkCount += countOf(f);
  }
  return { artifacts, checksums, reuse, docs, chunkCount };
}
