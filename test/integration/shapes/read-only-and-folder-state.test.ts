// Bad inputs R26 and R27 (docs/bad-inputs.md), real CLI processes over a real workspace:
// - R26: `state set` (and every atomic replace of a memory file) refuses a read-only file, as an
//   editor refuses to save one, instead of replacing it through a rename (which works whatever the
//   file's mode, and as root a write would too): exit 1, the file byte-identical, the mode kept.
// - R27: `validate` reports a folder where the layout names one file (CURRENT_STATE.md) instead of
//   "No problems found".
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, noModelEnv, requireBuiltCli, runCli, write } from '../../support/fixtures.js';

let root: string;
let ws: string;
beforeAll(() => {
  requireBuiltCli();
  ({ root, ws } = bareWorkspace());
  write(ws, 'memory/MEMORY.md', '# Memory\n\n- a fact\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(['--dir', ws, ...args], { env: noModelEnv(root) });

describe('a read-only memory file is not replaced (R26)', () => {
  it('state set refuses a read-only CURRENT_STATE.md and leaves it as it was', () => {
    const path = join(ws, 'memory', 'CURRENT_STATE.md');
    expect(cli('state', 'set', '--step', 'first step').code).toBe(0);
    const before = readFileSync(path, 'utf8');
    chmodSync(path, 0o444);
    const r = cli('state', 'set', '--step', 'a step the file refuses');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/CURRENT_STATE\.md.*read-only \(mode 0444\)/);
    expect(r.stderr).toMatch(/chmod u\+w/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o444);
    chmodSync(path, 0o644);
    expect(cli('state', 'set', '--step', 'writable again').code).toBe(0);
    expect(readFileSync(path, 'utf8')).toContain('writable again');
  });
});

describe('validate and a folder at a file name (R27)', () => {
  it('reports CURRENT_STATE.md as a folder, exit 1', () => {
    rmSync(join(ws, 'memory', 'CURRENT_STATE.md'));
    mkdirSync(join(ws, 'memory', 'CURRENT_STATE.md'));
    const r = cli('validate');
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/memory\/CURRENT_STATE\.md:1:1 error memory\/CURRENT_STATE\.md is a folder, not a file/);
    const j = cli('validate', '--json');
    expect(JSON.stringify(j.json())).toMatch(/memory\.file\.unreadable/);
  });
});
