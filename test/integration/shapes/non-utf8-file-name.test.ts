// Bad input B56 (docs/bad-inputs.md): a memory file whose name is not valid UTF-8 (bytes another
// tool wrote, e.g. Latin-1) reaches Node's directory listing with U+FFFD in place of those bytes, so
// no path gitmem forms opens it. Before, it vanished from every read with no word: validate said
// "0 errors", recall did not find it. Now the walk says so and validate reports it as an unreadable
// memory file (a warning); the rest of the workspace is read as before. Real CLI processes over a
// copied fixture; the file is made with its raw bytes.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { runCli, gitFixture, noModelEnv, requireBuiltCli } from '../../support/fixtures.js';

let root: string;
const env = () => noModelEnv(root);

beforeAll(() => {
  requireBuiltCli();
  root = gitFixture('demo');
  // memory/bad<0xff>name.md: a Latin-1 byte, not UTF-8.
  const raw = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  writeFileSync(raw(root, '/memory/bad', [0xff], 'name.md'), '# Bad\n\nraspberry jam\n');
  // A name that truly holds U+FFFD is valid UTF-8 and stays indexed.
  writeFileSync(join(root, 'memory', 'real\uFFFDchar.md'), '# Real\n\ngooseberry fool\n');
});
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('B56: a memory file name that is not valid UTF-8', () => {
  it('is an unreadable-file warning of validate, said once on stderr, not silence', () => {
    const r = runCli(['validate', '--json', '--dir', root], { env: env() });
    expect(r.code).toBe(0);
    const found = (r.json().diagnostics as { path: string; code: string; severity: string; message: string }[])
      .filter((d) => d.code === DiagnosticCode.fileUnreadable)
      .map((d) => [d.path, d.severity, d.message]);
    expect(found).toEqual([
      ['memory/bad\uFFFDname.md', 'warning', expect.stringContaining('file name is not valid UTF-8 (rename it)')],
    ]);
    const human = runCli(['validate', '--dir', root], { env: env() });
    expect(human.stdout).toContain('file name is not valid UTF-8');
  });

  it('recall answers from the rest and says why the file is left out; a real U+FFFD name is indexed', () => {
    const r = runCli(['recall', '--mode', 'keyword', '--json', '--dir', root, '--', 'gooseberry'], { env: env() });
    expect(r.code).toBe(0);
    expect((r.json().results as { path: string }[]).map((h) => h.path)).toEqual(['memory/real\uFFFDchar.md']);
    const said = r.stderr.split('\n').filter((l) => l.includes('not valid UTF-8'));
    expect(said).toEqual([expect.stringContaining('memory/bad\uFFFDname.md')]);
    const jam = runCli(['recall', '--mode', 'keyword', '--json', '--dir', root, '--', 'raspberry'], { env: env() });
    expect(jam.json().results).toEqual([]);
  });
});
