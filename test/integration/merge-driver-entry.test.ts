// Bad input U12 (docs/bad-inputs.md): the merge driver registered as a bundle chunk. REAL git, the
// built CLI. Since the CLI is split into chunks, `init --merge-driver` recorded the chunk it ran
// from (dist/chunks/main-<hash>.js); run by git, that file does nothing and exits 0, so git kept
// our side and the other clone's new MEMORY.md bullet was silently lost (and the hash changes with
// every build). The driver now names the CLI's entry, and a real merge keeps both bullets.
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, git, runCli, tempDir } from '../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the registered merge driver', { timeout: 120_000 }, () => {
  it('names the CLI entry and keeps both sides of a MEMORY.md merge', () => {
    const base = tempDir('gitmem-driver-');
    dirs.push(base);
    const ws = join(base, 'ws');
    git(base, 'init', '-q', '-b', 'main', ws);
    git(ws, 'config', 'user.name', 'Ann');
    git(ws, 'config', 'user.email', 'ann@example.com');
    expect(runCli(['init', '--merge-driver', '--dir', ws]).code).toBe(0);
    const driver = git(ws, 'config', '--get', 'merge.gitmem.driver').trim();
    expect(driver).toContain(`'${CLI}' merge-file %O %A %B`);
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'init');
    git(ws, 'switch', '-q', '-c', 'other');
    appendFileSync(join(ws, 'memory/MEMORY.md'), '- Other side fact zqother\n');
    git(ws, 'commit', '-qam', 'other');
    git(ws, 'switch', '-q', 'main');
    appendFileSync(join(ws, 'memory/MEMORY.md'), '- Main side fact zqmain\n');
    git(ws, 'commit', '-qam', 'main');
    git(ws, 'merge', '-q', '--no-edit', 'other');
    const merged = git(ws, 'show', 'HEAD:memory/MEMORY.md');
    expect(merged).toContain('zqmain');
    expect(merged).toContain('zqother');
  });
});
