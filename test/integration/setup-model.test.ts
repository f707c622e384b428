// scripts/setup-model.mjs from a local folder (the network path is exercised by `npm run setup`):
// install + verify, idempotent second run, --check, and a clear error naming a tampered file.
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelDir, SETUP_SCRIPT } from '../support/model.js';

const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [SETUP_SCRIPT, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
};

describe('setup-model script', () => {
  it('installs from a folder, then does nothing, then catches a tampered file', () => {
    const src = modelDir();
    const dest = join(mkdtempSync(join(tmpdir(), 'gitmem-setup-')), 'model');
    const first = run('--from', src, '--dest', dest);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/installed model from local folder/);
    expect(existsSync(join(dest, 'onnx', 'model_q4.onnx_data'))).toBe(true);

    const second = run('--from', src, '--dest', dest);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/nothing to do/);
    expect(run('--check', '--dest', dest).code).toBe(0);

    chmodSync(join(dest, 'vocab.txt'), 0o644);
    appendFileSync(join(dest, 'vocab.txt'), 'tampered\n');
    const check = run('--check', '--dest', dest);
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/vocab\.txt: SHA-256 mismatch/);

    const fromBad = run('--from', dest, '--dest', join(dest, '..', 'other'));
    expect(fromBad.code).toBe(1);
    expect(fromBad.out).toMatch(/vocab\.txt: SHA-256 mismatch/);
    expect(existsSync(join(dest, '..', 'other'))).toBe(false);

    const repair = run('--from', src, '--dest', dest);
    expect(repair.code, repair.out).toBe(0);
    expect(run('--check', '--dest', dest).code).toBe(0);
    expect(run('--check', '--dest', join(dest, '..', 'missing')).code).toBe(1);
    expect(run('--bogus').code).toBe(1);
  });
});
