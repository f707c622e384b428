// Loading saved vectors (engine/semantic.ts over platform/index-storage.ts): the vector artifact is
// opened for ranged reads (the table keeps int8 codes and re-reads rows from it); what loads back scores exactly as what was saved, and a
// truncated or damaged vector file is refused (then re-embedded), never half-read. Real index storage
// in a temp folder; the embedder is a fake (deterministic unit vectors), this tests the storage side.
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nullLogger } from '../../../src/core/ports.js';
import type { Embedder } from '../../../src/indexes/embedder.js';
import { SemanticIndex } from '../../../src/engine/semantic.js';
import { noteChunk } from '../../support/chunk-record.js';
import type { ChunkRecord } from '../../../src/engine/index-manager.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';

/** 8 dims (the WebAssembly kernel's path); each text's vector from its character codes. */
function fakeEmbedder(): Embedder & { calls: number } {
  const e = {
    modelId: 'fake',
    dims: 8,
    fingerprint: 'fake-load-1',
    calls: 0,
    async embed(texts: readonly string[]) {
      e.calls += texts.length;
      return texts.map((t) => {
        const v = Float32Array.from({ length: 8 }, (_, i) => (t.charCodeAt(i % t.length) % 17) + i);
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      });
    },
    async dispose() {},
  };
  return e;
}

function records(n: number): ChunkRecord[] {
  return Array.from({ length: n }, (_, i) =>
    noteChunk(`a.md#${i + 1}`, 'a.md', i + 1, `chunk ${i} ${'abcdefgh'.slice(i % 8)} ${i * 7}`),
  );
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-semantic-load-'));
  dirs.push(dir);
  return dir;
}

describe('SemanticIndex load', () => {
  it('vectors saved and loaded in a fresh index score exactly as before, nothing re-embedded', async () => {
    const dir = tempDir();
    const recs = records(40);
    const first = new SemanticIndex(createIndexStorage(dir), async () => fakeEmbedder(), nullLogger);
    await first.sync(recs);
    const before = await first.search('chunk 3 defgh', 10);
    const embedder = fakeEmbedder();
    const second = new SemanticIndex(createIndexStorage(dir), async () => embedder, nullLogger);
    const rep = await second.sync(recs);
    expect(rep).toMatchObject({ embedded: 0, total: 40 });
    expect(embedder.calls).toBe(0);
    expect(await second.search('chunk 3 defgh', 10)).toEqual(before);
    // The vector manifest records stat keys: an unchanged file is checked by length and sample.
    const manifest = JSON.parse(readFileSync(join(dir, 'vectors-manifest.json'), 'utf8')) as {
      artifacts: Record<string, { stat?: string; sample?: string }>;
    };
    const f32 = Object.entries(manifest.artifacts).find(([n]) => n.endsWith('.f32'))![1];
    expect(f32.stat).toMatch(/^\d+:\d+:\d+:\d+$/);
    expect(f32.sample).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a truncated vector file is refused and re-embedded; a same-length damaged one fails its checksum', async () => {
    const dir = tempDir();
    const recs = records(12);
    await new SemanticIndex(createIndexStorage(dir), async () => fakeEmbedder(), nullLogger).sync(recs);
    const file = join(dir, 'vectors-vectors.f32');
    const whole = readFileSync(file);
    truncateSync(file, whole.length - 4);
    const e1 = fakeEmbedder();
    expect((await new SemanticIndex(createIndexStorage(dir), async () => e1, nullLogger).sync(recs)).embedded).toBe(12);
    // The re-embed saved again; damage it in the middle with its length kept (stat changes: full hash).
    const again = readFileSync(file);
    expect(again.length).toBe(whole.length);
    again[again.length >> 1]! ^= 0xff;
    writeFileSync(file, again);
    const e2 = fakeEmbedder();
    expect((await new SemanticIndex(createIndexStorage(dir), async () => e2, nullLogger).sync(recs)).embedded).toBe(12);
  });
});
