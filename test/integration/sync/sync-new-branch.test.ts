// Bad input G12 (docs/bad-inputs.md): a sync from a branch the remote does not have yet (no upstream).
// The push creates the branch; the report's "out" listed every commit of the branch's history, the
// ones the remote already had on main included, so a user checking what was just shared read the
// whole project's history. Also: a detached HEAD is a clear error and leaves the memory uncommitted
// and in place. Real git: a bare remote and two clones (test/support/sync-clones.ts).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const syncClones = useSyncClones();

describe('a sync from a branch the remote does not have (G12)', { timeout: 240_000 }, () => {
  it("reports as sent only the commits the remote lacked; the user's code stays out", () => {
    const c = syncClones();
    const { a, b } = c;
    ok(runCli(['remember', 'Builds run on node 22', '--dir', a]));
    ok(sync(a));
    expect(Number(git(a, 'rev-list', '--count', 'HEAD'))).toBe(2);
    git(a, 'switch', '-q', '-c', 'feature');
    const { id } = ok(runCli(['remember', 'Feature flags live in flags.json', '--json', '--dir', a])).json();
    writeFileSync(join(a, 'app.js'), 'export const version = 2; // unfinished\n');
    const r = ok(sync(a)).json();
    expect(r.strategy).toBe('push-only');
    expect(r.pushed).toBe(true);
    expect(r.remoteBranch).toBe('feature');
    expect(r.commitsOut.map((x: { oid: string }) => x.oid)).toEqual([r.checkpoint.oid]);
    expect(git(c.remote, 'rev-parse', 'refs/heads/feature').trim()).toBe(r.checkpoint.oid);
    expect(git(a, 'diff', '--name-only', 'HEAD~1', 'HEAD').trim()).toBe(`memory/entries/${id}.md`);
    expect(git(a, 'status', '--porcelain').trim()).toBe('M app.js');
    // A second sync has nothing to send.
    expect(ok(sync(a)).json().commitsOut).toEqual([]);
    // Ben can take the branch: the entry is there.
    git(b, 'fetch', '-q', 'origin');
    git(b, 'switch', '-q', 'feature');
    expect(existsSync(join(b, 'memory', 'entries', `${id}.md`))).toBe(true);
  });

  it('a detached HEAD is a clear error; the memory stays in the work tree, uncommitted', () => {
    const { a } = syncClones();
    git(a, 'switch', '-q', '--detach');
    const head = git(a, 'rev-parse', 'HEAD');
    const { id } = ok(runCli(['remember', 'Detached learning', '--json', '--dir', a])).json();
    const r = sync(a);
    expect(r.code).not.toBe(0);
    expect(r.json().error.message).toContain('HEAD is detached');
    expect(r.json().error.hint).toContain('git switch');
    expect(git(a, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(a, 'status', '--porcelain', '--untracked-files=all').trim()).toBe(`?? memory/entries/${id}.md`);
  });
});
