// The delta segment of the live keyword index (engine/live-index.ts): building it after an update
// or a compaction. With the changed paths of an update, only those files are tokenised: their new
// records form a small segment merged, at the data level, with the previous delta minus their old
// entries, so a save costs the same whatever the delta's size. Without them, the delta is rebuilt
// from the records of every touched path.
// deps: indexes (lexical), engine (chunk-table, chunk-codec, live-index-store, live-index-types, segment-builder).
import { LexicalIndex } from '../indexes/lexical.js';
import { byPath } from './chunk-table.js';
import { encodeChunkRecords } from './chunk-codec.js';
import { info, partOf, type Part } from './live-index-store.js';
import type { FileState } from './live-index-types.js';
import type { SegmentBuilder } from './segment-builder.js';

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
    const added = await builder.build(fresh, { offThread: fresh.length > offThreadAt });
    const lexical = LexicalIndex.merge([
      { index: old.lexical, drop: old.records.filter((r) => changed.has(r.path)).map((r) => r.id) },
      { index: added.lexical },
    ]);
    const lex = lexical.toBinary();
    const chunks = encodeChunkRecords(records);
    return partOf(
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
  const paths = [...src.touched].filter((p) => files.has(p)).sort(byPath);
  const records = paths.flatMap((p) => files.get(p)!.records);
  if (records.length === 0) return undefined;
  const built = await builder.build(records, { offThread: records.length > offThreadAt, chunks: true });
  return partOf('delta', built, records);
}
