// Bad input B62 (docs/bad-inputs.md): a symlink that leads outside the workspace is reported only where
// memory could be. Before, every command in a repository with `host.txt -> /etc/hostname` or
// `vendor-docs -> /usr/share/doc` at its root printed "skipped …: symlink leads outside the workspace"
// for each, though no memory file can have those paths; links at memory paths are still said, so
// nothing that could be memory is hidden. Real CLI processes on a committed copy of the demo workspace.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, noModelEnv, runCli, tempDir } from '../../support/fixtures.js';

const root = committedFixture('demo');
const env = noModelEnv(root);
const outside = tempDir();
afterAll(() => {
  rmSync(dirname(root), { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('B62: links outside the workspace are said only at memory paths', () => {
  it('recall, index and validate are quiet about a link no memory file can be at, and name each one that can', () => {
    mkdirSync(join(outside, 'docs'));
    writeFileSync(join(outside, 'docs', 'readme.md'), '# Outside\n\nnot memory\n');
    writeFileSync(join(outside, 'note.md'), '# Outside note\n');
    symlinkSync(join(outside, 'note.md'), join(root, 'host.md'));
    symlinkSync(join(outside, 'docs'), join(root, 'vendor-docs'));
    symlinkSync(join(outside, 'note.md'), join(root, 'memory', 'outside.md'));
    symlinkSync(join(outside, 'docs'), join(root, 'memory', 'ext'));
    for (const args of [['recall', 'webhook', '--mode', 'keyword'], ['index'], ['validate']]) {
      const r = runCli([...args, '--dir', root], { env });
      expect(r.code, r.stderr).toBe(0);
      const skipped = r.stderr.split('\n').filter((l) => l.includes('leads outside'));
      expect(skipped, args[0]).toEqual([
        'gitmem: warning: skipped memory/ext: symlink leads outside the workspace',
        'gitmem: warning: skipped memory/outside.md: symlink leads outside the workspace',
      ]);
    }
  });
});
