// Bad input R63 (docs/bad-inputs.md, L4): path arguments were taken from the workspace root whatever
// the current folder: a user in `memory/` typing `gitmem get entries/x.md` got "not found", and
// `gitmem mv` / `log` / `validate` named the wrong file or nothing. Paths are now taken from the
// current folder when it is inside the workspace (cli/path-args.ts), a workspace-relative path still
// works when only that form exists, and a path found in neither form is refused naming both. The
// built CLI as a real process, started in subfolders of a committed demo workspace.
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, noModelEnv, okOutput, requireBuiltCli, runCli } from '../../support/fixtures.js';

const ENTRY = '2026-11-20-postgres-connection-pool.md';
let ws = '';
const env = () => noModelEnv(ws);
const at = (sub: string, ...args: string[]) => runCli(args, { cwd: join(ws, sub), env: env() });

beforeAll(() => {
  requireBuiltCli();
  ws = committedFixture('demo');
});
afterAll(() => rmSync(dirname(ws), { recursive: true, force: true }));

describe('R63: path arguments are taken from the current folder', () => {
  it('get: from the current folder, with a line range, or from the workspace root', () => {
    const here = okOutput(at('memory', 'get', `entries/${ENTRY}`, '--json'));
    expect(here.path).toBe(`memory/entries/${ENTRY}`);
    const range = okOutput(at('memory/entries', 'get', `${ENTRY}:2-3`, '--json'));
    expect(range.path).toBe(`memory/entries/${ENTRY}`);
    expect(range.text).toContain('id: 2026-11-20-postgres-connection-pool');
    expect(okOutput(at('memory', 'get', 'memory/MEMORY.md', '--json')).path).toBe('memory/MEMORY.md');
  });

  it('a path found in neither form is refused naming both', () => {
    const r = at('memory', 'get', 'nope/gone.md');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'nope/gone.md not found: neither memory/nope/gone.md (from the current folder, memory) nor nope/gone.md (from the workspace root) exists',
    );
  });

  it('log, validate and mv act on the file the user named', () => {
    const log = okOutput(at('memory', 'log', 'MEMORY.md', '--json'));
    expect(log.commits.length).toBeGreaterThan(0);
    expect(log.commits[0].files.map((f: { path: string }) => f.path)).toContain('memory/MEMORY.md');
    const bad = at('memory/entries', 'validate', 'no-such-entry.md');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('neither memory/entries/no-such-entry.md');
    const mv = at('memory/entries', 'mv', '2026-11-25-prefer-small-prs.md', '2026-11-25-small-prs.md', '--json');
    expect(mv.code, mv.stderr).toBe(0);
    expect(existsSync(join(ws, 'memory/entries/2026-11-25-small-prs.md'))).toBe(true);
    expect(existsSync(join(ws, '2026-11-25-small-prs.md'))).toBe(false);
  });
});
