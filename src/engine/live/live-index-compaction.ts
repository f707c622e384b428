// When the live keyword index (engine/live/live-index.ts) folds its delta into a new base, and the records
// a fold builds the base from: every file's, in path order (the order a full build uses). A file
// being edited is not counted towards the threshold (B46).
// deps: engine (index-manager types, lazy-records, live-index-types).
import type { ChunkRecord } from '../chunks/index-manager.js';
import { countOf } from './lazy-records.js';
import type { FileState } from './live-index-types.js';

/** Most files an update may write and still count as editing them ({@link compactionDue}). */
const EDITING_FILES = 4;

/**
 * The delta has passed the threshold, not counting the chunks of the files this update wrote: a
 * file being edited goes back into the delta on its next edit, so folding a big one (a
 * 60,000-line note: 12,000 chunks) into the base after every edit rebuilt the base for nothing
 * (B46). It is folded once other files' changes pass the threshold. Only an update of a few
 * files counts as editing: a bulk change (a checkout, a sync) folds as before.
 */
export function compactionDue(
  deltaSize: number,
  at: number,
  upserted: readonly string[],
  files: ReadonlyMap<string, FileState>,
): boolean {
  if (deltaSize <= at) return false;
  if (upserted.length > EDITING_FILES) return true;
  let editing = 0;
  for (const p of upserted) {
    const f = files.get(p);
    if (f) editing += countOf(f);
  }
  return deltaSize - editing > at;
}

/** A base of at most this many times the threshold is rebuilt inline by a one-shot process. */
const SMALL_BASE_FACTOR = 20;

/**
 * Whether a one-shot process (no background compaction) folds a delta that {@link compactionDue}
 * says is due, before it answers. A fold rebuilds the base from every file's records, reading the
 * whole keyword segment: after a `git checkout` of 1,000 files in a 100,000-file workspace (8,000
 * delta chunks over a 797,000-chunk base) one recall took 944 s and over 5 GB for it. So it folds
 * only when the base is small (≤ 20× the threshold, chunks) or the delta is at least a quarter of
 * the base (the rebuild then costs at most about five delta builds); otherwise the delta is saved
 * as it is and a long-lived host (background compaction) or a later, larger delta folds it. The
 * answers are the same either way (the delta masks the base's copies of the files it holds).
 * @param deltaSize chunks in the delta; @param totalChunks chunks in the index (base + delta).
 */
export function inlineFoldDue(deltaSize: number, totalChunks: number, at: number): boolean {
  const base = Math.max(0, totalChunks - deltaSize);
  return base <= at * SMALL_BASE_FACTOR || deltaSize * 4 >= base;
}

/** Current records of every file, sorted by path (the order a full build uses). */
export function allRecords(
  sorted: readonly string[],
  files: ReadonlyMap<string, FileState>,
): { records: ChunkRecord[]; grouped: Map<string, readonly ChunkRecord[]> } {
  const records: ChunkRecord[] = [];
  const grouped = new Map<string, readonly ChunkRecord[]>();
  for (const p of sorted) {
    const rs = files.get(p)!.records;
    if (rs.length) grouped.set(p, rs);
    for (const r of rs) records.push(r);
  }
  return { records, grouped };
}
