// Bad input R90 (docs/bad-inputs.md): a front-matter `verified:` that the code check ignores — a day
// after tomorrow (R65: it would hide every change to the cited code) or a value that is no date — was
// accepted by `gitmem validate` without a word (an entry's unparseable value got only the schema's
// generic date warning; a note's none). Now each is a `memory.code.verified-date` warning at the
// value, saying the date is ignored when checking whether cited code changed; today and tomorrow are
// quiet. Real CLI in a temp git repository.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, git, noModelEnv, requireBuiltCli, runCli, write } from '../../support/fixtures.js';

let root = '';
let ws = '';
const env = { ...noModelEnv('/nonexistent/x'), TZ: 'UTC' };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function entry(id: string, verified: string): string {
  return `---\nid: ${id}\ntype: decision\ncreated: 2026-12-01\nfiles: [src/pool.ts]\nverified: ${verified}\n---\n\nThe pool in src/pool.ts holds ${id.length} connections.\n`;
}

interface Reported {
  path: string;
  range: { start: { line: number } };
  severity: string;
  code: string;
  message: string;
}

function validateJson(): { status: number; diagnostics: Reported[] } {
  const r = runCli(['validate', '--json', '--dir', ws], { env });
  expect(r.stdout.startsWith('{'), r.stderr).toBe(true);
  return { status: r.code, diagnostics: r.json().diagnostics };
}

beforeAll(() => {
  requireBuiltCli();
  ({ root, ws } = bareWorkspace('entries', { model: { enabled: false } }));
  write(ws, 'src/pool.ts', 'export const pool = 10;\n');
  write(ws, 'memory/entries/future.md', entry('future', '2099-01-01'));
  write(ws, 'memory/entries/soon.md', entry('soon', 'soon'));
  write(ws, 'memory/entries/today.md', entry('today', day(0)));
  write(ws, 'memory/entries/tomorrow.md', entry('tomorrow', day(1)));
  write(ws, 'memory/pool-notes.md', '---\nverified: last week\n---\n\n# Pool\n\nsrc/pool.ts sets the pool size.\n');
  git(ws, 'init', '-q');
  git(ws, '-c', 'user.name=Ann', '-c', 'user.email=ann@example.com', 'add', '-A');
  git(ws, '-c', 'user.name=Ann', '-c', 'user.email=ann@example.com', 'commit', '-qm', 'pool memories');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('R90: validate warns on a verified date the code check ignores', () => {
  it('a day after tomorrow and a value that is no date are warnings at the value; today and tomorrow are quiet', () => {
    const { status, diagnostics } = validateJson();
    expect(status).toBe(0); // warnings only
    const verified = diagnostics.filter((d) => d.code === 'memory.code.verified-date');
    expect(verified).toEqual([
      {
        path: 'memory/entries/future.md',
        range: expect.objectContaining({ start: { line: 5, character: 10 } }),
        severity: 'warning',
        code: 'memory.code.verified-date',
        message: 'verified date 2099-01-01 is in the future; it is ignored when checking whether cited code changed',
      },
      {
        path: 'memory/entries/soon.md',
        range: expect.objectContaining({ start: { line: 5, character: 10 } }),
        severity: 'warning',
        code: 'memory.code.verified-date',
        message:
          'verified value "soon" is not a date (write YYYY-MM-DD); it is ignored when checking whether cited code changed',
      },
      {
        path: 'memory/pool-notes.md',
        range: expect.objectContaining({ start: { line: 1, character: 10 } }),
        severity: 'warning',
        code: 'memory.code.verified-date',
        message:
          'verified value "last week" is not a date (write YYYY-MM-DD); it is ignored when checking whether cited code changed',
      },
    ]);
    // One finding per value: the schema's generic date warning does not repeat it.
    expect(diagnostics.filter((d) => d.path === 'memory/entries/soon.md').map((d) => d.code)).toEqual([
      'memory.code.verified-date',
    ]);
    expect(diagnostics.filter((d) => /today|tomorrow/.test(d.path))).toEqual([]);
  });
});
