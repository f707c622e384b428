// Bad input R30 (docs/bad-inputs.md): `get` of an id that two files hold. Before, it printed one of
// them and said nothing; now it prints the first by path, says on stderr that the id is held by both
// (naming them), and `--json` lists the other in `alsoAt`. Real CLI over a real workspace.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, noModelEnv, requireBuiltCli, runCli, write } from '../../support/fixtures.js';

let root: string;
let ws: string;
const entry = (title: string) =>
  `---\nid: pool-size\ntype: decision\ntitle: ${title}\ncreated: 2024-03-01\n---\n\n${title}.\n`;

beforeAll(() => {
  requireBuiltCli();
  ({ root, ws } = bareWorkspace());
  write(ws, 'memory/entries/b-pool.md', entry('The pool holds 20 connections'));
  write(ws, 'memory/entries/a-pool.md', entry('The pool holds 10 connections'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(['--dir', ws, '--no-host', ...args], { env: noModelEnv(root) });

describe('get of an id held by two files (R30)', () => {
  it('names both files and shows the first by path', () => {
    const r = cli('get', 'pool-size');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('10 connections');
    expect(r.stderr).toMatch(
      /id pool-size is held by 2 files: memory\/entries\/a-pool\.md, memory\/entries\/b-pool\.md; showing memory\/entries\/a-pool\.md/,
    );
    const j = cli('get', 'pool-size', '--json').json();
    expect(j.path).toBe('memory/entries/a-pool.md');
    expect(j.alsoAt).toEqual(['memory/entries/b-pool.md']);
  });
});
