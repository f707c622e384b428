// Bad input B54 (docs/bad-inputs.md): the same name in two Unicode normal forms. macOS tools write
// file names decomposed (NFD: `e` + U+0301), and text copied from them carries that form, while what
// people type elsewhere is composed (NFC: `é`). A note named `café-notes.md` in NFD was not found by
// `[[café-notes]]` or `[x](café-notes.md)` typed in NFC, an entry whose id was written in NFD was not
// found by `[[café-entry]]` nor by `gitmem get café-entry`: validate reported the links unresolved
// though the names read the same. Names, ids and paths are now compared in NFC.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, bareWorkspace } from '../../support/fixtures.js';

let root: string;
let ws: string;
const nfd = (s: string) => s.normalize('NFD');
const nfc = (s: string) => s.normalize('NFC');

beforeAll(() => {
  ({ root, ws } = bareWorkspace());
  writeFileSync(
    join(ws, 'memory', `${nfd('café-notes')}.md`),
    '# Café notes\n\n- the espresso machine needs descaling\n',
  );
  writeFileSync(
    join(ws, 'memory', 'entries', 'cafe.md'),
    `---\nid: ${nfd('café-entry')}\ntype: decision\n---\n\nBuy the beans from the roaster.\n`,
  );
  writeFileSync(
    join(ws, 'memory', 'MEMORY.md'),
    `# Memory\n\n- see [[${nfc('café-notes')}]] and [notes](${nfc('café-notes')}.md)\n- decided in [[${nfc('café-entry')}]]\n`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('names in another Unicode normal form (B54)', { timeout: 60_000 }, () => {
  it('links typed in NFC resolve to an NFD file name and an NFD id', () => {
    const r = runCli(['validate', '--dir', ws, '--json']);
    const unresolved = (r.json().diagnostics as { code: string; message: string }[]).filter(
      (d) => d.code === 'memory.link.unresolved',
    );
    expect(unresolved).toEqual([]);
  });

  it('get finds the entry by its id typed in NFC', () => {
    const r = runCli(['get', nfc('café-entry'), '--dir', ws, '--no-host', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().path).toBe('memory/entries/cafe.md');
  });
});
