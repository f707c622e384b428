// Bad inputs G02, G03 (docs/bad-inputs.md). `gitmem sync` with REAL git: a bare remote and two clones. Memory written in one clone arrives in
// the other (merge or fast-forward, re-indexed, recall finds it); a dirty tree, a true conflict and a
// rejected push each stop with their own exit code and lose nothing; no remote and no git binary are
// clear errors.
import { chmodSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, runCli, tempDir, write, okOutput } from '../../support/fixtures.js';
import { sync, useSyncClones } from '../../support/sync-clones.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const read = (root: string, rel: string) => readFileSync(join(root, rel), 'utf8');

/** The two clones and their remote (test/support/sync-clones.ts), removed after the test. */
const setup = useSyncClones();

describe('gitmem sync', { timeout: 240_000 }, () => {
  it('brings memory written in one clone into the other: checkpoint, merge, re-index, push', () => {
    const { a, b } = setup();
    okOutput(runCli(['remember', 'Shipments are stored in PostgreSQL zqpostgresx', '--type', 'decision', '--dir', a]));
    okOutput(runCli(['append', 'ann looked at the webhook retries', '--dir', a]));
    const ra = okOutput(sync(a));
    expect(ra.checkpoint.files).toBe(2);
    expect(ra.pushed).toBe(true);
    expect(ra.commitsOut).toHaveLength(1);

    okOutput(runCli(['remember', 'Jobs run on BullMQ zqbullx', '--type', 'codebase_knowledge', '--dir', b]));
    okOutput(runCli(['append', 'ben paired on the queue', '--dir', b]));
    const rb = okOutput(sync(b));
    expect(rb.strategy).toBe('merge');
    expect(rb.commitsIn.map((c: any) => c.oid)).toEqual([ra.commitsOut[0].oid]);
    expect(rb.commitsOut.map((c: any) => c.summary)).toEqual([
      expect.stringMatching(/^memory:/),
      expect.stringMatching(/^memory: sync merge origin\/main/),
    ]);
    expect(rb.memoryDiff.changes.some((c: any) => c.kind === 'entry' && c.change === 'added')).toBe(true);
    expect(rb.reindexed.upserted).toBeGreaterThan(0);
    // Both daily-note lines survive the union merge, and recall in B finds A's memory.
    const daily = git(b, 'ls-files', 'memory/2*.md').trim();
    expect(read(b, daily)).toMatch(
      /ann looked at the webhook retries[\s\S]*ben paired on the queue|ben paired on the queue[\s\S]*ann looked at the webhook retries/,
    );
    expect(
      runCli(['recall', 'zqpostgresx', '--mode', 'keyword', '--json', '--dir', b]).json().results.length,
    ).toBeGreaterThan(0);

    const ra2 = okOutput(sync(a));
    expect(ra2.strategy).toBe('fast-forward');
    expect(ra2.pushed).toBe(false);
    expect(
      runCli(['recall', 'zqbullx', '--mode', 'keyword', '--json', '--dir', a]).json().results.length,
    ).toBeGreaterThan(0);
    expect(git(a, 'rev-parse', 'HEAD')).toBe(git(b, 'rev-parse', 'HEAD'));
    expect(git(a, 'status', '--porcelain')).toBe('');
    expect(runCli(['validate', '--dir', a]).code).toBe(0);
    // Nothing new on either side: in sync.
    const again = okOutput(sync(b));
    expect([again.strategy, again.commitsIn.length, again.pushed, again.checkpoint]).toEqual([
      'up-to-date',
      0,
      false,
      null,
    ]);
  });

  it("a dirty file the incoming commits touch stops the sync (exit 4); the user's edit and the memory are kept", () => {
    const { a, b } = setup();
    write(a, 'app.js', 'export const version = 2;\n');
    git(a, 'commit', '-qam', 'bump');
    okOutput(sync(a));
    write(b, 'app.js', 'export const version = 3; // my unfinished work\n');
    okOutput(runCli(['append', 'ben notes something', '--dir', b]));
    const head = git(b, 'rev-parse', 'HEAD');
    const r = sync(b);
    expect(r.code, r.stderr).toBe(4);
    expect(r.json().error.code).toBe('git.dirty');
    expect(r.json().error.data.files).toEqual(['app.js']);
    expect(r.stderr).toMatch(/uncommitted changes: app\.js/);
    expect(read(b, 'app.js')).toBe('export const version = 3; // my unfinished work\n');
    // The memory was checkpointed before the stop; only the checkpoint moved HEAD.
    expect(git(b, 'rev-parse', 'HEAD~1')).toBe(head);
    expect(git(b, 'log', '-1', '--format=%s')).toMatch(/^memory:/);
    expect(git(b, 'status', '--porcelain')).toBe(' M app.js\n');
  });

  it('an unrelated dirty file does not block the merge and is left exactly as it was', () => {
    const { a, b } = setup();
    okOutput(runCli(['append', 'ann was here', '--dir', a]));
    okOutput(sync(a));
    write(b, 'app.js', 'export const version = 9; // wip\n');
    write(b, 'scratch.txt', 'untracked notes\n');
    okOutput(runCli(['append', 'ben was here', '--dir', b]));
    const r = okOutput(sync(b));
    expect(r.strategy).toBe('merge');
    expect(read(b, 'app.js')).toBe('export const version = 9; // wip\n');
    expect(git(b, 'status', '--porcelain')).toBe(' M app.js\n?? scratch.txt\n');
  });

  it('a true conflict stops the sync (exit 5) with the files named; nothing is changed', () => {
    const { a, b } = setup();
    const edit = (dir: string, text: string) =>
      write(
        dir,
        'memory/MEMORY.md',
        read(dir, 'memory/MEMORY.md').replace('## Decisions\n', `## Decisions\n\n- Retries: ${text}\n`),
      );
    edit(a, '3');
    okOutput(sync(a));
    okOutput(sync(b));
    write(a, 'memory/MEMORY.md', read(a, 'memory/MEMORY.md').replace('- Retries: 3', '- Retries: 5'));
    write(b, 'memory/MEMORY.md', read(b, 'memory/MEMORY.md').replace('- Retries: 3', '- Retries: 10'));
    okOutput(sync(a));
    const r = sync(b);
    expect(r.code, r.stderr).toBe(5);
    expect(r.json().error.code).toBe('git.conflict');
    expect(r.json().error.data.files).toEqual(['memory/MEMORY.md']);
    expect(read(b, 'memory/MEMORY.md')).toContain('- Retries: 10');
    expect(read(b, 'memory/MEMORY.md')).not.toMatch(/<<<<<<<|>>>>>>>/);
    expect(git(b, 'status', '--porcelain')).toBe('');
    expect(git(b, 'log', '-1', '--format=%s')).toMatch(/^memory:/);
  });

  it('a clone without the merge rules: the conflict hint names gitmem doctor --fix, which then lets the sync merge', () => {
    const base = tempDir('gitmem-sync-');
    dirs.push(base);
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);
    const a = join(base, 'a');
    git(base, 'clone', '-q', remote, a);
    git(a, 'config', 'user.name', 'Ann');
    git(a, 'config', 'user.email', 'ann@example.com');
    // Plain init, then the rules are removed before anything is shared: this clone's team never had them.
    okOutput(runCli(['init', '--dir', a]));
    rmSync(join(a, '.gitattributes'));
    okOutput(runCli(['remember', 'Billing cron runs at 02:00 zqcronx', '--dir', a]));
    okOutput(sync(a));
    const b = join(base, 'b');
    git(base, 'clone', '-q', remote, b);
    git(b, 'config', 'user.name', 'Ben');
    git(b, 'config', 'user.email', 'ben@example.com');
    okOutput(runCli(['append', 'ben was here', '--date', '2026-11-20', '--dir', b]));
    okOutput(runCli(['append', 'ann was here', '--date', '2026-11-20', '--dir', a]));
    okOutput(sync(a));
    const r = sync(b);
    expect(r.code, r.stderr).toBe(5);
    expect(r.json().error.code).toBe('git.conflict');
    expect(r.json().error.hint).toContain('gitmem doctor --fix');
    okOutput(runCli(['doctor', '--fix', '--dir', b]));
    okOutput(sync(b));
    expect(read(b, 'memory/2026-11-20.md')).toMatch(/ben was here[\s\S]*ann was here|ann was here[\s\S]*ben was here/);
  });

  it('a push the remote rejects stops with exit 6; the memory stays committed locally', () => {
    const { remote, a } = setup();
    write(remote, 'hooks/pre-receive', '#!/bin/sh\necho "pushes are frozen" >&2\nexit 1\n');
    chmodSync(join(remote, 'hooks', 'pre-receive'), 0o755);
    okOutput(runCli(['append', 'this stays local', '--dir', a]));
    const r = sync(a);
    expect(r.code, r.stderr).toBe(6);
    expect(r.json().error.code).toBe('git.push-rejected');
    expect(git(a, 'log', '-1', '--format=%s')).toMatch(/^memory:/);
    expect(git(a, 'status', '--porcelain')).toBe('');
  });

  it('no remote and no git binary are clear errors', () => {
    const dir = join(tempDir('gitmem-sync-'), 'solo');
    dirs.push(dirname(dir));
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    expect(runCli(['init', '--dir', dir]).code).toBe(0);
    const r = sync(dir);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('git.no-remote');
    const noGit = runCli(['sync', '--json', '--dir', dir], { env: { PATH: '/nonexistent' } });
    expect(noGit.code).toBe(1);
    expect(noGit.json().error.code).toBe('git.unavailable');
    expect(noGit.stderr).toMatch(/install git/);
  });
});

