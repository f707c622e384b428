// Applying one update's file changes to the live keyword index's file set (engine/live/live-index.ts):
// each change is classified by indexes/manifest/manifest-diff.ts; the sorted path list is kept in step
// (a full sort per update costs too much at 10k files).
// deps: indexes (manifest-diff), engine (chunk-table, lazy-records, live-index-types).
import { changeOf } from '../../indexes/manifest/manifest-diff.js';
import { lowerBoundPath } from './chunk-table.js';
import { withStat } from './lazy-records.js';
import type { FileState } from './live-index-types.js';

/** What {@link applyChanges} did to the file set. */
export interface AppliedChanges {
  readonly upserted: string[];
  readonly removed: string[];
  /** Upserted and removed paths in the order of `changes`. */
  readonly changed: string[];
  /** True when only a stat key changed for some file (same content: its records are kept). */
  readonly restatted: boolean;
}

/**
 * Apply `changes` (`null` = the file is gone) to `files` and `sorted` in place. Files whose hash
 * equals the indexed one are skipped (our own writes and touch-only saves cause no work).
 */
export function applyChanges(
  files: Map<string, FileState>,
  sorted: string[],
  changes: ReadonlyMap<string, FileState | null>,
): AppliedChanges {
  const upserted: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  let restatted = false;
  for (const [path, next] of changes) {
    const prev = files.get(path);
    const change = changeOf(prev, next);
    if (change === 'same') continue;
    if (change === 'restat') {
      // Same content, new stat key (touched, or no longer racy): record the key, keep the records.
      files.set(path, withStat(prev!, next!.stat));
      restatted = true;
    } else if (change === 'removed') {
      files.delete(path);
      sorted.splice(lowerBoundPath(sorted, path), 1);
      removed.push(path);
      changed.push(path);
    } else {
      if (change === 'added') sorted.splice(lowerBoundPath(sorted, path), 0, path);
      files.set(path, next!);
      upserted.push(path);
      changed.push(path);
    }
  }
  return { upserted, removed, changed, restatted };
}
