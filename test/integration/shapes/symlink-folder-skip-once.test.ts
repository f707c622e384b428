// Bad input U65 (docs/bad-inputs.md): a symlinked folder whose files the walk already takes at their
// own paths is reported once, as a folder, not once per file. Before, `memory/alias -> entries` made
// `gitmem index` print one "skipped memory/alias/<file>: symlink to memory/entries/<file>, indexed
// there" line for each entry. Real CLI processes on a committed copy of the demo workspace.
import { readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, runCli, noModelEnv } from '../../support/fixtures.js';

const root = committedFixture('demo');
const env = noModelEnv(root);
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('U65: one skip line per symlinked folder', () => {
  it('index and validate say the folder once and no file under it', () => {
    symlinkSync('entries', join(root, 'memory/alias'));
    expect(readdirSync(join(root, 'memory/entries')).length).toBeGreaterThan(1);
    for (const args of [['index'], ['validate']]) {
      const r = runCli([...args, '--dir', root], { env });
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stderr.split('\n').filter((l) => l.includes('memory/alias'));
      expect(lines, r.stderr).toEqual([
        'gitmem: warning: skipped memory/alias: symlink to memory/entries, indexed there',
      ]);
    }
  });

  it('recall answers under the files’ own paths only', () => {
    const r = runCli(['recall', 'connection pool', '--mode', 'keyword', '--json', '--dir', root], { env });
    expect(r.code, r.stderr).toBe(0);
    const paths = r.json().results.map((x: { path: string }) => x.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.some((p: string) => p.startsWith('memory/alias/'))).toBe(false);
  });
});
