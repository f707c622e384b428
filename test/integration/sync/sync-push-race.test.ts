// Bad input R120 (docs/bad-inputs.md): `gitmem sync` against a remote whose ref lock another clone's
// push holds (issue 46: twenty clones on one remote). A real pre-receive hook in the bare remote
// refuses the first pushes the way git does when two pushes race for `refs/heads/main` ("cannot lock
// ref"), and logs the time of each refusal; the sync must fetch, merge and push again after a wait
// that grows each round, and give up with exit 6 only after its last round. Also: the upstream a
// branch names (not `origin`) is the one synced.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, okOutput, runCli, write } from '../../support/fixtures.js';
import { sync, useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();

/** A pre-receive hook that refuses the first `n` pushes as a lost ref-lock race, logging each refusal's time (ns). */
function lockHeldFor(remote: string, n: number): string {
  const log = join(remote, 'refusals.log');
  write(
    remote,
    'hooks/pre-receive',
    [
      '#!/bin/sh',
      `count=$(wc -l < "${log}" 2>/dev/null || echo 0)`,
      `if [ "$count" -lt ${n} ]; then`,
      `  date +%s%N >> "${log}"`,
      `  echo "error: cannot lock ref 'refs/heads/main': is at 0000 but expected 1111" >&2`,
      '  exit 1',
      'fi',
      'exit 0',
      '',
    ].join('\n'),
  );
  chmodSync(join(remote, 'hooks', 'pre-receive'), 0o755);
  return log;
}

describe('gitmem sync: pushes that lose the race for the remote ref', { timeout: 240_000 }, () => {
  it('retries after growing waits and sends the memory on the fourth round', () => {
    const { remote, a } = setup();
    const log = lockHeldFor(remote, 3);
    okOutput(runCli(['append', 'sent after three lost races', '--dir', a]));
    const r = okOutput(sync(a));
    expect(r.pushed).toBe(true);
    expect(r.attempts).toBe(4);
    expect(git(remote, 'log', '-1', '--format=%H', 'main').trim()).toBe(git(a, 'rev-parse', 'HEAD').trim());
    // Each wait is at least half its ceiling: 50, 100 and 200 ms after the first, second and third loss.
    const at = readFileSync(log, 'utf8').trim().split('\n').map(Number);
    expect(at).toHaveLength(3);
    expect((at[1]! - at[0]!) / 1e6).toBeGreaterThanOrEqual(50);
    expect((at[2]! - at[1]!) / 1e6).toBeGreaterThanOrEqual(100);
  });

  it('gives up with exit 6 after its last round; the memory stays committed locally', () => {
    const { remote, a } = setup();
    lockHeldFor(remote, 100);
    okOutput(runCli(['append', 'kept local while the remote is busy', '--dir', a]));
    const r = sync(a);
    expect(r.code, r.stderr).toBe(6);
    expect(r.json().error.code).toBe('git.push-rejected');
    expect(r.json().error.data.attempts).toBe(6);
    expect(readFileSync(join(remote, 'refusals.log'), 'utf8').trim().split('\n')).toHaveLength(6);
    expect(git(a, 'log', '-1', '--format=%s')).toMatch(/^memory:/);
    expect(git(a, 'status', '--porcelain')).toBe('');
  });

  it("syncs with the remote the branch's upstream names, not origin", () => {
    const { remote, a, b } = setup();
    // Ann's branch tracks `team` (the same bare remote); `origin` points nowhere useful.
    git(a, 'remote', 'rename', 'origin', 'team');
    git(a, 'remote', 'add', 'origin', join(remote, 'missing.git'));
    git(a, 'config', 'branch.main.remote', 'team');
    okOutput(runCli(['append', 'sent through team', '--dir', a]));
    const r = okOutput(sync(a));
    expect(r.remote).toBe('team');
    expect(r.pushed).toBe(true);
    const rb = okOutput(sync(b));
    expect(rb.commitsIn.length).toBeGreaterThan(0);
  });
});
