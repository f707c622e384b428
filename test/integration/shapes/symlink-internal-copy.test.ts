// Bad input U39 (docs/bad-inputs.md): a symlink to another memory file the walk already takes
// (`memory/alias.md -> ../MEMORY.md`) made index, recall and validate see the same lines twice.
// The walk keeps the file's own path and skips the link.
import { appendFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, runCli, noModelEnv } from '../../support/fixtures.js';

const root = committedFixture('demo');
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));
const env = noModelEnv(root);
const cli = (...args: string[]) => runCli([...args, '--dir', root], { env });

describe('a symlink to a file the walk already indexes', () => {
  it('is skipped: recall answers the line once, at the real path', () => {
    appendFileSync(join(root, 'memory/MEMORY.md'), '\n- capybaraquokka lives near rivers\n');
    mkdirSync(join(root, 'memory/notes'), { recursive: true });
    symlinkSync('../MEMORY.md', join(root, 'memory/notes/alias.md'));

    const idx = cli('index');
    expect(idx.code, idx.stderr).toBe(0);
    expect(idx.stderr + idx.stdout).toMatch(/memory\/notes\/alias\.md: symlink to memory\/MEMORY\.md, indexed there/);

    const r = cli('--json', 'recall', 'capybaraquokka', '--mode', 'keyword');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().results.map((x: { path: string }) => x.path)).toEqual(['memory/MEMORY.md']);

    const again = cli('index', '--rebuild');
    expect(again.code, again.stderr).toBe(0);
    const r2 = cli('--json', 'recall', 'capybaraquokka', '--mode', 'keyword');
    expect(r2.json().results.map((x: { path: string }) => x.path)).toEqual(['memory/MEMORY.md']);
  });
});
