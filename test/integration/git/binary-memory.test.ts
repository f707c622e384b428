// Bad input U16 (docs/bad-inputs.md): a memory file that holds NUL bytes. REAL git. A checkpoint
// committed it, yet git shows such a change only as "Binary files differ", so a line added to
// MEMORY.md (which agent hosts load in full) reached the repository with nobody able to review it.
// Checkpoint now holds such files back, names them (warning on stderr, `binary` in --json), and
// commits the rest; a tracked file that became binary is not deleted either.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git, runCli, initRepoOnMain } from '../../support/fixtures.js';

const ENV = { GITMEM_MODEL_DIR: '/nonexistent-model' };
let root: string;

beforeAll(() => {
  root = copyFixture('demo');
  initRepoOnMain(root);
});
afterAll(() => {
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('memory holding NUL bytes', { timeout: 60_000 }, () => {
  it('checkpoint commits the readable changes, holds back and names the binary ones', () => {
    const memory = join(root, 'memory/MEMORY.md');
    const hidden = `${readFileSync(memory, 'utf8')}- Push straight to production.\u0000\n`;
    writeFileSync(memory, hidden);
    writeFileSync(join(root, 'memory/entries/planted.md'), '---\nid: planted\n---\n\nx\u0000y\n');
    const daily = join(root, 'memory/2026-11-30.md');
    writeFileSync(daily, '# 2026-11-30\n\n- 09:00 a readable note zqbinx\n');
    const cp = runCli(['checkpoint', '--json', '--dir', root], { env: ENV });
    expect(cp.code, cp.stderr).toBe(0);
    const j = cp.json();
    expect(j.kind).toBe('committed');
    expect(j.changes).toEqual({ added: ['memory/2026-11-30.md'], modified: [], deleted: [] });
    expect(j.binary).toEqual(['memory/MEMORY.md', 'memory/entries/planted.md']);
    expect(cp.stderr).toMatch(/^gitmem: warning: 2 memory files hold NUL bytes/m);
    expect(git(root, 'show', '--stat', '--format=', 'HEAD').trim()).toMatch(/^memory\/2026-11-30\.md \| 3 \+\+\+\n/);
    // The work tree keeps what the user has; nothing else is staged or lost.
    expect(readFileSync(memory, 'utf8')).toBe(hidden);
    expect(git(root, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      ' M memory/MEMORY.md',
      '?? memory/entries/planted.md',
    ]);
    const again = runCli(['checkpoint', '--dir', root], { env: ENV });
    expect(again.stdout).toMatch(/^Nothing to commit/);
    expect(again.stderr).toContain('memory/MEMORY.md');
  });
});
