// Bad input B66 (docs/bad-inputs.md): a saved index whose checksums hold but whose file table gives
// two files chunk counts their chunk records do not have (what a buggy or older writer could leave).
// Real CLI over the demo workspace: the one-shot recall finds it when it loads the index, says so and
// rebuilds, and answers as a fresh index does; the next call loads the rebuilt index quietly.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../src/core/hash.js';
import { decodeFileTable, encodeFileTable } from '../../../src/indexes/manifest/file-table.js';
import { copyFixture, git, noModelEnv, okOutput, runCli } from '../../support/fixtures.js';

/** Move one chunk of the first file's count to the second's in the base file table; checksums redone. */
function shiftChunkCounts(indexDir: string): [string, string] {
  const manifestPath = join(indexDir, 'manifest.json');
  const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const name = m.files.base as string;
  const rows = decodeFileTable(new Uint8Array(readFileSync(join(indexDir, name)))) as [string, any][];
  const withChunks = rows.filter((r) => r[1] && r[1].chunkCount > 1);
  const [a, b] = [withChunks[0]!, withChunks[1]!];
  a[1] = { ...a[1], chunkCount: a[1].chunkCount + 1 };
  b[1] = { ...b[1], chunkCount: b[1].chunkCount - 1 };
  const bytes = encodeFileTable(rows);
  writeFileSync(join(indexDir, name), bytes);
  const info = m.artifacts[name];
  info.sha256 = sha256(bytes);
  info.bytes = bytes.byteLength;
  delete info.stat;
  delete info.sample;
  writeFileSync(manifestPath, JSON.stringify(m));
  return [a[0], b[0]];
}

describe('B66: per-file chunk counts that disagree with the chunk records', { timeout: 120_000 }, () => {
  it('fail the load, which rebuilds; recall answers as a fresh index does', () => {
    const ws = copyFixture('demo');
    try {
      git(ws, 'init', '-q');
      const env = noModelEnv(ws);
      const args = ['recall', '--mode', 'keyword', '--json', '--no-host', '--dir', ws, '--', 'webhook', 'retries'];
      const fresh = okOutput(runCli(args, { env }));
      const location = okOutput(runCli(['doctor', '--json', '--dir', ws], { env })).index.location as string;
      const [a] = shiftChunkCounts(location);
      const damaged = runCli(args, { env });
      expect(damaged.code, damaged.stderr + damaged.stdout).toBe(0);
      expect(damaged.stderr).toContain(`chunk count of ${a} does not match`);
      expect(damaged.stderr).toMatch(/rebuilding it from the files/);
      expect(damaged.stderr).not.toMatch(/could not save the index/);
      const strip = (r: any) => r.results.map((h: any) => ({ ...h, score: Number(h.score.toFixed(6)) }));
      expect(strip(damaged.json())).toEqual(strip(fresh));
      const after = runCli(args, { env });
      expect(after.code).toBe(0);
      expect(after.stderr).not.toMatch(/not usable|does not match/);
      expect(strip(after.json())).toEqual(strip(fresh));
    } finally {
      rmSync(dirname(ws), { recursive: true, force: true });
    }
  });
});
