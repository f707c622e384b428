// Bad input B59 (docs/bad-inputs.md): a memory file whose name holds a line break. Before, it was
// indexed, and every line that named it split in two: recall printed "1. memory/new" and then a line
// "line.md:1 ..." of its own, and so did validate, log and the warnings, so a name could forge a line
// of gitmem's output; `get` of it failed with an error that printed the raw break. Now the walk
// leaves it out and says so (its break shown as a symbol), validate reports it as an unreadable
// memory file, and an error echoes a ref with a break escaped; the watcher leaves it out too. Real CLI
// processes over a copied fixture, real chokidar events.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { runCli, gitFixture, noModelEnv, requireBuiltCli } from '../../support/fixtures.js';
import { paths, watchWorkspace, workspace } from '../../support/watch.js';

let root: string;
const env = () => noModelEnv(root);
/** Every stderr line is gitmem's own (a prefix), none a fragment of a split one. */
const ownLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l !== '')
    .every((l) => l.startsWith('gitmem: ') || l.startsWith('  hint: '));

beforeAll(() => {
  requireBuiltCli();
  root = gitFixture('demo');
  writeFileSync(join(root, 'memory', 'new\n 2. forged.md'), '- quince paste\n');
});
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('B59: a memory file name with a line break', () => {
  it('is left out and reported as unreadable, named with its break as a symbol', () => {
    const r = runCli(['validate', '--json', '--dir', root], { env: env() });
    expect(r.code).toBe(0);
    const found = (r.json().diagnostics as { path: string; code: string; message: string }[])
      .filter((d) => d.code === DiagnosticCode.fileUnreadable)
      .map((d) => [d.path, d.message]);
    expect(found).toEqual([['memory/new\u240a 2. forged.md', expect.stringContaining('holds a line break')]]);
    expect(ownLines(r.stderr)).toBe(true);
    const human = runCli(['validate', '--dir', root], { env: env() });
    expect(human.stdout.split('\n').some((l) => l.startsWith(' 2. forged.md'))).toBe(false);
  });

  it('recall never prints a forged line from it, and get escapes the ref in its error', () => {
    const r = runCli(['recall', '--mode', 'keyword', '--dir', root, '--', 'quince'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').some((l) => l.startsWith(' 2. forged.md'))).toBe(false);
    expect(ownLines(r.stderr)).toBe(true);
    const g = runCli(['get', '--dir', root, 'memory/new\nx.md'], { env: env() });
    expect(g.code).toBe(1);
    expect(g.stderr).toContain('no memory with id "memory/new\\nx.md"');
    expect(ownLines(g.stderr)).toBe(true);
  });

  it('a running watcher leaves a file created with such a name out, says why, and keeps going', async () => {
    const ws = workspace({ 'memory/MEMORY.md': '# M\n\n- start\n' });
    const w = await watchWorkspace(ws);
    const skips: string[] = [];
    w.watcher()!.onDidSkip((p) => skips.push(`${p.path}: ${p.reason}`));
    try {
      writeFileSync(join(ws, 'memory', 'evil\n 2. forged.md'), '- medlar jelly\n');
      const after = w.next((e) => e.upserted.includes('memory/after.md'));
      writeFileSync(join(ws, 'memory', 'after.md'), '# after\n\n- medlar crumble\n');
      await after;
      expect(await paths(w.mem, 'medlar')).toEqual(['memory/after.md']);
      expect(skips).toEqual([
        'memory/evil\u240a 2. forged.md: name "evil\\n 2. forged.md" holds a line break (rename it)',
      ]);
    } finally {
      await w.stop();
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
