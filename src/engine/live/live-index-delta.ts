// The delta segment of the live keyword index (engine/live/live-index.ts): building it after an update
// or a compaction. With the changed paths of an update, only those files are tokenised: their new
// records form a small segment merged, at the data level, with the previous delta minus their old
// entries, so a save costs the same whatever the delta's size. Without them, the delta is rebuilt
// from the records of every touched path.
// deps: indexes (lexical), engine (chunk-table, chunk-codec, live-index-store, live-index-types, segment-builder).
import { LexicalIndex } from '../../indexes/lexical/lexical.js';
import { fieldValues } from '../../indexes/lexical/lexical-analysis.js';
import { lexicalDoc, type ChunkRecord } from '../chunks/index-manager.js';
import { byPath } from './chunk-table.js';
import { encodeChunkRecords } from '../chunks/chunk-codec.js';
import { info, partOf, type Part } from './live-index-store.js';
import type { FileState } from './live-index-types.js';
import type { SegmentBuilder } from '../segments/segment-builder.js';

/** What a delta is built from: the previous delta, every file now, and the paths touched since the base. */
export interface DeltaSource {
  readonly old: Part | undefined;
  readonly files: ReadonlyMap<string, FileState>;
  readonly touched: ReadonlySet<string>;
  readonly builder: SegmentBuilder;
  /** Segments with more chunks than this are built in the worker. */
  readonly offThreadAt: number;
}

/**
 * Build the new delta part. @param changed the paths of an update (merged into `old`); absent =
 * rebuild from every touched path. @returns undefined when the delta holds no record.
 */
export async function buildDelta(src: DeltaSource, changed?: ReadonlySet<string>): Promise<Part | undefined> {
  const { old, files, builder, offThreadAt } = src;
  if (changed && old) {
    const kept = old.records.filter((r) => !changed.has(r.path));
    const fresh = [...changed]
      .filter((p) => files.has(p))
      .sort(byPath)
      .flatMap((p) => files.get(p)!.records);
    const records = [...kept, ...fresh];
    if (records.length === 0) return undefined;
    // Chunks of a changed file that the old delta holds with the same id and the same keyword fields
    // stay in it; only the others are dropped and built (an edit of one line of a file already in
    // the delta builds one chunk, not the file: B46).
    const { drop, add } = chunkChanges(
      old.records.filter((r) => changed.has(r.path)),
      fresh,
    );
    const added = await builder.build(add, { offThread: add.length > offThreadAt, reuse: true });
    // In the order of `records` (the chunk-record artifact is read back against the segment's order).
    const lexical = LexicalIndex.merge(
      [{ index: old.lexical, drop }, { index: added.lexical }],
      records.map((r) => r.id),
    );
    return lazyDelta(lexical, records);
  }
  const paths = [...src.touched].filter((p) => files.has(p)).sort(byPath);
  const records = paths.flatMap((p) => files.get(p)!.records);
  if (records.length === 0) return undefined;
  // An update's first delta since the base (reuse: the next edit of these files finds their chunks' analyses).
  const built = await builder.build(records, {
    offThread: records.length > offThreadAt,
    chunks: true,
    reuse: changed !== undefined,
  });
  return partOf('delta', built, records);
}

/**
 * The delta part of an update, encoded (segment bytes, chunk records, their checksums and names)
 * only when a save reads it: a language server saves after a quiet period, not after every edit of
 * an open buffer, so an edit between two saves no longer encodes 12,000 chunks (B47).
 */
function lazyDelta(lexical: LexicalIndex, records: readonly ChunkRecord[]): Part {
  let encoded: Part | undefined;
  let saved = false;
  const enc = (): Part => {
    if (!encoded) {
      const lex = lexical.toBinary();
      const chunks = encodeChunkRecords(records);
      encoded = partOf(
        'delta',
        {
          lexical,
          lexBytes: lex,
          lexInfo: info(lex),
          chunksBytes: chunks,
          chunksInfo: info(chunks),
          where: 'inline',
          ms: 0,
        },
        records,
      );
    }
    return encoded;
  };
  return {
    lexical,
    records,
    get lexName() {
      return enc().lexName;
    },
    get chunksName() {
      return enc().chunksName;
    },
    get lexInfo() {
      return enc().lexInfo;
    },
    get chunksInfo() {
      return enc().chunksInfo;
    },
    get unsaved() {
      return saved ? undefined : enc().unsaved;
    },
    set unsaved(v) {
      // A save clears it (the bytes are written); nothing else sets it.
      saved = v === undefined;
      if (saved && encoded) encoded.unsaved = undefined;
    },
  };
}

/** Same keyword fields (the ref is the id, compared by the caller). */
function sameLexical(a: ChunkRecord, b: ChunkRecord): boolean {
  if (a.text !== b.text) return false;
  const x = fieldValues(lexicalDoc(a));
  const y = fieldValues(lexicalDoc(b));
  return x.every((v, i) => v === y[i]);
}

/**
 * Between the old records of the changed files and their new ones: the old ids to drop from the
 * keyword segment (gone, or their keyword fields changed) and the new records to add to it. A
 * record kept under its id is equal in every keyword field, so the merged segment searches exactly
 * as one built from all the new records.
 */
export function chunkChanges(
  before: readonly ChunkRecord[],
  after: readonly ChunkRecord[],
): { drop: string[]; add: ChunkRecord[] } {
  const old = new Map(before.map((r) => [r.id, r]));
  const same = new Set<string>();
  const add: ChunkRecord[] = [];
  for (const r of after) {
    const o = old.get(r.id);
    if (o && sameLexical(o, r)) same.add(r.id);
    else add.push(r);
  }
  const drop = before.filter((r) => !same.has(r.id)).map((r) => r.id);
  return { drop, add };
}
