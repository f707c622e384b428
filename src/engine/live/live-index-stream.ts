// A full build that streams (issue 46): the files of the workspace arrive in batches, in path order;
// their chunk records go to the segment builder (segment-builder.ts stream) batch by batch and are
// dropped here, so the build holds neither every file's text nor every record. The base part's
// records then decode from the built chunk-record artifact on demand, as a loaded index's do
// (lazy-records.ts), and the per-file states are lazy too. deps: core (errors), indexes (manifest
// types), engine (chunk-codec, chunk-table, index-manager, lazy-records, live-index-store/types, segment-builder).
import { MemoryError } from '../../core/errors.js';
import { STREAM_PREFIX, type IndexStorage } from '../../core/ports.js';
import { LexicalIndex } from '../../indexes/lexical/lexical.js';
import type { ArtifactInfo } from '../../indexes/manifest/manifest.js';
import { byPath } from './chunk-table.js';
import { decodeChunkRecords, type ChunkRecordTable } from '../chunks/chunk-codec.js';
import type { ChunkRecord } from '../chunks/index-manager.js';
import { LazyFileState, lazyGroups, lazyList, type RecordsByPath } from './lazy-records.js';
import { CHUNKS_SUFFIX, type Part } from './live-index-store.js';
import type { FileState } from './live-index-types.js';
import type { SegmentBuilder, StreamedSegment } from '../segments/segment-builder.js';
import type { SpillTarget } from '../segments/spill-build.js';

/**
 * Hands the files over: calls `add` per batch with each file's chunk records (paths in {@link byPath}
 * order overall), then resolves with the content hash (or skip marker) and stat key of EVERY memory
 * file: those never added (oversized, binary) are indexed with no records.
 */
export type StreamFeed = (
  add: (batch: Iterable<readonly [path: string, records: readonly ChunkRecord[]]>) => Promise<void>,
) => Promise<{ readonly hashes: Readonly<Record<string, string>>; readonly stats?: Readonly<Record<string, string>> }>;

/** The state a streamed build gives: the base part, its lazy per-path groups and the per-file states. */
export interface StreamedBase {
  readonly part: Part;
  readonly baseByPath: RecordsByPath;
  readonly files: Map<string, FileState>;
  readonly sorted: string[];
}

/**
 * A base part from a segment built by a stream (segment-builder.ts stream): its records stay in the
 * chunk-record artifact (bytes, or the file the worker wrote) and decode on demand, as a loaded
 * part's do; the artifacts are unsaved (bytes) or staged under temporary names (files).
 * @returns the part, its decoded table and the paths whose records carry `supersedes`.
 */
async function streamedPart(
  built: StreamedSegment,
  storage: IndexStorage,
): Promise<{ part: Part; table: ChunkRecordTable; superseding: Set<string> }> {
  let lexical: LexicalIndex;
  let table: ChunkRecordTable;
  let lexInfo: ArtifactInfo;
  let chunksInfo: ArtifactInfo;
  let kept: Pick<Part, 'unsaved' | 'staged'>;
  if ('files' in built) {
    const { lex, chunks } = built.files;
    const open = async (name: string) => {
      const f = await storage.openRanged!(name);
      if (!f) throw new MemoryError('internal', `streamed build file ${name} is missing`);
      return f;
    };
    lexical = LexicalIndex.fromFile(await open(lex.name));
    table = decodeChunkRecords(await open(chunks.name));
    lexInfo = { sha256: lex.sha256, bytes: lex.bytes, sample: lex.sample };
    chunksInfo = { sha256: chunks.sha256, bytes: chunks.bytes, sample: chunks.sample };
    kept = { staged: { lex: lex.name, chunks: chunks.name } };
  } else {
    [lexical, table, lexInfo, chunksInfo] = [
      built.lexical,
      decodeChunkRecords(built.chunksBytes),
      built.lexInfo,
      built.chunksInfo,
    ];
    kept = { unsaved: { lex: built.lexBytes, chunks: built.chunksBytes } };
  }
  if (table.size !== lexical.size) throw new MemoryError('internal', 'streamed chunks do not match the segment');
  const tag = lexInfo.sha256.slice(0, 16);
  const records = lazyList(table.size, () => table.slice(0, table.size));
  const part: Part = {
    lexical,
    get records() {
      return records();
    },
    table,
    lexName: `base-${tag}.lex`,
    chunksName: `base-${tag}${CHUNKS_SUFFIX}`,
    lexInfo,
    chunksInfo,
    ...kept,
  };
  return { part, table, superseding: new Set(table.superseding.map((i) => table.record(i).path)) };
}

