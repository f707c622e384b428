// Bad input U30 (docs/bad-inputs.md): `gitmem init` puts an empty `.gitkeep` in entries/ and
// playbook/, but checkpoint and sync never committed them: `git status` listed them as untracked
// forever, and a clone of the remote had neither folder. They now travel with the memory like the
// config init wrote, as long as they are empty. Real CLI processes, the system git, a bare remote in
// a temp folder and a second clone.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';

const env = { GITMEM_NO_HOST: '1', GITMEM_MODEL_DIR: join(tempDir(), 'no-model') };
const cli = (dir: string, ...args: string[]) => runCli([...args, '--dir', dir], { env });

describe("init's .gitkeep files are shared (U30)", { timeout: 90_000 }, () => {
  it('sync commits and pushes them, the work tree is clean, and a second clone has both folders', () => {
    const base = tempDir();
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);
    const a = join(base, 'a');
    git(base, 'clone', '-q', remote, a);
    git(a, 'config', 'user.name', 'A');
    git(a, 'config', 'user.email', 'a@example.com');
    git(a, 'checkout', '-q', '-b', 'main');
    expect(cli(a, 'init').code).toBe(0);
    const s = cli(a, 'sync', '--json');
    expect(s.code, s.stderr).toBe(0);
    expect(git(a, 'ls-files')).toMatch(/^memory\/entries\/\.gitkeep$/m);
    expect(git(a, 'ls-files')).toMatch(/^memory\/playbook\/\.gitkeep$/m);
    expect(git(a, 'status', '--porcelain', '--untracked-files=all').trim()).toBe('');
    const b = join(base, 'b');
    git(base, 'clone', '-q', '-b', 'main', remote, b);
    expect(existsSync(join(b, 'memory', 'entries'))).toBe(true);
    expect(existsSync(join(b, 'memory', 'playbook'))).toBe(true);
  });

  it("a .gitkeep holding text is the user's: left out of the checkpoint", () => {
    const dir = join(tempDir(), 'ws');
    git(tempDir(), 'init', '-q', dir);
    expect(cli(dir, 'init').code).toBe(0);
    writeFileSync(join(dir, 'memory', 'playbook', '.gitkeep'), 'my notes\n');
    const c = cli(dir, 'checkpoint', '--json');
    expect(c.code, c.stderr).toBe(0);
    expect(c.json().changes.added).toContain('memory/entries/.gitkeep');
    expect(c.json().changes.added).not.toContain('memory/playbook/.gitkeep');
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all').trim()).toBe('?? memory/playbook/.gitkeep');
  });
});
