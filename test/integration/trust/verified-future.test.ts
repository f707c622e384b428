// Bad input R65 (docs/bad-inputs.md): front-matter `verified: 2099-01-01` — a re-check claimed for a
// day still to come — made every change to the cited code since count for nothing: a memory whose
// code was edited and committed after it was recalled as `fresh`, no "code changed" label, and
// validate said nothing. A `verified` day after tomorrow now moves no baseline
// (service/trust/code-check.ts); a real `verified` (today) still does. Real git repo in a temp folder.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, git, noModelEnv, okOutput, requireBuiltCli, runCli, write } from '../../support/fixtures.js';

const ENTRY = 'memory/entries/2026-12-01-pool.md';
let root = '';
let ws = '';
const env = { ...noModelEnv('/nonexistent/x'), TZ: 'UTC', GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com' };

function codeOf(): Array<{ status: string }> {
  const r = okOutput(runCli(['recall', 'pool size', '--json', '--dir', ws], { env }));
  const hit = r.results.find((x: { path: string }) => x.path === ENTRY);
  return hit.code;
}

function setVerified(day: string): void {
  const p = join(ws, ENTRY);
  writeFileSync(
    p,
    readFileSync(p, 'utf8')
      .replace(/^verified: .*\n/m, '')
      .replace('created:', `verified: ${day}\ncreated:`),
  );
}

beforeAll(() => {
  requireBuiltCli();
  ({ root, ws } = bareWorkspace('entries', { model: { enabled: false } }));
  git(ws, 'init', '-q');
  git(ws, 'config', 'user.name', 'Ann');
  git(ws, 'config', 'user.email', 'ann@example.com');
  write(ws, 'src/pool.ts', 'export function pool() {\n  return 10;\n}\n');
  write(
    ws,
    ENTRY,
    '---\nid: 2026-12-01-pool\ntype: decision\ncreated: 2026-12-01\nfiles: [src/pool.ts]\n---\n\nThe `pool` function in src/pool.ts returns a pool size of 10.\n',
  );
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'pool memory');
  write(ws, 'src/pool.ts', 'export function pool() {\n  return 99;\n}\n');
  git(ws, 'commit', '-qam', 'pool of 99');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('R65: a verified day still to come hides no code change', () => {
  it('the edited code is flagged with verified: 2099-01-01, and not after a re-check today', () => {
    expect(codeOf()).toEqual([expect.objectContaining({ status: 'code-changed', commits: 1 })]);
    setVerified('2099-01-01');
    expect(codeOf()).toEqual([expect.objectContaining({ status: 'code-changed', commits: 1 })]);
    setVerified(new Date().toISOString().slice(0, 10));
    expect(codeOf()).toEqual([expect.objectContaining({ status: 'fresh' })]);
  });

  it('tomorrow (UTC) still counts: the day of slack for time zones that R65 and validate (R90) name', () => {
    setVerified(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    expect(codeOf()).toEqual([expect.objectContaining({ status: 'fresh' })]);
    setVerified(new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
    expect(codeOf()).toEqual([expect.objectContaining({ status: 'code-changed', commits: 1 })]);
  });
});
