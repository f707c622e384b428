// scripts/setup-model.mjs and `gitmem setup` (one implementation, src/platform/model-setup.ts) from a
// local folder (the network path is exercised by `npm run setup`): install + verify, idempotent second
// run, --check, and a clear error naming a tampered file.
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findModelDir, userModelDir } from '../../../src/platform/locations.js';
import { runCli, tempDir } from '../../support/fixtures.js';
import { modelDir, SETUP_SCRIPT } from '../../support/model.js';

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

  it("B63: --from the folder that holds the model folder (a clone's models/) installs that model", () => {
    const src = modelDir();
    const dest = join(mkdtempSync(join(tmpdir(), 'gitmem-setup-')), 'model');
    const r = run('--from', join(src, '..'), '--dest', dest);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`installed model from local folder ${src}`);
    expect(run('--check', '--dest', dest).code).toBe(0);
    // A folder with neither is still refused, naming what is missing.
    const empty = run('--from', tempDir('gitmem-nomodel-'), '--dest', join(dest, '..', 'other'));
    expect(empty.code).toBe(1);
    expect(empty.out).toMatch(/tokenizer\.json: missing/);
  });
});

describe('gitmem setup (the same implementation, user-level folder)', () => {
  it('installs into $XDG_DATA_HOME/gitmem/models, which the model lookup then finds; --check reports damage', () => {
    const src = modelDir();
    const data = tempDir('gitmem-xdg-');
    const env = { XDG_DATA_HOME: data, GITMEM_MODEL_DIR: '' };
    const first = runCli(['setup', '--from', src], { env });
    expect(first.code, first.stderr).toBe(0);
    const dest = join(data, 'gitmem', 'models', 'all-MiniLM-L6-v2-q4');
    expect(first.stdout).toContain(dest);
    expect(existsSync(join(dest, 'onnx', 'model_q4.onnx_data'))).toBe(true);
    // In a clone the commands load models/ first, so plain `--check` verifies that copy (B51): the
    // user-level copy is checked by naming it.
    expect(runCli(['setup', '--check', '--dest', dest], { env }).code).toBe(0);
    const again = runCli(['setup', '--json', '--from', src], { env });
    expect(again.json()).toEqual({ status: 'present', dest });

    const saved = { xdg: process.env.XDG_DATA_HOME, model: process.env.GITMEM_MODEL_DIR };
    try {
      process.env.XDG_DATA_HOME = data;
      delete process.env.GITMEM_MODEL_DIR;
      expect(userModelDir()).toBe(dest);
      expect(findModelDir(undefined)).toBe(dest);
      expect(findModelDir(tempDir('gitmem-nomodel-'))).toBe(dest); // nothing above a bare folder: the user-level copy
    } finally {
      if (saved.xdg === undefined) delete process.env.XDG_DATA_HOME;
      else process.env.XDG_DATA_HOME = saved.xdg;
      if (saved.model !== undefined) process.env.GITMEM_MODEL_DIR = saved.model;
    }

    appendFileSync(join(dest, 'tokenizer.json'), ' ');
    const check = runCli(['setup', '--check', '--json', '--dest', dest], { env });
    expect(check.code).toBe(1);
    expect(check.json().error.code).toBe('embedder.unavailable');
    expect(check.stderr).toMatch(/tokenizer\.json: SHA-256 mismatch/);
    const repair = runCli(['setup', '--from', src], { env });
    expect(repair.code, repair.stderr).toBe(0);
    expect(runCli(['setup', '--check', '--dest', dest], { env }).code).toBe(0);
    const bad = runCli(['setup', '--from', join(data, 'no-such-folder'), '--dest', join(data, 'other')], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not a folder/);
    expect(existsSync(join(data, 'other'))).toBe(false);
  });
});
