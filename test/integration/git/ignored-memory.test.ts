// Bad input U09 (docs/bad-inputs.md): memory that `.gitignore` excludes. REAL git. A memory file
// the user's ignore rules cover is read by recall, but a checkpoint never commits it, so `gitmem
// checkpoint` said "memory matches HEAD" and `gitmem sync` sent nothing while an entry just
// remembered never left the clone. Checkpoint and sync now name those files (warning on stderr,
// `ignored` in --json) and still never force-add them.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(): string {
  const base = tempDir('gitmem-ignored-');
  dirs.push(base);
  const remote = join(base, 'remote.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  const a = join(base, 'a');
  git(base, 'clone', '-q', remote, a);
  git(a, 'config', 'user.name', 'Ann');
  git(a, 'config', 'user.email', 'ann@example.com');
  expect(runCli(['init', '--dir', a]).code).toBe(0);
  writeFileSync(join(a, '.gitignore'), 'memory/entries/*-scratch-*.md\nmemory/private.md\n');
  git(a, 'add', '-A');
  git(a, 'commit', '-qm', 'init');
  git(a, 'push', '-q', 'origin', 'HEAD:main');
  return a;
}

describe('memory that .gitignore excludes', { timeout: 240_000 }, () => {
  it('checkpoint names the ignored memory files instead of saying memory matches HEAD', () => {
    const a = repo();
    writeFileSync(join(a, 'memory/private.md'), '# Private\n\n- deploy with --force zqprivx\n');
    expect(runCli(['remember', 'Scratch fact zqscratchx', '--title', 'scratch note', '--dir', a]).code).toBe(0);
    // Recall serves both files, so they are memory…
    const rec = runCli(['recall', 'zqprivx zqscratchx', '--json', '--mode', 'keyword', '--dir', a]).json();
    const paths = rec.results.map((r: { path: string }) => r.path);
    expect(paths).toContain('memory/private.md');
    expect(paths.some((p: string) => /^memory\/entries\/.*scratch-note\.md$/.test(p))).toBe(true);
    // …but no commit can carry them: the checkpoint says so, and never force-adds them.
    const cp = runCli(['checkpoint', '-m', 'cp', '--dir', a]);
    expect(cp.code, cp.stderr).toBe(0);
    expect(cp.stderr).toMatch(/^gitmem: warning: 2 memory files are ignored by git/m);
    expect(cp.stderr).toContain('memory/private.md');
    const j = runCli(['checkpoint', '--json', '--dir', a]).json();
    expect(j.kind).toBe('nothing-to-commit');
    expect(j.ignored).toHaveLength(2);
    expect(git(a, 'status', '--porcelain')).toBe('');
    const s = runCli(['sync', '--dir', a]);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stderr).toMatch(/^gitmem: warning: 2 memory files are ignored by git/m);
    expect(git(a, 'ls-tree', '-r', '--name-only', 'origin/main')).not.toMatch(/private|scratch/);
  });
});
