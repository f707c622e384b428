// SemanticIndex.search with `also`: keys outside the top k are scored too (hybrid re-rank of keyword
// candidates, `recall.vectorRescore`); several query texts search with the normalised mean of their
// embeddings (`recall.vectorCommonWords`). Unit test of the logic with a fake embedder (fixed unit vectors).
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../../src/indexes/embed/embedder.js';
import type { ChunkRecord } from '../../../../src/engine/chunks/index-manager.js';
import { embedKey } from '../../../../src/engine/vectors/embed-text.js';
import { SemanticIndex } from '../../../../src/engine/vectors/semantic.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';

const DIMS = 8;
/** Unit vector (cos θ, sin θ, 0, …) per text: cosines between texts are cos(θa − θb). */
const ANGLE: Record<string, number> = { q: 0, near: 0.1, mid: 0.8, far: 1.4 };
function vec(text: string): Float32Array {
  const word = text.split('\n').pop()!;
  const v = new Float32Array(DIMS);
  v[0] = Math.cos(ANGLE[word] ?? 3);
  v[1] = Math.sin(ANGLE[word] ?? 3);
  return v;
}
const fake: Embedder = {
  modelId: 'fake',
  dims: DIMS,
  fingerprint: 'f'.repeat(64),
  embed: async (texts) => texts.map(vec),
  dispose: async () => {},
};
const noLog = { debug() {}, info() {}, warn() {}, error() {} };

function chunk(text: string): ChunkRecord {
  const c = { text, headingPath: [] as string[], title: undefined };
  return { ...c, id: `n.md#${text}`, path: 'n.md', vkey: embedKey(c) } as unknown as ChunkRecord;
}

describe('SemanticIndex.search also', () => {
  it('scores the extra keys outside the top k, best first, each once', async () => {
    const idx = new SemanticIndex(new MemoryIndexStorage(), async () => fake, noLog);
    const chunks = ['near', 'mid', 'far'].map(chunk);
    await idx.sync(chunks, { persist: false });
    const [near, mid, far] = chunks.map((c) => c.vkey!) as [string, string, string];
    const top1 = await idx.search('q', 1);
    expect(top1!.map((h) => h.ref)).toEqual([near]);
    const hits = await idx.search('q', 1, undefined, [far, near, far, 'no-such-key']);
    expect(hits!.map((h) => h.ref)).toEqual([near, far]);
    expect(hits![1]!.score).toBeCloseTo(Math.cos(1.4), 5);
    expect(hits!.some((h) => h.ref === mid)).toBe(false);
  });

  it('searches several texts with the normalised mean of their embeddings', async () => {
    const idx = new SemanticIndex(new MemoryIndexStorage(), async () => fake, noLog);
    const chunks = ['near', 'mid', 'far'].map(chunk);
    await idx.sync(chunks, { persist: false });
    const [near, mid, far] = chunks.map((c) => c.vkey!) as [string, string, string];
    // q at angle 0 and far at 1.4: their mean points at 0.7, next to mid (0.8); q alone finds near.
    const hits = await idx.search(['q', 'far'], 3);
    expect(hits!.map((h) => h.ref)).toEqual([mid, near, far]);
    expect(hits!.map((h) => h.score)).toEqual(
      [Math.cos(0.1), Math.cos(0.6), Math.cos(0.7)].map((x) => expect.closeTo(x, 5)),
    );
    expect(await idx.search(['q'], 1)).toEqual(await idx.search('q', 1));
  });
});
