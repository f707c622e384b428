// Bad input B49 (docs/bad-inputs.md): `gitmem diff <rev>` against the work tree took the work tree's
// memory from the loaded workspace, which leaves out the files the loader skips (over
// limits.maxFileBytes, NUL bytes). A committed note that grew past the cap, untouched since or
// edited, was reported "removed" while it sat in the work tree, and `git status` showed it
// unchanged. The work tree side now reads such a file from disk as git does; a file really deleted is
// still removed.
import { rmSync, unlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, git, runCli } from '../../support/fixtures.js';

let root: string;
let ws: string;
const big = `# Big\n\n${'- a long line of meeting notes about webhook retries\n'.repeat(200)}`;

beforeAll(() => {
  ({ root, ws } = bareWorkspace('', { limits: { maxFileBytes: 4096 } }));
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- webhook retries use jitter\n');
  writeFileSync(join(ws, 'memory', 'big.md'), big);
  writeFileSync(join(ws, 'memory', 'gone.md'), '# Gone\n\n- soon deleted\n');
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'memory');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('diff against the work tree with a file the loader skips (B49)', { timeout: 60_000 }, () => {
  it('an unchanged file over the size cap is not reported removed', () => {
    const r = runCli(['diff', 'HEAD', '--dir', ws, '--json']);
    expect(r.code).toBe(0);
    expect(r.json().changes).toEqual([]);
  });

  it('an edit to it is a change, and a deleted file is still removed', () => {
    appendFileSync(join(ws, 'memory', 'big.md'), '- one more line\n');
    unlinkSync(join(ws, 'memory', 'gone.md'));
    const r = runCli(['diff', 'HEAD', '--dir', ws, '--json']);
    expect(r.code).toBe(0);
    const changes = r.json().changes as { path: string; change: string; linesAdded: { text: string }[] }[];
    const byPath = Object.fromEntries(changes.map((c) => [c.path, c]));
    expect(byPath['memory/big.md']?.change).toBe('changed');
    expect(byPath['memory/big.md']?.linesAdded.map((l) => l.text)).toEqual(['- one more line']);
    expect(byPath['memory/gone.md']?.change).toBe('removed');
    expect(changes).toHaveLength(2);
  });
});
