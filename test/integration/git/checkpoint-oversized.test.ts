// Bad input U68 (docs/bad-inputs.md): `gitmem checkpoint` commits a memory file over
// limits.maxFileBytes (the file is the user's and git tracks it, so it travels with the memory) but
// says that recall and validate skip it. Before: the file was committed without a word, so a user saw
// "checkpoint … add note memory/big.md" and then never found its text in recall. Now the human output
// warns on stderr and the JSON lists it under `oversized` with its size. Real CLI, real git repository.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, git, runCli } from '../../support/fixtures.js';

let root: string;
let ws: string;
const big = `# Big\n\n${'- a long line of meeting notes about webhook retries\n'.repeat(100)}`; // 5,307 bytes
const env = () => ({ GITMEM_MODEL_DIR: join(root, 'no-model'), GITMEM_NO_HOST: '1' });

beforeAll(() => {
  ({ root, ws } = bareWorkspace('', { limits: { maxFileBytes: 4096 } }));
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- webhook retries use jitter\n');
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'memory');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('U68: checkpoint says which committed file is not indexed', () => {
  it('--json: the oversized file is committed and listed with its size; a small one is not listed', () => {
    writeFileSync(join(ws, 'memory', 'big.md'), big);
    writeFileSync(join(ws, 'memory', 'small.md'), '# Small\n\n- fits\n');
    const r = runCli(['checkpoint', '--dir', ws, '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res.kind).toBe('committed');
    expect(res.changes.added).toEqual(['memory/big.md', 'memory/small.md']);
    expect(res.oversized).toEqual([{ path: 'memory/big.md', bytes: Buffer.byteLength(big) }]);
    expect(git(ws, 'ls-files', 'memory')).toContain('memory/big.md');
  });

  it('human output: a warning that names the file, its size and the cap, with what to do', () => {
    writeFileSync(join(ws, 'memory', 'big.md'), `${big}- one more\n`);
    const r = runCli(['checkpoint', '--dir', ws], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `gitmem: warning: 1 committed memory file is over limits.maxFileBytes (4,096 bytes), so recall and validate skip it: memory/big.md (${(Buffer.byteLength(big) + 11).toLocaleString('en-US')} bytes)`,
    );
    expect(r.stderr).toMatch(/hint: split it, or raise "limits": \{"maxFileBytes": …\} in gitmem\.config\.json/);
  });

  it('a checkpoint that does not commit it again says nothing about it', () => {
    writeFileSync(join(ws, 'memory', 'small.md'), '# Small\n\n- fits, edited\n');
    const r = runCli(['checkpoint', '--dir', ws, '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().oversized).toEqual([]);
    expect(r.stderr).not.toContain('maxFileBytes');
  });
});
