// Issue 46 (twenty clones on one remote): a sync round pushes its merge before the work tree moves to
// it, so the window in which another clone's push wins is fetch → merge → push, not also the work-tree
// update; the branch and the work tree move once, after the push. Bad input R160 (docs/bad-inputs.md):
// a file the incoming commits touch is edited while the sync pushes. The push has then sent the
// memory, and git refuses to overwrite the edit: the sync must say both (exit 4, `data.pushed`), not
// report success nor leave the edit half-applied. A real pre-receive hook in the bare remote looks at
// Ann's work tree at the moment of her push.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, okOutput, runCli, write } from '../../support/fixtures.js';
import { sync, useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();

/** A pre-receive hook running `script` (sh) in the remote on each push. */
function preReceive(remote: string, script: string): void {
  write(remote, 'hooks/pre-receive', `#!/bin/sh\n${script}\nexit 0\n`);
  chmodSync(join(remote, 'hooks', 'pre-receive'), 0o755);
}

describe('gitmem sync: the merge is pushed before the work tree moves', { timeout: 240_000 }, () => {
  it("pushes the merge while the work tree still lacks Ben's note, then brings it in", () => {
    const { remote, a, b } = setup();
    okOutput(runCli(['remember', "Ben's note: the cache key is per tenant", '--type', 'learning', '--dir', b]));
    okOutput(sync(b));
    okOutput(runCli(['append', "Ann's own line", '--dir', a]));
    const seen = join(remote, 'seen.log');
    // At Ann's push: how many of her work tree's entries hold Ben's note (0 when the push comes first).
    preReceive(remote, `grep -rl "per tenant" "${a}/memory" | wc -l > "${seen}"`);
    const r = okOutput(sync(a));
    expect(r.strategy).toBe('merge');
    expect(r.pushed).toBe(true);
    expect(readFileSync(seen, 'utf8').trim()).toBe('0');
    expect(git(a, 'grep', '-l', 'per tenant', 'HEAD', '--', 'memory').trim()).not.toBe('');
    expect(git(a, 'status', '--porcelain')).toBe('');
    expect(git(remote, 'rev-parse', 'main').trim()).toBe(git(a, 'rev-parse', 'HEAD').trim());
  });

  it('R160: a file the incoming commits touch, edited during the push: exit 4 that says the push went through', () => {
    const { remote, a, b } = setup();
    write(b, 'notes/plan.txt', 'plan from Ben\n');
    git(b, 'add', 'notes/plan.txt');
    git(b, '-c', 'user.name=Ben', '-c', 'user.email=ben@example.com', 'commit', '-q', '-m', 'plan');
    okOutput(runCli(['append', 'Ben wrote a plan', '--dir', b]));
    okOutput(sync(b));
    okOutput(runCli(['append', "Ann's line sent anyway", '--dir', a]));
    // Ann starts editing the file Ben's commit brings, while her sync pushes.
    preReceive(remote, `mkdir -p "${a}/notes" && echo "Ann's draft" > "${a}/notes/plan.txt"`);
    const r = sync(a);
    expect(r.code, r.stderr).toBe(4);
    const e = r.json().error;
    expect(e.code).toBe('git.dirty');
    expect(e.data.pushed).toBe(true);
    expect(e.message).toMatch(/^sync pushed [0-9a-f]{7}, but git refused/);
    // The remote has Ann's memory; her draft is untouched; her branch did not move half-way.
    expect(git(remote, 'log', '--format=%s', 'main')).toMatch(/sync merge/);
    expect(git(remote, 'grep', '-l', 'sent anyway', 'main', '--', 'memory').trim()).not.toBe('');
    expect(readFileSync(join(a, 'notes', 'plan.txt'), 'utf8')).toBe("Ann's draft\n");
    expect(git(a, 'rev-parse', 'HEAD').trim()).not.toBe(git(remote, 'rev-parse', 'main').trim());
  });
});