describe('gitmem sync --rebase', { timeout: 240_000 }, () => {
  it('replays the local memory commit on top of the remote: linear history, both notes kept', () => {
    const { a, b } = setup();
    okOutput(runCli(['append', 'ann rebased note', '--dir', a]));
    okOutput(sync(a));
    okOutput(runCli(['append', 'ben rebased note', '--dir', b]));
    const r = okOutput(sync(b, '--rebase'));
    expect(r.strategy).toBe('rebase');
    expect(r.pushed).toBe(true);
    expect(git(b, 'rev-list', '--merges', '--count', 'HEAD').trim()).toBe('0');
    const daily = git(b, 'ls-files', 'memory/2*.md').trim();
    expect(read(b, daily)).toMatch(/ann rebased note[\s\S]*ben rebased note/);
    expect(git(b, 'status', '--porcelain')).toBe('');
  });

  it('B22: a merge sync in a clone with no git identity commits as the documented fallback author', () => {
    const { a, b } = setup();
    git(b, 'config', '--unset', 'user.name');
    git(b, 'config', '--unset', 'user.email');
    const home = tempDir('gitmem-sync-home-');
    dirs.push(home);
    // No identity anywhere: no global or system git config, an empty HOME, no identity variables.
    const env: Record<string, string> = {
      HOME: home,
      XDG_CONFIG_HOME: home,
      GIT_CONFIG_GLOBAL: join(home, 'none'),
      GIT_CONFIG_NOSYSTEM: '1',
      EMAIL: '',
    };
    okOutput(runCli(['append', 'ann wrote about llamas', '--dir', a]));
    okOutput(sync(a));
    okOutput(runCli(['append', 'ben wrote about alpacas', '--dir', b], { env }));
    const r = runCli(['sync', '--json', '--dir', b], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().strategy).toBe('merge');
    expect(git(b, 'log', '-1', '--format=%an <%ae>|%s').trim()).toMatch(
      /^gitmem <gitmem@localhost>\|memory: sync merge origin\/main/,
    );
  });
});
