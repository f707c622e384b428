// The shapes the live keyword index (engine/live/live-index.ts) takes and returns: one file's indexed
// state, the report of one update, and the options the index is built with.
// deps: core (ports), indexes (types), engine (index-manager, segment-builder types).
import type { IndexStorage, Logger } from '../../core/ports.js';
import type { ChunkRecord, IndexSnapshot } from '../chunks/index-manager.js';
import type { SegmentBuilder } from '../segments/segment-builder.js';

/** The current state of one memory file as indexed. */
export interface FileState {
  /** contentHash of the text, or a `size:`/`binary:` marker for skipped files. */
  readonly hash: string;
  /** Chunk records (empty for skipped files and files without chunks). */
  readonly records: readonly ChunkRecord[];
  /** Stat key when the hash was taken (see MemoryFs.stat); absent = re-read on the next walk. */
  readonly stat?: string;
}

/** What one update did. */
export interface UpdateReport {
  readonly upserted: readonly string[];
  readonly removed: readonly string[];
  /** Live chunks after the update. */
  readonly chunks: number;
  /** Chunks in the delta segment (compaction starts past {@link LiveIndexOptions.compactAt}). */
  readonly delta: number;
  readonly ms: number;
  /** False when the index could not be saved (lock held elsewhere, or a write failed). */
  readonly persisted: boolean;
}

export interface LiveIndexOptions {
  readonly storage: IndexStorage;
  readonly fingerprint: string;
  readonly logger: Logger;
  readonly builder: SegmentBuilder;
  /** Compact when the delta holds more chunks than this. Default 2000. */
  readonly compactAt?: number;
  /** Deltas with more chunks than this are built in the worker. Default 400. */
  readonly offThreadAt?: number;
  /** Chunks per run of a streamed full build on disk (engine/spill-build.ts). Default RUN_DOCS (16,384). */
  readonly runDocs?: number;
  /** How long a one-shot save waits for another writer's lock before giving up (ms). Default 250. */
  readonly lockWaitMs?: number;
  /** Called after every state change (update, compaction, rebuild, load). */
  readonly onSnapshot?: (snap: IndexSnapshot, reason: 'load' | 'update' | 'compaction' | 'rebuild') => void;
}
