// On a real small index — paragraphs of a vendored corpus embedded by the real model, saved to real
// index storage and loaded back in a fresh SemanticIndex (int8 codes in memory, float32 rows re-read
// from the file) — vector search returns exactly the hits and scores of scoring every saved float32
// row (VectorTable.deserialize(...).scores, the float32 kernel) and sorting.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullLogger } from '../../../src/core/ports.js';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { SemanticIndex } from '../../../src/engine/vectors/semantic.js';
import { noteChunk } from '../../support/chunk-record.js';
import { createOnnxEmbedder, type OnnxEmbedder } from '../../../src/indexes/embed/onnx-embedder.js';
import { VectorTable } from '../../../src/indexes/vector/vector.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { modelDir } from '../../support/model.js';

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'corpora', 'foam-docs');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? markdownFiles(p) : n.endsWith('.md') ? [p] : [];
  });
}

/** Up to 60 paragraphs of the corpus (at most 300 characters each: embedding is the cost) as chunk records. */
function paragraphs(): ChunkRecord[] {
  const texts = markdownFiles(CORPUS)
    .sort()
    .flatMap((f) => readFileSync(f, 'utf8').split(/\n\s*\n/))
    .map((t) => t.trim())
    .filter((t) => t.length >= 40)
    .map((t) => t.slice(0, 300))
    .slice(0, 60);
  return texts.map((text, i) => noteChunk(`p.md#${i + 1}`, 'p.md', i + 1, text));
}

let dir: string;
let emb: OnnxEmbedder;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gitmem-vector-exact-'));
  emb = await createOnnxEmbedder({ modelDir: modelDir() });
});
afterAll(async () => {
  await emb?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('int8-coded search on a real index', () => {
  it('a loaded index answers with exactly the float32 search hits and scores', async () => {
    const shared = { ...emb, embed: emb.embed.bind(emb), dispose: async () => {} };
    const recs = paragraphs();
    expect(recs.length).toBeGreaterThanOrEqual(50);
    const first = new SemanticIndex(createIndexStorage(dir), async () => shared, nullLogger);
    const rep = await first.sync(recs);
    expect(rep.embedded).toBe(new Set(recs.map((r) => r.vkey)).size);
    const loaded = new SemanticIndex(createIndexStorage(dir), async () => shared, nullLogger);
    expect((await loaded.sync(recs)).embedded).toBe(0);
    // The set the last save wrote (saves alternate between two; the older one is removed).
    const set = existsSync(join(dir, 'vectors-vectors-b.f32')) ? 'vectors-vectors-b' : 'vectors-vectors';
    const ids = JSON.parse(readFileSync(join(dir, `${set}.ids.json`), 'utf8')) as string[];
    const floats = VectorTable.deserialize({ vectors: readFileSync(join(dir, `${set}.f32`)), ids }, emb.dims);
    for (const query of ['how do I link notes together', 'daily notes template', 'graph visualisation', 'x']) {
      const [q] = await emb.embed([query]);
      const s = floats.scores(q!);
      const brute = ids
        .map((ref, row) => ({ ref, score: s[row]! }))
        .sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : 1));
      for (const k of [1, 10, 40]) expect(await loaded.search(query, k)).toEqual(brute.slice(0, k));
    }
    await loaded.dispose();
    await first.dispose();
  });
});
