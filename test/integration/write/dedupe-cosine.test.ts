// remember treats an embedding cosine ≥ dedupe.cosine (0.95) within the same type as a duplicate.
// The embedder here is a deterministic fake (this tests the rule, not the model): texts about
// airships map to one direction, every other text to its own hashed direction.
import { remember } from '../../../src/service/remember/remember.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/indexes/embed/embedder.js';
import { copyFixture } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory } from '../../../src/service/memory.js';
import { tempDir } from '../../support/fixtures.js';

const fake: Embedder = {
  modelId: 'fake',
  dims: 4,
  fingerprint: 'fake-1',
  embed: async (texts) =>
    texts.map((t) => {
      if (/zeppelin|airship|dirigible/i.test(t)) return new Float32Array([1, 0, 0, 0]);
      // Anything else: its own direction in the other three dimensions (unrelated texts differ).
      let h = 7;
      for (let i = 0; i < t.length; i++) h = (h * 31 + t.charCodeAt(i)) % 1000003;
      const a = (h % 360) * (Math.PI / 180);
      const b = ((h >> 3) % 360) * (Math.PI / 180);
      return new Float32Array([0, Math.cos(a) * Math.cos(b), Math.sin(a) * Math.cos(b), Math.sin(b)]);
    }),
  dispose: async () => {},
};

describe('remember: near-duplicates by meaning', () => {
  it('a reworded memory of the same type is a duplicate; another type or topic is not', async () => {
    const root = copyFixture('default');
    writeFileSync(
      join(root, 'memory', 'entries', 'hangar.md'),
      '---\nid: hangar\ntype: learning\ntitle: Zeppelin hangar\n---\n\nThe zeppelin hangar key is in the blue box.\n',
    );
    const mem = await createMemory({
      fs: createNodeFs(root),
      openStorage: () => createIndexStorage(join(tempDir(), 'idx')),
      createEmbedder: async () => fake,
    });
    await mem.index();
    const dup = await remember(mem.context, {
      text: 'Keys for the airship shed: look inside the blue container.',
      type: 'learning',
    });
    expect(dup).toEqual({ status: 'duplicate', id: 'hangar', path: 'memory/entries/hangar.md', duplicateOf: 'hangar' });
    expect(
      (
        await remember(mem.context, {
          text: 'Keys for the airship shed: look inside the blue container.',
          type: 'warning',
        })
      ).status,
    ).toBe('created');
    expect(
      (await remember(mem.context, { text: 'The coffee machine needs descaling every month.', type: 'learning' }))
        .status,
    ).toBe('created');
    await mem.dispose();
    // Without a model the rule is simply not applied (hash and Jaccard still are).
    const plain = await openWorkspace(copyFixture('default'));
    expect((await remember(plain.context, { text: 'Keys for the airship shed.', type: 'learning' })).status).toBe(
      'created',
    );
  });
});
