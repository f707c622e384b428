// Bad input U06 (docs/bad-inputs.md): `gitmem doctor` reporting "model ready, 0 vectors" without
// saying what to do. Real CLI, real model: before anything is embedded doctor names `gitmem index`;
// after `gitmem index` the hint is gone.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, git, runCli } from '../../support/fixtures.js';

describe('doctor: vectors missing', { timeout: 120_000 }, () => {
  it('hints `gitmem index` while chunks are not embedded, and not after', () => {
    const ws = copyFixture('demo');
    try {
      git(ws, 'init', '-q');
      const before = runCli(['doctor', '--dir', ws]);
      expect(before.code, before.stderr).toBe(0);
      expect(before.stdout).toMatch(/model +ready, 0 vectors/);
      expect(before.stdout).toMatch(/no chunk is embedded yet: run `gitmem index` to embed them/);
      expect(runCli(['index', '--dir', ws]).code).toBe(0);
      const after = runCli(['doctor', '--dir', ws]);
      expect(after.stdout).toMatch(/model +ready, [1-9]\d* vectors/);
      expect(after.stdout).not.toMatch(/run `gitmem index` to embed/);
    } finally {
      rmSync(dirname(ws), { recursive: true, force: true });
    }
  });
});

describe('doctor: vectors in use', { timeout: 120_000 }, () => {
  it('counts the vectors of the chunks the index holds, not the unused ones kept for an undo', () => {
    const ws = copyFixture('demo');
    try {
      git(ws, 'init', '-q');
      expect(runCli(['index', '--dir', ws]).code).toBe(0);
      const vectors = (r: ReturnType<typeof runCli>) => Number(JSON.parse(r.stdout).model.vectors);
      const chunks = (r: ReturnType<typeof runCli>) => Number(JSON.parse(r.stdout).index.chunks);
      const first = runCli(['doctor', '--json', '--dir', ws]);
      expect(vectors(first)).toBe(chunks(first));
      // An edit replaces one chunk: its old vector is kept unused (an undo reuses it), and not counted.
      const path = join(ws, 'memory', 'CURRENT_STATE.md');
      writeFileSync(path, `${readFileSync(path, 'utf8')}- a brand new line about quokkas\n`);
      expect(runCli(['index', '--dir', ws]).code).toBe(0);
      const after = runCli(['doctor', '--json', '--dir', ws]);
      expect(after.code, after.stderr).toBe(0);
      expect(vectors(after)).toBe(chunks(after));
    } finally {
      rmSync(dirname(ws), { recursive: true, force: true });
    }
  });
});
