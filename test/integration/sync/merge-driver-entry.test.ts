// Bad input U12 (docs/bad-inputs.md): the merge driver registered as a bundle chunk. REAL git, the
// built CLI. Since the CLI is split into chunks, `init --merge-driver` recorded the chunk it ran
// from (dist/chunks/main-<hash>.js); run by git, that file does nothing and exits 0, so git kept
// our side and the other clone's new MEMORY.md bullet was silently lost (and the hash changes with
// every build). The driver now names the CLI's entry, and a real merge keeps both bullets. A driver
// that an earlier version registered names dist/cli.js, the entry's earlier name: it still merges.
import { appendFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, git, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A workspace with the gitmem merge driver (`init --merge-driver`); `driver` replaces the registered command. */
function workspace(driver?: (registered: string) => string): string {
  const base = tempDir('gitmem-driver-');
  dirs.push(base);
  const ws = join(base, 'ws');
  git(base, 'init', '-q', '-b', 'main', ws);
  git(ws, 'config', 'user.name', 'Ann');
  git(ws, 'config', 'user.email', 'ann@example.com');
  expect(runCli(['init', '--merge-driver', '--dir', ws]).code).toBe(0);
  const registered = git(ws, 'config', '--get', 'merge.gitmem.driver').trim();
  expect(registered).toContain(`'${CLI}' merge-file %O %A %B`);
  if (driver) git(ws, 'config', 'merge.gitmem.driver', driver(registered));
  return ws;
}

/** Both sides append a MEMORY.md bullet; git merges them with the driver. @returns the merged MEMORY.md. */
function mergeBothSides(ws: string): string {
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  git(ws, 'switch', '-q', '-c', 'other');
  appendFileSync(join(ws, 'memory/MEMORY.md'), '- Other side fact zqother\n');
  git(ws, 'commit', '-qam', 'other');
  git(ws, 'switch', '-q', 'main');
  appendFileSync(join(ws, 'memory/MEMORY.md'), '- Main side fact zqmain\n');
  git(ws, 'commit', '-qam', 'main');
  git(ws, 'merge', '-q', '--no-edit', 'other');
  return git(ws, 'show', 'HEAD:memory/MEMORY.md');
}

describe('the registered merge driver', { timeout: 120_000 }, () => {
  it('names the CLI entry and keeps both sides of a MEMORY.md merge', () => {
    const merged = mergeBothSides(workspace());
    expect(merged).toContain('zqmain');
    expect(merged).toContain('zqother');
  });

  it("a driver registered with the entry's earlier name (dist/cli.js) still keeps both sides", () => {
    const earlier = join(dirname(CLI), 'cli.js');
    const ws = workspace((registered) => {
      const cmd = registered.replace(`'${CLI}'`, `'${earlier}'`);
      expect(cmd).not.toBe(registered);
      return cmd;
    });
    const merged = mergeBothSides(ws);
    expect(merged).toContain('zqmain');
    expect(merged).toContain('zqother');
  });
});
