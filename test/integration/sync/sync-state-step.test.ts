// Bad input G13 (docs/bad-inputs.md): one value of the working state set two ways. Ann and Ben each
// move CURRENT_STATE.md's Current Step on (`gitmem state set --step`); the merge driver treated the
// replaced line as a placeholder and kept both, so after the sync the state had two current steps and
// `state validate` said nothing. Real git: a bare remote and two clones with gitmem's merge rules and
// driver (test/support/sync-clones.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const syncClones = useSyncClones();

const STATE = 'memory/CURRENT_STATE.md';
const read = (dir: string) => readFileSync(join(dir, STATE), 'utf8');
const state = (dir: string, ...args: string[]) => ok(runCli(['state', 'set', ...args, '--dir', dir]));

/** Both clones share a state with an objective and a step. */
function shared(): { a: string; b: string } {
  const c = syncClones();
  state(c.a, '--objective', 'Ship the job queue', '--step', 'design the schema');
  ok(sync(c.a));
  ok(sync(c.b));
  return c;
}

describe('a working-state value set two ways in two clones (G13)', { timeout: 240_000 }, () => {
  it('is a conflict (exit 5) naming CURRENT_STATE.md, not two current steps', () => {
    const { a, b } = shared();
    state(a, '--step', 'write the migration');
    state(b, '--step', 'write the worker');
    ok(sync(a));
    const head = git(b, 'rev-parse', 'HEAD');
    const r = sync(b);
    expect(r.code, r.stdout).toBe(5);
    expect(r.json().error.code).toBe('git.conflict');
    expect(r.json().error.data.files).toEqual([STATE]);
    // Nothing changed but the checkpoint of Ben's state.
    expect(git(b, 'rev-parse', 'HEAD~1')).toBe(head);
    expect(read(b)).toContain('write the worker');
    expect(read(b)).not.toContain('write the migration');
    expect(git(b, 'status', '--porcelain')).toBe('');
  });

  it('decisions and blockers added in both clones still merge, each once', () => {
    const { a, b } = shared();
    state(a, '--decision', 'Postgres advisory locks');
    state(b, '--decision', 'Exponential backoff', '--blocker', 'CI is red');
    ok(sync(a));
    ok(sync(b));
    ok(sync(a));
    for (const dir of [a, b]) {
      const text = read(dir);
      expect(text).toContain('- Postgres advisory locks');
      expect(text).toContain('- Exponential backoff');
      expect(text).toContain('- CI is red');
      expect(text.match(/design the schema/g)).toHaveLength(1);
      ok(runCli(['state', 'validate', '--dir', dir]));
    }
  });
});
