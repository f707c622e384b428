// Unit tests for vector freshness (engine/vectors/vector-freshness.ts): the one place that decides which
// chunks of a snapshot are embedded now and what recall reports while some are missing. A real
// SemanticIndex over in-memory storage; the embedder is a counting fake (logic under test, not the model).
import { describe, expect, it } from 'vitest';
import { nullLogger } from '../../../../src/core/ports.js';
import type { ChunkRecord, IndexSnapshot } from '../../../../src/engine/chunks/index-manager.js';
import { embedKey } from '../../../../src/engine/vectors/embed-text.js';
import { SemanticIndex } from '../../../../src/engine/vectors/semantic.js';
import { VectorFreshness } from '../../../../src/engine/vectors/vector-freshness.js';
import { ChunkTable } from '../../../../src/engine/live/chunk-table.js';
import { LazyFileState } from '../../../../src/engine/live/lazy-records.js';
import type { FileState } from '../../../../src/engine/live/live-index-types.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';
import { countingEmbedder } from '../../../support/fake-embedder.js';

function recordsOf(texts: readonly string[], path = 'a.md'): ChunkRecord[] {
  return texts.map((text, i) => {
    const c = { id: `${path}#${i + 1}`, path, text, headingPath: [], startLine: i + 1, endLine: i + 1 };
    return { ...c, vkey: embedKey(c) } as unknown as ChunkRecord;
  });
}

function snapshotOf(texts: readonly string[]): IndexSnapshot {
  const chunks = new Map(recordsOf(texts).map((r) => [r.id, r]));
  return { chunks, source: 'built', ms: 0 } as unknown as IndexSnapshot;
}

/** A snapshot of one file per text, loaded lazily (as from disk); `decoded` lists the files whose records were read. */
function lazySnapshot(texts: readonly string[], decoded: string[]): IndexSnapshot {
  const files = new Map<string, FileState>();
  texts.forEach((text, i) => {
    const path = `f${i}.md`;
    const recs = recordsOf([text], path);
    const load = () => {
      decoded.push(path);
      return recs;
    };
    files.set(
      path,
      new LazyFileState(`h${i}`, undefined, 1, load, false, () => recs.map((r) => [r.vkey!, r.id] as const)),
    );
  });
  const chunks = new ChunkTable(files, [...files.keys()].sort());
  return { chunks, source: 'loaded', ms: 0 } as unknown as IndexSnapshot;
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

  it('a loaded snapshot is checked from its key columns: only the record to embed is decoded', async () => {
    const embedder = countingEmbedder();
    const semantic = new SemanticIndex(new MemoryIndexStorage(), async () => embedder, nullLogger);
    const vectors = new VectorFreshness(semantic);
    await vectors.ensure(snapshotOf(['alpha one']));
    await semantic.sync(recordsOf(['alpha one', 'beta two two'], 'old.md'));
    const decoded: string[] = [];
    // f0 and f1 have vectors (same texts as above); f2 is new.
    const rep = await vectors.ensure(lazySnapshot(['alpha one', 'beta two two', 'gamma three'], decoded));
    expect(rep).toMatchObject({ embedded: 1, missing: 0, total: 3 });
    expect(decoded).toEqual(['f2.md']);
    expect(embedder.texts.at(-1)).toBe('gamma three');
  });

  it('a deleted chunk keeps its vector for an undo: restoring it embeds nothing; kept vectors are not counted', async () => {
    const embedder = countingEmbedder();
    const semantic = new SemanticIndex(new MemoryIndexStorage(), async () => embedder, nullLogger);
    const vectors = new VectorFreshness(semantic);
    await vectors.ensure(snapshotOf(['alpha one', 'beta two two']));
    expect(embedder.texts).toHaveLength(2);
    const deleted = await vectors.ensure(snapshotOf(['alpha one']));
    expect(deleted).toMatchObject({ embedded: 0, missing: 0, total: 1 });
    expect(semantic.size).toBe(1);
    expect(semantic.keys()).toEqual([embedKey({ text: 'alpha one', headingPath: [] })]);
    const restored = await vectors.ensure(snapshotOf(['alpha one', 'beta two two']));
    expect(restored).toMatchObject({ embedded: 0, missing: 0, total: 2 });
    expect(embedder.texts).toHaveLength(2);
    expect(semantic.size).toBe(2);
  });

  it('kept vectors of deleted chunks are bounded: past 1,024 (or 5 % of the used ones) the oldest go first', async () => {
    const embedder = countingEmbedder();
    const semantic = new SemanticIndex(new MemoryIndexStorage(), async () => embedder, nullLogger);
    const a = recordsOf(
      Array.from({ length: 100 }, (_, i) => `first chunk ${i}`),
      'a.md',
    );
    const b = recordsOf(
      Array.from({ length: 1000 }, (_, i) => `second chunk ${i}`),
      'b.md',
    );
    const only = recordsOf(['only this one'], 'c.md');
    await semantic.sync(a, { persist: false });
    await semantic.sync(b, { persist: false }); // a's 100 unused
    await semantic.sync(only, { persist: false }); // and b's 1,000: 1,100 unused, 76 over the bound
    expect(semantic.size).toBe(1);
    expect((await semantic.sync([...b, ...only], { persist: false })).embedded).toBe(0);
    expect((await semantic.sync([...a, ...b, ...only], { persist: false })).embedded).toBe(76);
  });
});
