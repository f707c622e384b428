// Bad input U52 (docs/bad-inputs.md): `gitmem index` ended its summary with "(keyword and vectors)"
// whatever it saved. Real processes over a copy of the demo workspace in a git repository: with no
// model the summary says keyword only; with the index folder's writer lock held by another live
// process (this test's own, written as the lock file a holder writes) it says nothing was saved, and
// `--json` carries the same as `saved`. Once the lock is gone the next run saves both. The shipped
// model (test/support/model.ts) for the embedding run.
import { existsSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, gitFixture } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(): { root: string; indexDir: string } {
  const root = gitFixture('demo');
  const indexDir = join(tempDir(), 'index');
  cleanup.push(dirname(root), dirname(indexDir));
  return { root, indexDir };
}

describe('the index summary says what was saved (U52)', () => {
  it('no model: keyword only, and saved.vectors is false', () => {
    const { root, indexDir } = setup();
    const env = { GITMEM_INDEX_DIR: indexDir, GITMEM_MODEL_DIR: join(indexDir, 'no-model'), GITMEM_NO_HOST: '1' };
    const r = runCli(['index', '--dir', root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/21 chunks in \d+ ms \(keyword only; vectors off\)/);
    expect(r.stdout).not.toContain('keyword and vectors');
    const j = runCli(['index', '--json', '--dir', root], { env });
    expect(j.json().saved).toEqual({ keyword: true, vectors: false });
  });

  it('a run that only embeds (the rest of an interrupted run) says so, not "up to date" (R40)', () => {
    const { root, indexDir } = setup();
    const keywordOnly = {
      GITMEM_INDEX_DIR: indexDir,
      GITMEM_MODEL_DIR: join(indexDir, 'no-model'),
      GITMEM_NO_HOST: '1',
    };
    expect(runCli(['index', '--dir', root], { env: keywordOnly }).code).toBe(0);
    // the keyword index is current; every chunk still lacks its vector, as after a Ctrl-C while embedding
    const env = { GITMEM_INDEX_DIR: indexDir, GITMEM_MODEL_DIR: modelDir(), GITMEM_NO_HOST: '1' };
    const r = runCli(['index', '--dir', root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Index updated \(embedded 21 chunks\): \d+ files, 21 chunks/m);
    expect(r.stdout).not.toContain('up to date');
    const again = runCli(['index', '--dir', root], { env });
    expect(again.stdout).toMatch(/^Index is up to date: \d+ files, 21 chunks/m);
  });

  it('the writer lock held by another live process: nothing saved, and the summary says so', () => {
    const { root, indexDir } = setup();
    const env = { GITMEM_INDEX_DIR: indexDir, GITMEM_MODEL_DIR: modelDir(), GITMEM_NO_HOST: '1' };
    // A first run without the model makes the folder and the keyword index; then the lock is taken.
    const first = runCli(['index', '--dir', root], { env: { ...env, GITMEM_MODEL_DIR: join(indexDir, 'none') } });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(
      join(indexDir, 'write.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), token: 'u52-test', since: new Date().toISOString() }),
    );
    appendFileSync(join(root, 'memory/MEMORY.md'), '\n- capybaraquokka lives near rivers\n');
    const r = runCli(['index', '--dir', root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Vectors: 21 embedded chunks \(21 new\)/);
    expect(r.stdout).toMatch(/\(not saved, kept in memory for this run: another gitmem process writes the index\)/);
    expect(r.stdout).not.toContain('keyword and vectors');
    expect(existsSync(join(indexDir, 'vectors-manifest.json'))).toBe(false);
    const j = runCli(['index', '--json', '--dir', root], { env });
    expect(j.json().saved).toEqual({ keyword: false, vectors: false });

    rmSync(join(indexDir, 'write.lock'));
    const after = runCli(['index', '--dir', root], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/\(keyword and vectors\)/);
    expect(existsSync(join(indexDir, 'vectors-manifest.json'))).toBe(true);
  });
});
