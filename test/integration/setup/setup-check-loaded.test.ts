// Bad input B51 (docs/bad-inputs.md): `gitmem setup` and the commands looked for the model in two
// different places. The commands load GITMEM_MODEL_DIR, else the package's models/ folder (where
// `npm run setup` puts it in a clone), else the user-level folder; `gitmem setup --check` looked only
// at the user-level folder. In a clone after `npm run setup`, recall and doctor used the model while
// `setup --check` said "model not installed … run: gitmem setup (or npm run setup in a clone)", exit 1;
// and `gitmem setup` with GITMEM_MODEL_DIR set installed into the user folder, which no command then
// read. Now `--check` verifies the model the commands load and names it, and an install without
// `--dest` goes where GITMEM_MODEL_DIR points when it is set.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';

describe('setup looks where the commands look (B51)', { timeout: 120_000 }, () => {
  it('--check verifies the model the commands load (the clone models/ folder), not only the user folder', () => {
    const data = tempDir('gitmem-xdg-'); // an empty user-level folder
    const env = { XDG_DATA_HOME: data, GITMEM_MODEL_DIR: '' };
    const loaded = modelDir();
    expect(loaded.startsWith(join(REPO, 'models'))).toBe(true);
    const check = runCli(['setup', '--check', '--json'], { env });
    expect(check.code, check.stderr).toBe(0);
    expect(check.json()).toEqual({ status: 'verified', dest: loaded });
    // The user-level folder is still checked when named.
    const user = join(data, 'gitmem', 'models', 'all-MiniLM-L6-v2-q4');
    expect(runCli(['setup', '--check', '--dest', user], { env }).code).toBe(1);
  });

  it('an install without --dest goes to GITMEM_MODEL_DIR when it is set, and --check finds it there', () => {
    const data = tempDir('gitmem-xdg-');
    const target = join(tempDir('gitmem-modeldir-'), 'model');
    const env = { XDG_DATA_HOME: data, GITMEM_MODEL_DIR: target };
    const install = runCli(['setup', '--json', '--from', modelDir()], { env });
    expect(install.code, install.stderr).toBe(0);
    expect(install.json()).toMatchObject({ status: 'installed', dest: target });
    expect(existsSync(join(target, 'onnx', 'model_q4.onnx_data'))).toBe(true);
    expect(existsSync(join(data, 'gitmem'))).toBe(false);
    const check = runCli(['setup', '--check', '--json'], { env });
    expect(check.json()).toEqual({ status: 'verified', dest: target });
  });
});
