// Bad input R35 (docs/bad-inputs.md): two memory file names that differ only in Unicode
// normalisation. REAL git, the built CLI. A note committed as `memory/café.md` decomposed (NFD, as
// macOS tools write names) had no history for `gitmem log memory/café.md` typed composed (NFC), and a
// rename to the composed spelling cut the note's history in two; with both spellings on disk validate
// and doctor said nothing, though links, get and a macOS checkout take them for one file. Now log
// compares paths in NFC, and validate and doctor name the pair.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, git, runCli } from '../../support/fixtures.js';

const nfd = (s: string) => s.normalize('NFD');
const nfc = (s: string) => s.normalize('NFC');
let root: string;
let ws: string;

beforeAll(() => {
  ({ root, ws } = bareWorkspace(''));
  git(ws, 'init', '-q', '-b', 'main');
  writeFileSync(join(ws, 'memory', `${nfd('café')}.md`), '# Café\n\n- the espresso machine needs descaling\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'cafe note (NFD name)');
  // A tool that writes composed names renames it, then the note is edited.
  renameSync(join(ws, 'memory', `${nfd('café')}.md`), join(ws, 'memory', `${nfc('café')}.md`));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'cafe note renamed to NFC');
  writeFileSync(join(ws, 'memory', `${nfc('café')}.md`), '# Café\n\n- descaled on Monday\n');
  git(ws, 'commit', '-qam', 'cafe note edited');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const logged = (path: string) => {
  const r = runCli(['log', path, '--dir', ws, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (r.json().commits as { summary: string }[]).map((c) => c.summary);
};

describe('one name in two Unicode normal forms (R35)', { timeout: 60_000 }, () => {
  it('log finds the whole history whichever spelling is given', () => {
    const all = ['cafe note edited', 'cafe note renamed to NFC', 'cafe note (NFD name)'];
    expect(logged(`memory/${nfc('café')}.md`)).toEqual(all);
    expect(logged(`memory/${nfd('café')}.md`)).toEqual(all);
  });

  it('validate and doctor warn when both spellings are memory files', () => {
    const second = join(ws, 'memory', `${nfd('café')}.md`);
    writeFileSync(second, '# Café\n\n- a second note under the decomposed name\n');
    try {
      const v = runCli(['validate', '--dir', ws, '--json']);
      const found = (v.json().diagnostics as { code: string; path: string; severity: string }[]).filter(
        (d) => d.code === 'memory.file.same-name-forms',
      );
      expect(found.map((d) => d.path).sort()).toEqual([`memory/${nfc('café')}.md`, `memory/${nfd('café')}.md`].sort());
      expect(found.every((d) => d.severity === 'warning')).toBe(true);
      const doctor = runCli(['doctor', '--dir', ws, '--json']);
      expect(doctor.json().files.sameName).toEqual([[`memory/${nfc('café')}.md`, `memory/${nfd('café')}.md`].sort()]);
      const text = runCli(['doctor', '--dir', ws]);
      expect(text.stdout).toContain('one name in two Unicode normal forms (NFC/NFD)');
    } finally {
      rmSync(second);
    }
  });
});
