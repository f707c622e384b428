// Bad input R41 (docs/bad-inputs.md): the first `gitmem sync` of a new clone builds the clone's whole
// index (every file, every chunk embedded) but reported "re-indexed 3 file(s)" as if it had updated a
// few, and printed nothing while it worked. Real git: a bare remote, a clone that pushes a commit, a
// second clone made before it that has never been indexed; the real CLI from dist/.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, initRepoOnMain, noModelEnv, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

describe('the first sync of a new clone (R41)', { timeout: 120_000 }, () => {
  it('says it made the first index of all the files, with progress on stderr', () => {
    const top = tempDir();
    dirs.push(top);
    const a = join(top, 'a');
    mkdirSync(join(a, 'memory'), { recursive: true });
    writeFileSync(join(a, 'memory', 'MEMORY.md'), '# Memory\n\n- Deploys run from main.\n');
    writeFileSync(join(a, 'memory', 'queues.md'), '# Queues\n\n- The staging queue retries three times.\n');
    initRepoOnMain(a);
    git(top, 'init', '-q', '--bare', '-b', 'main', 'remote.git');
    git(a, 'remote', 'add', 'origin', join(top, 'remote.git'));
    git(a, 'push', '-q', '-u', 'origin', 'main');
    git(top, 'clone', '-q', 'remote.git', 'b');
    writeFileSync(join(a, 'memory', 'webhooks.md'), '# Webhooks\n\n- Webhooks are retried with backoff.\n');
    git(a, 'add', '-A');
    git(a, 'commit', '-q', '-m', 'webhooks');
    git(a, 'push', '-q');

    const b = join(top, 'b');
    const r = runCli(['sync', '--dir', b], { env: { ...noModelEnv(b), ...IDENTITY } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^first index: 3 file\(s\) \(\d+ ms\)$/m);
    expect(r.stdout).not.toContain('re-indexed');
    // A run this small prints no progress (a line per file flooded logs, from a new user's run);
    // a large one prints a line per phase and tenth on stderr, never on stdout.
    expect(r.stderr).not.toContain('indexing');
    expect(r.stdout).not.toContain('indexing');

    const j = runCli(['sync', '--json', '--dir', b], { env: { ...noModelEnv(b), ...IDENTITY } });
    expect(j.code, j.stderr).toBe(0);
    expect(j.stderr).not.toContain('indexing');
  });
});
