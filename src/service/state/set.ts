// The state-set use case: apply an update to CURRENT_STATE.md's fields, bump `Last updated` and
// replace the file atomically (with `ifChanged`, only on a substantive change; with `verify`, read
// back after writing, for pre-compaction). Optionally checkpoint-commits what it wrote.
// deps: core, continuity, service/state/state-file.ts.
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import type { RelPath } from '../../core/paths.js';
import { checkWriteSize, MAX_STATE_FIELD_CHARS } from '../../core/write-limits.js';
import { parseState } from '../../continuity/parse-state.js';
import { applyStateUpdate, changedFields, renderState, type StateUpdate } from '../../continuity/render-state.js';
import type { StateField } from '../../continuity/sections.js';
import type { StateSnapshot } from '../../continuity/snapshot.js';
import type { CheckpointResult } from '../git-ops/checkpoint.js';
import type { StateFile, WriteOptions } from './state-file.js';

export interface StateSetResult {
  readonly path: RelPath;
  /** Hash of the file after the call (pass it as `expectedHash` next time). */
  readonly hash: string;
  /** False when nothing was written (post-turn / end-of-run without a substantive change). */
  readonly written: boolean;
  /** Fields whose values changed. */
  readonly changed: readonly StateField[];
  readonly snapshot: StateSnapshot;
  readonly checkpoint?: CheckpointResult;
}

export async function setState(
  file: StateFile,
  update: StateUpdate,
  options: WriteOptions & { ifChanged?: boolean; verify?: boolean } = {},
): Promise<StateSetResult> {
  const { path, clock, exclusive, read, check, readText, writeChecked, commit, snapshotOf, stamp } = file;
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
  const result = await exclusive(async () => {
    const cur = await read();
    check(cur, options);
    const fields = applyStateUpdate(cur.parsed.fields, update);
    const changed = changedFields(cur.parsed.fields, fields);
    if (options.ifChanged && changed.length === 0 && cur.exists) {
      return { path, hash: cur.hash!, written: false, changed, snapshot: snapshotOf(cur.parsed) };
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
    return { path, hash, written: true, changed, snapshot: snapshotOf(parseState(text)) };
  });
  const cp = result.written
    ? await commit(options, `state: ${result.changed.length ? `update ${result.changed.join(', ')}` : 'touch'}`)
    : undefined;
  return cp ? { ...result, checkpoint: cp } : result;
}
