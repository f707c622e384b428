// Unit tests for vector freshness (engine/vector-freshness.ts): the one place that decides which
// chunks of a snapshot are embedded now and what recall reports while some are missing. A real
// SemanticIndex over in-memory storage; the embedder is a counting fake (logic under test, not the model).
import { describe, expect, it } from 'vitest';
import { nullLogger } from '../../../src/core/ports.js';
import type { ChunkRecord, IndexSnapshot } from '../../../src/engine/index-manager.js';
import { embedKey, SemanticIndex } from '../../../src/engine/semantic.js';
import { VectorFreshness } from '../../../src/engine/vector-freshness.js';
import type { Embedder } from '../../../src/indexes/embedder.js';
import { MemoryIndexStorage } from '../../support/memory-storage.js';

function countingEmbedder(): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    modelId: 'fake',
    dims: 2,
    fingerprint: 'f'.repeat(64),
    texts,
    async embed(batch) {
      texts.push(...batch);
      return batch.map((t) => Float32Array.from([Math.cos(t.length), Math.sin(t.length)]));
    },
    async dispose() {},
  };
}

function snapshotOf(texts: readonly string[]): IndexSnapshot {
  const chunks = new Map<string, ChunkRecord>();
  texts.forEach((text, i) => {
    const c = { id: `a.md#${i + 1}`, path: 'a.md', text, headingPath: [], startLine: i + 1, endLine: i + 1 };
    chunks.set(c.id, { ...c, vkey: embedKey(c) } as unknown as ChunkRecord);
  });
  return { chunks, source: 'built', ms: 0 } as unknown as IndexSnapshot;
}

describe('VectorFreshness', () => {
  it('embeds at most the limit, reports the rest as partial, then finishes and never walks a finished snapshot again', async () => {
    const embedder = countingEmbedder();
    const vectors = new VectorFreshness(new SemanticIndex(new MemoryIndexStorage(), async () => embedder, nullLogger));
    const snap = snapshotOf(['alpha one', 'beta two two', 'gamma three three three']);

    const first = await vectors.ensure(snap, { limit: 1 });
    expect(first).toMatchObject({ embedded: 1, missing: 2, total: 3 });
    expect(vectors.partial(snap)).toBe(
      '2 of 3 chunks are not embedded yet; run `gitmem index` (vector results are partial)',
    );

    const second = await vectors.ensure(snap);
    expect(second).toMatchObject({ embedded: 2, missing: 0, total: 3 });
    expect(vectors.partial(snap)).toBeUndefined();
    expect(embedder.texts).toHaveLength(3);

    // Checked and complete: answered without asking the vector table (nothing embedded, no time spent).
    expect(await vectors.ensure(snap)).toEqual({ embedded: 0, missing: 0, total: 3, ms: 0, interrupted: false });
    expect(embedder.texts).toHaveLength(3);
  });

  it('a new snapshot embeds only its new chunk; partial() speaks only of the snapshot last checked', async () => {
    const embedder = countingEmbedder();
    const vectors = new VectorFreshness(new SemanticIndex(new MemoryIndexStorage(), async () => embedder, nullLogger));
    const before = snapshotOf(['alpha one', 'beta two two']);
    await vectors.ensure(before);
    expect(embedder.texts).toEqual(['alpha one', 'beta two two']);

    const after = snapshotOf(['alpha one', 'beta two two', 'delta four']);
    expect(vectors.partial(after)).toBeUndefined();
    const rep = await vectors.ensure(after, { limit: 0 });
    expect(rep).toMatchObject({ embedded: 0, missing: 1, total: 3 });
    expect(vectors.partial(after)).toMatch(/^1 of 3 chunks/);
    expect(vectors.partial(before)).toBeUndefined();
    await vectors.ensure(after);
    expect(embedder.texts).toEqual(['alpha one', 'beta two two', 'delta four']);
  });
});
