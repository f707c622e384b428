// The state-set use case: apply an update to CURRENT_STATE.md's fields, bump `Last updated` and
// replace the file atomically (with `ifChanged`, only on a substantive change; with `verify`, read
// back after writing, for pre-compaction). Optionally checkpoint-commits what it wrote.
// deps: core, continuity, service/state/state-file.ts.
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import type { RelPath } from '../../core/paths.js';
import { checkWriteSize, MAX_STATE_FIELD_CHARS } from '../../core/write-limits.js';
import { applyStateUpdate, changedFields, renderState, type StateUpdate } from '../../continuity/render-state.js';
import type { StateField } from '../../continuity/sections.js';
import type { StateSnapshot } from '../../continuity/snapshot.js';
import type { CheckpointResult } from '../git-ops/checkpoint.js';
import { refuseStateInput, stateWarnings } from './set-checks.js';
import type { StateFile, WriteOptions } from './state-file.js';
import { trustedSnapshot } from './trusted.js';

export interface StateSetResult {
  readonly path: RelPath;
  /** Hash of the file after the call (pass it as `expectedHash` next time). */
  readonly hash: string;
  /** False when nothing was written (post-turn / end-of-run without a substantive change). */
  readonly written: boolean;
  /** Fields whose values changed. */
  readonly changed: readonly StateField[];
  /** The state as an agent is shown it after the call (trusted.ts: flagged lines withheld, secrets masked). */
  readonly snapshot: StateSnapshot;
  readonly checkpoint?: CheckpointResult;
  /** One line when the update's lines read as instructions to an agent (written, withheld from agents). */
  readonly warnings?: readonly string[];
}

export async function setState(
  file: StateFile,
  update: StateUpdate,
  options: WriteOptions & { ifChanged?: boolean; verify?: boolean } = {},
): Promise<StateSetResult> {
  const { path, clock, exclusive, read, check, readText, writeChecked, commit, stamp } = file;
  // The one cap of every write path (U62): each field and list item, before anything is read or written.
  for (const f of ['objective', 'step', 'next'] as const) {
    const v = update[f];
    if (v !== undefined) checkWriteSize(f, v, MAX_STATE_FIELD_CHARS);
  }
  for (const [list, item] of [
    ['decisions', 'decision'],
    ['blockers', 'blocker'],
    ['results', 'result'],
  ] as const)
    for (const v of update[list] ?? []) checkWriteSize(item, v, MAX_STATE_FIELD_CHARS);
  // The input guard every write path runs (core/write-guard.ts), by field name (R61).
  refuseStateInput(update);
  const written = await exclusive(async () => {
    const cur = await read();
    check(cur, options);
    const fields = applyStateUpdate(cur.parsed.fields, update);
    const changed = changedFields(cur.parsed.fields, fields);
    if (options.ifChanged && changed.length === 0 && cur.exists) {
      return { path, hash: cur.hash!, written: false, changed };
    }
    const text = renderState(cur.parsed, fields, stamp(clock.now()));
    const hash = await writeChecked(path, text, cur.hash);
    if (options.verify) {
      // Durability for pre-compaction: what is on disk now is what we wrote.
      const back = await readText(path);
      if (back === undefined || contentHash(back) !== hash) {
        throw new MemoryError('fs.write-failed', `${path} did not read back as written`, { data: { path } });
      }
    }
    return { path, hash, written: true, changed };
  });
  // What the answer hands back is what an agent may be shown (R61): the state through the trust
  // stage, as `state snapshot` gives it, never the written text as it stands.
  const { hash: _h, withheld: _w, ...snapshot } = await trustedSnapshot(file);
  const warnings = stateWarnings(update);
  const result = { ...written, snapshot, ...(warnings.length ? { warnings } : {}) };
  const cp = result.written
    ? await commit(options, `state: ${result.changed.length ? `update ${result.changed.join(', ')}` : 'touch'}`)
    : undefined;
  return cp ? { ...result, checkpoint: cp } : result;
}
