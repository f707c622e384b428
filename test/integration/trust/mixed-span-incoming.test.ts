// Bad input R173 (docs/bad-inputs.md): one recalled span can hold lines from several commits, e.g. a
// daily note that a sync merged line by line. Its provenance names the newest commit, and the review
// state was taken from that commit alone: a teammate's incoming line beside a newer line of one's own
// read `reviewed` and `hook prompt` injected it. A span with any incoming line is `incoming`. Real
// git: two clones of a bare remote (test/support/sync-clones.ts), the CLI as users run it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { okOutput, runCli } from '../../support/fixtures.js';
import { useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();
const cli = (dir: string, ...args: string[]) => okOutput(runCli([...args, '--json', '--dir', dir]));

describe('a span with an incoming line is incoming (R173)', { timeout: 240_000 }, () => {
  it("Ann's line merged into Ben's daily note is withheld from Ben's prompt hook", () => {
    const { a, b } = setup();
    cli(a, 'append', 'zqannline the webhook queue drains hourly');
    cli(a, 'sync');
    cli(b, 'append', 'zqbenline the webhook queue has two workers');
    // Ben's own line is the newest in the note (a later author date than Ann's commit).
    const later = {
      ...process.env,
      GIT_AUTHOR_DATE: '2030-01-01T10:00:00Z',
      GIT_COMMITTER_DATE: '2030-01-01T10:00:00Z',
    };
    for (const args of [
      ['add', 'memory'],
      ['commit', '-q', '-m', 'ben: daily'],
    ]) {
      const c = spawnSync('git', args, { cwd: b, encoding: 'utf8', env: later });
      expect(c.status, c.stderr + c.stdout).toBe(0);
    }
    cli(b, 'sync');

    const hit = cli(b, 'recall', 'zqannline', '--mode', 'keyword', '--limit', '1').results[0];
    expect(hit.path).toMatch(/^memory\/\d{4}-\d{2}-\d{2}\.md$/);
    expect(hit.review).toBe('incoming');
    const block = cli(b, 'hook', 'prompt', '--prompt', 'zqannline webhook queue').block as string;
    expect(block).not.toContain('zqannline');
    expect(block).toContain('withheld');
  });
});
