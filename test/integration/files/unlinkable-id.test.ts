// Bad input B50 (docs/bad-inputs.md): the entry schema asked only that an `id` be a non-empty string,
// so a hand-written id holding a line break (`id: "two\nlines"`), a control character, a `|`, `#`
// or `]]` validated clean with exit 0. No `[[…]]` link can name such an entry (the link parser stops at a line
// break or bracket, and cuts at `|` and `#`), recall's result line broke in two at the line break, and
// a checkpoint trailer wrote it as another id. `gitmem validate` now reports it as
// `memory.entry.unlinkable-id` (error) at the `id:` value and says why; a usable id is not reported
// (an id of spaces falls back to the file slug, and surrounding spaces are trimmed, as links are).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, bareWorkspace } from '../../support/fixtures.js';

let root: string;
let ws: string;

const entry = (id: string, body: string) => `---\nid: ${id}\ntype: decision\n---\n\n${body}\n`;

beforeAll(() => {
  ({ root, ws } = bareWorkspace());
  const files: Record<string, string> = {
    'line-break.md': entry('"two\\nlines"', 'An id with a line break.'),
    'pipe.md': entry('"use lunr | bm25"', 'An id with a pipe.'),
    'hash.md': entry('"step#2"', 'An id with a hash.'),
    'brackets.md': entry('"[[other]]"', 'An id in brackets.'),
    'blank.md': entry('"  "', 'An id of spaces: the slug "blank" is its id.'),
    'bell.md': entry('"ring\\abell"', 'An id with a control character.'),
    'padded.md': entry('" padded"', 'An id with a leading space, read as "padded".'),
    'fine.md': entry('use-lunr.v2_final', 'A usable id.'),
    'spaced.md': entry('"use postgres 16"', 'A usable id with spaces, links as [[use postgres 16]].'),
    'unicode.md': entry('记忆-迁移', 'A usable id in Chinese.'),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(ws, 'memory', 'entries', name), text);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an id no link can name (B50)', { timeout: 60_000 }, () => {
  it('is an error of validate, at the id value, with the reason', () => {
    const r = runCli(['validate', '--dir', ws, '--json']);
    expect(r.code).toBe(1);
    const diags = (r.json().diagnostics as { path: string; code: string; message: string; range: any }[]).filter(
      (d) => d.code === 'memory.entry.unlinkable-id',
    );
    const byFile = Object.fromEntries(diags.map((d) => [d.path.replace('memory/entries/', ''), d]));
    expect(Object.keys(byFile).sort()).toEqual(
      ['bell.md', 'brackets.md', 'hash.md', 'line-break.md', 'pipe.md'].sort(),
    );
    expect(byFile['line-break.md']!.message).toMatch(/line break/);
    expect(byFile['pipe.md']!.message).toMatch(/"\|"/);
    expect(byFile['hash.md']!.message).toMatch(/"#"/);
    expect(byFile['brackets.md']!.message).toMatch(/bracket/);
    expect(byFile['bell.md']!.message).toMatch(/control character/);
    expect(byFile['pipe.md']!.range.start.line).toBe(1);
    // The usable id with spaces is one a link names: its own [[use postgres 16]] resolves.
    const all = r.json().diagnostics as { path: string; code: string }[];
    expect(all.filter((d) => d.path === 'memory/entries/spaced.md')).toEqual([]);
  });

  it('validating one file reports it too', () => {
    const r = runCli(['validate', 'memory/entries/pipe.md', '--dir', ws]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('memory.entry.unlinkable-id');
  });
});
