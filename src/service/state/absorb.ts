// The state-absorb use case: append a child agent's Unsurfaced Results (its CURRENT_STATE.md text) to
// this state, leaving every other field as it is; results already present are reported as
// duplicates. Optionally checkpoint-commits what it wrote.
// deps: core, continuity, service/state/state-file.ts.
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { absorbResults } from '../../continuity/handoff.js';
import { parseState } from '../../continuity/parse-state.js';
import { renderState } from '../../continuity/render-state.js';
import type { StateField } from '../../continuity/sections.js';
import type { StateSetResult } from './set.js';
import type { StateFile, WriteOptions } from './state-file.js';

export interface StateAbsorbResult extends StateSetResult {
  readonly added: readonly string[];
  readonly duplicates: readonly string[];
}

export async function absorbState(
  file: StateFile,
  childText: string,
  options: WriteOptions = {},
): Promise<StateAbsorbResult> {
  const { path, clock, exclusive, read, check, writeChecked, commit, snapshotOf, stamp } = file;
  const child = parseState(childText);
  if (!child.sections.some((s) => s.known === 'Unsurfaced Results')) {
    throw new MemoryError('usage', 'the child state has no "## Unsurfaced Results" section; nothing to absorb', {
      hint: "pass the child agent's CURRENT_STATE.md",
    });
  }
  let added: string[] = [];
  let duplicates: string[] = [];
  const res = await exclusive(async () => {
    const cur = await read();
    check(cur, options);
    const r = absorbResults(cur.parsed.fields, child.fields);
    added = r.added;
    duplicates = r.duplicates;
    if (added.length === 0)
      return {
        path,
        hash: cur.hash ?? contentHash(''),
        written: false,
        changed: [],
        snapshot: snapshotOf(cur.parsed),
      };
    const text = renderState(cur.parsed, r.fields, stamp(clock.now()));
    const hash = await writeChecked(path, text, cur.hash);
    return {
      path,
      hash,
      written: true,
      changed: ['results'] as StateField[],
      snapshot: snapshotOf(parseState(text)),
    };
  });
  const cp = res.written
    ? await commit(options, `state: absorb ${added.length} result(s) from a sub-agent`)
    : undefined;
  return { ...res, ...(cp ? { checkpoint: cp } : {}), added, duplicates };
}
