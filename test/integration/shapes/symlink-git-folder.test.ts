// Bad input U38 (docs/bad-inputs.md): a symlink in the memory folder that leads into the work tree's
// own .git folder (a repository can commit one: `memory/notes.md -> ../.git/config`) is inside the
// workspace by path, so recall indexed git's config, credential-bearing remote URLs included, and
// `get` printed it. It is skipped and refused like a link out of the workspace.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, git, runCli, noModelEnv } from '../../support/fixtures.js';

const root = committedFixture('demo');
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));
const env = noModelEnv(root);
const cli = (...args: string[]) => runCli([...args, '--dir', root], { env });

describe('symlinks into the .git folder', () => {
  it('are not indexed, not served by get, and not committed', () => {
    git(root, 'config', 'remote.origin.url', 'https://example.invalid/zebrawombat.git');
    symlinkSync('../.git/config', join(root, 'memory/gitcfg.md'));
    mkdirSync(join(root, 'memory/notes'), { recursive: true });
    symlinkSync('../../.git', join(root, 'memory/notes/gitdir'));

    const idx = cli('index');
    expect(idx.code, idx.stderr).toBe(0);
    expect(idx.stderr + idx.stdout).toMatch(/memory\/gitcfg\.md: symlink leads into the git folder/);

    const r = cli('--json', 'recall', 'zebrawombat', '--mode', 'keyword');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().results).toEqual([]);

    const g = cli('--json', 'get', 'memory/gitcfg.md');
    expect(g.code).toBe(1);
    expect(g.stdout).not.toContain('zebrawombat');
    expect(g.json().error.code).toBe('path.outside-root');

    const c = cli('checkpoint', '-m', 'links');
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD')).not.toMatch(/gitcfg|gitdir/);
    expect(c.stdout).not.toMatch(/gitcfg|gitdir/);
  });
});
