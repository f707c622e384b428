// An embedder for unit tests of the vector bookkeeping (engine/vectors/): 2-dimensional vectors made
// from each text's length, and the list of every text it was asked to embed, in order. It stands in
// for the ONNX model only where what is embedded is under test, not what the vectors mean.
import type { Embedder } from '../../src/indexes/embed/embedder.js';

/** A fake embedder whose `texts` records every text embedded. */
export function countingEmbedder(): Embedder & { texts: string[] } {
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
