// Bad input U01 (docs/bad-inputs.md): an index folder gitmem cannot write. `gitmem index` exists to
// save the index, so a failed save is an error (exit 1, `index.write-failed`, a hint; a JSON error with
// --json), not "Index updated"; recall still answers from memory with a warning; once the folder is
// writable again `gitmem index` saves and exits 0. Real CLI, real git, a file where the folder must be
// (so the case holds for root too, where permission bits do not stop writes).
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFixture, git, runCli } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('gitmem index with an unwritable index folder', { timeout: 120_000 }, () => {
  it('is a clear error with exit 1; recall still answers; a writable folder saves again', () => {
    const ws = copyFixture('demo');
    dirs.push(dirname(ws));
    git(ws, 'init', '-q');
    const blocker = join(ws, '.git', 'gitmem');
    writeFileSync(blocker, 'not a folder\n');
    const r = runCli(['index', '--dir', ws]);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).not.toMatch(/Index updated/);
    expect(r.stderr).toMatch(/^gitmem: error: could not save the index/m);
    expect(r.stderr).toMatch(/^ {2}hint: .*index\.dir/m);
    const j = runCli(['index', '--json', '--dir', ws]);
    expect(j.code).toBe(1);
    expect(j.json().error.code).toBe('index.write-failed');
    // Reading is not the index's job to persist: recall answers from memory and warns.
    const recall = runCli(['recall', 'connection pool', '--mode', 'keyword', '--json', '--dir', ws]);
    expect(recall.code).toBe(0);
    expect(recall.json().results.length).toBeGreaterThan(0);
    expect(recall.stderr).toMatch(/could not save the index/);
    rmSync(blocker);
    const fixed = runCli(['index', '--dir', ws]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/Index updated/);
  });
});