/**
 * Give a part's staged files (a streamed build's, under temporary names) their artifact names, and
 * their checksums the stat key after the rename (a later load then samples them instead of hashing
 * every byte). Under the writer lock, right before the save that names them.
 * @throws MemoryError `index.write-failed` when a rename fails.
 */
export async function adoptStaged(storage: IndexStorage, part: Part | undefined): Promise<void> {
  const staged = part?.staged;
  if (!part || !staged) return;
  for (const [from, to, key] of [
    [staged.lex, part.lexName, 'lexInfo'],
    [staged.chunks, part.chunksName, 'chunksInfo'],
  ] as const) {
    if (!(await storage.rename!(from, to)))
      throw new MemoryError('index.write-failed', `streamed build file ${from} is missing`);
    const stat = await storage.statKey?.(to);
    const info = part[key];
    part[key] = stat && info.sample ? { ...info, stat } : { sha256: info.sha256, bytes: info.bytes };
  }
  part.staged = undefined;
}

/** Where a streamed build may write its files: the storage's folder, when it can rename and open ranged. */
async function spillTarget(storage: IndexStorage | undefined): Promise<SpillTarget | undefined> {
  if (!storage?.localFolder || !storage.rename || !storage.openRanged) return undefined;
  const tag = Math.random().toString(36).slice(2, 10);
  return { folder: await storage.localFolder(), name: `${STREAM_PREFIX}${process.pid}-${tag}` };
}

/**
 * Build one base segment from the files `feed` gives. @throws MemoryError `internal` when a path comes
 * out of order or twice (the builder is freed either way).
 */
export async function streamBase(
  builder: SegmentBuilder,
  feed: StreamFeed,
  storage?: IndexStorage,
  runDocs?: number,
): Promise<StreamedBase> {
  const spill = await spillTarget(storage);
  const stream = builder.stream(spill ? { spill: { ...spill, ...(runDocs ? { runDocs } : {}) } } : {});
  const counts = new Map<string, number>();
  let last: string | undefined;
  let read: Awaited<ReturnType<StreamFeed>>;
  try {
    read = await feed(async (batch) => {
      const records: ChunkRecord[] = [];
      for (const [path, rs] of batch) {
        if (last !== undefined && byPath(last, path) >= 0)
          throw new MemoryError('internal', `streamed rebuild: ${path} came after ${last}`);
        last = path;
        counts.set(path, rs.length);
        for (const r of rs) records.push(r);
      }
      await stream.add(records);
    });
  } catch (e) {
    stream.abort();
    throw e;
  }
  const { part, table, superseding } = await streamedPart(await stream.finish(), storage!);
  const files = new Map<string, FileState>();
  const sorted = Object.keys(read.hashes).sort(byPath);
  for (const path of sorted) {
    const count = counts.get(path) ?? 0;
    counts.delete(path);
    const ranges = table.byPath.get(path);
    const stat = read.stats?.[path];
    files.set(
      path,
      new LazyFileState(read.hashes[path]!, stat, count, ranges ? { table, ranges } : undefined, superseding.has(path)),
    );
  }
  if (counts.size) throw new MemoryError('internal', `streamed rebuild: ${[...counts.keys()][0]} has no hash`);
  return { part, baseByPath: lazyGroups(table), files, sorted };
}

/** A feed of file states already made (a full read's), in path order. */
export function feedOf(files: ReadonlyMap<string, FileState>): StreamFeed {
  return async (add) => {
    const sorted = [...files.keys()].sort(byPath);
    await add(sorted.map((p) => [p, files.get(p)!.records] as const));
    const hashes: Record<string, string> = {};
    const stats: Record<string, string> = {};
    for (const p of sorted) {
      const f = files.get(p)!;
      hashes[p] = f.hash;
      if (f.stat) stats[p] = f.stat;
    }
    return { hashes, stats };
  };
}
