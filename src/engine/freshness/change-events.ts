// The MemoryChangeEvent of each kind IndexFreshness (engine/freshness/freshness.ts) fires: an update's
// (a watcher batch, a reconcile, a rebuild), a compaction's (the delta folded into the base, no file
// changed) and the background vector catch-up's. Pure. deps: engine (freshness-types, index-manager,
// live-index, vector-catchup types).
import type { MemoryChangeEvent } from './freshness-types.js';
import type { IndexSnapshot } from '../chunks/index-manager.js';
import type { UpdateReport } from '../live/live-index.js';
import type { VectorCatchUpReport } from '../vectors/vector-catchup.js';

/** The event of an update: what it re-indexed and removed, what failed, and the vectors still pending. */
export function updateEvent(
  reason: MemoryChangeEvent['reason'],
  update: UpdateReport,
  failed: MemoryChangeEvent['failed'],
  keywordMs: number,
  vectorsPending: number,
): MemoryChangeEvent {
  return {
    reason,
    upserted: update.upserted,
    removed: update.removed,
    failed,
    chunks: update.chunks,
    delta: update.delta,
    keywordMs,
    vectorMs: null,
    embedded: 0,
    vectorsPending,
    persisted: update.persisted,
  };
}

/** The event of a compaction that published `snap`, with `delta` chunks left in the delta. */
export function compactionEvent(snap: IndexSnapshot, delta: number): MemoryChangeEvent {
  return {
    reason: 'compaction',
    upserted: [],
    removed: [],
    failed: [],
    chunks: snap.chunks.size,
    delta,
    keywordMs: snap.ms,
    vectorMs: null,
    embedded: 0,
    vectorsPending: 0,
    persisted: true,
  };
}

/** The event of a finished vector catch-up `r`; `persisted`: the keyword index is saved. */
export function vectorsEvent(r: VectorCatchUpReport, delta: number, persisted: boolean): MemoryChangeEvent {
  return {
    reason: 'vectors',
    upserted: [],
    removed: [],
    failed: [],
    chunks: r.snap.chunks.size,
    delta,
    keywordMs: 0,
    vectorMs: r.vectorMs,
    embedded: r.embedded,
    vectorsPending: r.pending,
    vectors: r.vectors,
    persisted,
  };
}
