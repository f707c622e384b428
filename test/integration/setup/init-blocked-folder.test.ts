// Bad input U45 (docs/bad-inputs.md): `gitmem init` in a folder where a plain file is named like the
// layout's memory folder (`memory`). It wrote gitmem.config.json, then failed on the first memory
// file with "cannot write memory/MEMORY.md: EEXIST: file already exists, mkdir '<machine path>'",
// leaving the config behind. The real CLI in a temp folder: refused before anything is written, the
// message names the file in the way, and after it is moved away init scaffolds as usual.
import { existsSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/fixtures.js';

describe('init where a file stands in place of the memory folder (U45)', { timeout: 60_000 }, () => {
  it('U45: refused with path.invalid naming the file, nothing written; init works once it is moved', () => {
    const root = tempDir();
    writeFileSync(join(root, 'memory'), 'a plain file, not a folder\n');
    const r = runCli(['init', '--dir', root, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('path.invalid');
    expect(r.stderr).toMatch(/^gitmem: error: memory is a file, not a folder; .*nothing written$/m);
    expect(r.stderr).not.toContain(root);
    expect(readdirSync(root)).toEqual(['memory']);

    renameSync(join(root, 'memory'), join(root, 'notes.txt'));
    const again = runCli(['init', '--dir', root]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(root, 'memory', 'MEMORY.md'))).toBe(true);
    expect(existsSync(join(root, 'gitmem.config.json'))).toBe(true);
  });
});
