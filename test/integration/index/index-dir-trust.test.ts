// Bad input T04 (docs/bad-inputs.md).
// A cloned repository's gitmem.config.json sets `index.dir` to
// the memory folder, the work-tree root, or a folder elsewhere on the machine. gitmem refuses it with
// a warning and keeps derived state in its own folders; the user-level GITMEM_INDEX_DIR is trusted.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git, runCli, tempDir, requireBuiltCli } from '../../support/fixtures.js';
import { refuseIndexDir } from '../../../src/platform/locations.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(() => {
  requireBuiltCli();
});

function repoWithIndexDir(dir: string): string {
  const ws = copyFixture('demo');
  made.push(dirname(ws));
  writeFileSync(
    join(ws, 'gitmem.config.json'),
    `${JSON.stringify({ version: 1, layout: 'default', index: { dir } })}\n`,
  );
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'cloned');
  return ws;
}

describe('index.dir from a repository config', () => {
  it('"memory" is refused: no memory/.gitignore, and new memory can still be committed', () => {
    const ws = repoWithIndexDir('memory');
    const r = runCli(['recall', 'webhook', '--mode', 'keyword', '--dir', ws]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/index\.dir "memory" .* is not used: it is inside the work tree/);
    expect(existsSync(join(ws, 'memory', '.gitignore'))).toBe(false);
    expect(existsSync(join(ws, 'memory', 'manifest.json'))).toBe(false);
    expect(existsSync(join(ws, '.git', 'gitmem', 'manifest.json'))).toBe(true);
    expect(runCli(['remember', 'Deploys need the staging flag', '--dir', ws]).code).toBe(0);
    const c = runCli(['checkpoint', '--dir', ws, '--json'], {
      env: { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com' },
    });
    expect(c.code).toBe(0);
    expect(c.json().kind).toBe('committed');
  });

  it('"." is refused: the repository stays visible to git status', () => {
    const ws = repoWithIndexDir('.');
    const r = runCli(['recall', 'webhook', '--mode', 'keyword', '--dir', ws]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/is not used: it is the workspace/);
    expect(existsSync(join(ws, '.gitignore'))).toBe(false);
    writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- changed\n');
    expect(git(ws, 'status', '--porcelain')).toMatch(/memory\/MEMORY\.md/);
  });

  it('a folder outside the workspace is never written', () => {
    const other = tempDir('gitmem-other-');
    made.push(other);
    writeFileSync(join(other, 'manifest.json'), '{"mine":true}\n');
    const ws = repoWithIndexDir(other);
    const r = runCli(['recall', 'webhook', '--mode', 'keyword', '--dir', ws]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/is not used: it is outside the workspace/);
    expect(readdirSync(other)).toEqual(['manifest.json']);
  });

  it("a dir inside .gitmem/ or the git dir's gitmem/ is accepted; GITMEM_INDEX_DIR (user-level) is trusted", () => {
    const ws = repoWithIndexDir('.gitmem/idx');
    const r = runCli(['recall', 'webhook', '--mode', 'keyword', '--dir', ws]);
    expect(r.stderr).not.toMatch(/is not used/);
    expect(existsSync(join(ws, '.gitmem', 'idx', 'manifest.json'))).toBe(true);
    const mine = join(tempDir('gitmem-user-idx-'), 'index');
    made.push(dirname(mine));
    mkdirSync(mine);
    expect(
      runCli(['recall', 'webhook', '--mode', 'keyword', '--dir', ws], { env: { GITMEM_INDEX_DIR: mine } }).code,
    ).toBe(0);
    expect(existsSync(join(mine, 'manifest.json'))).toBe(true);
    expect(refuseIndexDir('/r/.git/gitmem/x', '/r', '/r/.git')).toBeUndefined();
    expect(refuseIndexDir('/r/memory', '/r', '/r/.git')).toMatch(/inside the work tree/);
  });

  it('".git/refs/heads" and ".git" are refused: no index file among git\'s own (no broken branches)', () => {
    for (const dir of ['.git/refs/heads', '.git', '.git/objects']) {
      const ws = repoWithIndexDir(dir);
      const r = runCli(['recall', 'webhook', '--mode', 'keyword', '--dir', ws]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/is not used: it is the git dir or one of git's own folders/);
      expect(existsSync(join(ws, dir, 'manifest.json'))).toBe(false);
      expect(existsSync(join(ws, '.git', 'gitmem', 'manifest.json'))).toBe(true);
      expect(git(ws, 'for-each-ref', '--format=%(refname)').trim()).toBe(
        'refs/heads/' + git(ws, 'branch', '--show-current').trim(),
      );
    }
  });
});
