// `gitmem dedupe` reads the vectors the index already stores (issue #18, one dedupe policy): the rule
// by meaning compares an entry's stored vector with the stored vectors of the earlier entries, and
// embeds only an entry that has no stored vector yet. Real Memory over a committed copy of the demo
// fixture (a real git repo in a temp folder) and the shipped ONNX model, wrapped only to count the
// texts it is asked to embed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/indexes/embed/embedder.js';
import { createOnnxEmbedder } from '../../../src/indexes/embed/onnx-embedder.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { dedupeWorkspace } from '../../../src/service/remember/dedupe.js';
import { createMemory } from '../../../src/service/memory.js';
import { committedFixture, tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';
import { ANN, BEN, entryFile } from '../../support/repeats.js';

const CAT = 'Our payments service retries a failed webhook three times, then it gives up';

describe('gitmem dedupe reads stored vectors (real model)', { timeout: 240_000 }, () => {
  it('embeds nothing when every entry has a stored vector, and only a new entry when one is added', async () => {
    const root = committedFixture('demo');
    const dir = join(root, 'memory', 'entries');
    writeFileSync(join(dir, 'ann-retries.md'), entryFile('ann-retries', '2026-11-01T10:00:00Z', ANN));
    writeFileSync(join(dir, 'ben-retries.md'), entryFile('ben-retries', '2026-12-01T10:00:00Z', BEN));
    writeFileSync(
      join(dir, 'ben-cache.md'),
      entryFile('ben-cache', '2026-12-01T12:00:00Z', 'The search page caches facet counts in Redis for ten minutes'),
    );
    const embedded: string[] = [];
    const mem = await createMemory({
      fs: createNodeFs(root),
      openStorage: () => createIndexStorage(join(tempDir('gitmem-dedupe-vec-'), 'index')),
      lexicalWorker: false,
      createEmbedder: async (): Promise<Embedder> => {
        const real = await createOnnxEmbedder({ modelDir: modelDir() });
        return {
          modelId: real.modelId,
          dims: real.dims,
          fingerprint: real.fingerprint,
          embed: (texts) => {
            embedded.push(...texts);
            return real.embed(texts);
          },
          dispose: () => real.dispose(),
        };
      },
    });
    try {
      await mem.index();
      embedded.length = 0;
      const first = await dedupeWorkspace(mem.context);
      expect(first.findings).toEqual([
        expect.objectContaining({
          path: 'memory/entries/ben-retries.md',
          duplicateOf: 'ann-retries',
          reason: 'meaning',
        }),
      ]);
      // Every entry's vector is stored by the index: nothing is embedded again.
      expect(embedded).toEqual([]);

      // A new entry not indexed yet has no stored vector: it alone is embedded, and found.
      writeFileSync(join(dir, 'cat-retries.md'), entryFile('cat-retries', '2026-12-02T10:00:00Z', CAT));
      const second = await dedupeWorkspace(mem.context);
      expect(second.findings.map((f) => f.path)).toContain('memory/entries/ben-retries.md');
      expect(embedded).toHaveLength(1);
      expect(embedded[0]).toContain(CAT);
    } finally {
      await mem.dispose();
    }
  });
});
