// When a long embedding run (engine/vectors/semantic.ts SemanticIndex.sync) saves the vectors it has so far:
// a checkpoint between groups, timed by the clock and the last save's cost, and by the share of the
// table embedded since, so a killed run keeps most of its work. Pure. deps: none.

/**
 * Default least interval between vector checkpoints during a long embedding run, in ms. 0: after
 * every group, unless saving would take more than ~1/{@link CHECKPOINT_COST_FACTOR} of the run.
 */
export const CHECKPOINT_MS = 0;
/** A checkpoint waits at least this many times the last save's duration (saving stays ≤ ~5 % of the time). */
const CHECKPOINT_COST_FACTOR = 20;
/**
 * A checkpoint is also due, whatever the last save cost, once the vectors embedded since it are at
 * least this share of the table. A save writes the whole table, so this bounds what saving writes to
 * about 1 / share + 1 times the final table, and it does not depend on the clock: one save slowed by
 * a busy disk (an fsync behind another process's writes) no longer postpones the next checkpoint for
 * twenty times that long (on a loaded CI machine that left a SIGKILL at 192 of 240 with 32 vectors
 * kept instead of 160).
 */
const CHECKPOINT_SHARE = 0.1;
/** A table of at most this many vectors (~6 MB at 384 dimensions) is small enough to save after every group. */
const CHECKPOINT_SMALL = 4096;

/**
 * Whether a checkpoint is due `sinceLastMs` after the last one (or the run's start): `everyMs` has
 * passed and so has {@link CHECKPOINT_COST_FACTOR} times `lastSaveCostMs`; or `everyMs` has passed
 * and the table is small ({@link CHECKPOINT_SMALL}) or the `sinceSave` vectors embedded since are
 * {@link CHECKPOINT_SHARE} of its `tableSize`.
 */
export function checkpointDue(
  sinceLastMs: number,
  everyMs: number,
  lastSaveCostMs: number,
  tableSize: number,
  sinceSave: number,
): boolean {
  return (
    sinceLastMs >= Math.max(everyMs, CHECKPOINT_COST_FACTOR * lastSaveCostMs) ||
    (sinceLastMs >= everyMs && (tableSize <= CHECKPOINT_SMALL || sinceSave >= CHECKPOINT_SHARE * tableSize))
  );
}
