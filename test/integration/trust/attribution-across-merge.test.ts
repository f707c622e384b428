// Bad input R170 (docs/bad-inputs.md): a memory file that one clone added reaches the other through
// `gitmem sync`, which merges (a merge commit whose second parent is the author's commit). Line
// attribution must follow the merge to the commit that wrote the lines, as `git blame` does: in the
// merging clone the lines are the remote's (`incoming`, withheld from the prompt hook), in the
// author's clone, after it fast-forwards to that merge, they are its own (`reviewed`). Before, both
// were attributed to the merge commit, so the labels were the wrong way round in both clones. Real
// git: a bare remote and two clones (test/support/sync-clones.ts), the CLI as users run it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { okOutput, runCli } from '../../support/fixtures.js';
import { useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();
const cli = (dir: string, ...args: string[]) => okOutput(runCli([...args, '--json', '--dir', dir]));
const rev = (dir: string, r: string) =>
  spawnSync('git', ['rev-parse', r], { cwd: dir, encoding: 'utf8' }).stdout.trim();
const top = (dir: string, query: string) =>
  cli(dir, 'recall', query, '--mode', 'keyword', '--limit', '1').results[0] as {
    path: string;
    provenance: { commit: string };
    review: string;
  };

describe('attribution across a sync merge (R170)', { timeout: 240_000 }, () => {
  it("labels the remote's lines incoming in the merging clone and the author's own lines reviewed", () => {
    const { a, b } = setup();
    const ann = cli(a, 'remember', 'zqannx retries stop after eight attempts', '--type', 'decision');
    cli(a, 'sync');
    const annCommit = rev(a, 'HEAD');
    cli(b, 'remember', 'zqbenx caches expire after ten minutes', '--type', 'decision');
    const merged = cli(b, 'sync');
    expect(merged.strategy).not.toBe('fast-forward');
    const merge = rev(b, 'HEAD');
    expect(merge).not.toBe(annCommit);

    // Ben's clone: Ann's entry came in through the merge; its lines are Ann's commit, incoming.
    const inB = top(b, 'zqannx');
    expect(inB.path).toBe(ann.path);
    expect(inB.provenance.commit).toBe(annCommit);
    expect(inB.review).toBe('incoming');
    const hookB = cli(b, 'hook', 'prompt', '--prompt', 'zqannx retries');
    expect(hookB.block).not.toContain('zqannx');
    expect(hookB.block).toContain('withheld');

    // Ann's clone, fast-forwarded to Ben's merge: her own entry is hers, reviewed, and injected.
    cli(a, 'sync');
    expect(rev(a, 'HEAD')).toBe(merge);
    const inA = top(a, 'zqannx');
    expect(inA.provenance.commit).toBe(annCommit);
    expect(inA.review).toBe('reviewed');
    expect(cli(a, 'hook', 'prompt', '--prompt', 'zqannx retries').block).toContain('zqannx');
  });
});
