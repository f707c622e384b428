// Bad input B55 (docs/bad-inputs.md): B54's other half. `supersedes:` (and `compatible_with:`) name
// ids, and the use cases that act on them compared the strings as they were: an entry whose id was
// written decomposed (NFD) and superseded by `supersedes: [café-rule]` typed composed (NFC) passed
// validate (B54 resolves it) yet recall still served the old entry as current, and gitmem dedupe
// reported the correction as a duplicate of the entry it supersedes (U57). Every comparison of an id
// list with an id now goes through the one comparison form of core/workspace.ts (NFC).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, bareWorkspace } from '../../support/fixtures.js';

let root: string;
let ws: string;

beforeAll(() => {
  ({ root, ws } = bareWorkspace());
  const text = 'Brew the espresso at 93 degrees with the house blend from the roaster.';
  writeFileSync(
    join(ws, 'memory', 'entries', 'old.md'),
    `---\nid: ${'café-rule'.normalize('NFD')}\ntype: decision\ncreated: 2026-11-01\n---\n\n${text}\n`,
  );
  writeFileSync(
    join(ws, 'memory', 'entries', 'new.md'),
    `---\nid: new-rule\ntype: decision\ncreated: 2026-11-20\nsupersedes: [${'café-rule'.normalize('NFC')}]\n---\n\n${text}\n`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an id list naming an id in another normal form (B55)', { timeout: 60_000 }, () => {
  it('validate resolves it (B54)', () => {
    const r = runCli(['validate', '--dir', ws, '--json']);
    expect(r.json().diagnostics).toEqual([]);
  });

  it('recall hides the superseded entry, as when both forms are the same', () => {
    const r = runCli([
      'recall',
      'espresso degrees house blend',
      '--dir',
      ws,
      '--no-host',
      '--mode',
      'keyword',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const paths = (r.json().results as { path: string }[]).map((x) => x.path);
    expect(paths).toEqual(['memory/entries/new.md']);
  });

  it('dedupe does not report the correction as a duplicate of the entry it supersedes', () => {
    const r = runCli(['dedupe', '--dir', ws, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.stringify(r.json())).not.toContain('new.md');
  });
});
