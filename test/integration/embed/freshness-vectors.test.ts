// Vectors follow applyChanges with the real ONNX model: the update resolves with the keyword index
// (its new chunk counted in vectorsPending), the background catch-up then embeds only new embedding
// keys and reports it in a `vectors` event, and a deleted file leaves both the keyword index and the
// vector table (paranoid check covers both).
import { writeFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { nextEvent } from '../../../src/core/events.js';
import { createMemory } from '../../../src/service/memory.js';
import { tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';
import { workspace } from '../../support/watch.js';
import { recall } from '../../../src/service/recall/recall.js';

describe('vectors with applyChanges (real model)', () => {
  it('embeds only new chunks, drops vectors of deleted files, and hybrid recall follows at once', async () => {
    const root = workspace(
      {
        'memory/MEMORY.md':
          '# Memory\n\nThe deploy pipeline retries webhooks three times.\n\nPostgres pool size is twenty.\n',
        'memory/entries/cache.md':
          '---\nid: cache\ntype: learning\ntitle: Cache keys\n---\n\nRedis cache keys include the tenant id.\n',
      },
      { model: { enabled: true } },
    );
    const mem = await createMemory({
      fs: createNodeFs(root),
      openStorage: () => createIndexStorage(join(tempDir('gitmem-vec-'), 'index')),
      freshness: 'manual',
      lexicalWorker: false,
      defaultModelDir: modelDir(),
    });
    try {
      const first = await mem.index();
      expect(first.vectors.unavailable).toBeNull();
      expect(first.vectors.embedded).toBe(3);
      // Edit one paragraph of MEMORY.md: one new chunk text → exactly one embedding.
      writeFileSync(
        join(root, 'memory', 'MEMORY.md'),
        '# Memory\n\nThe deploy pipeline retries webhooks three times.\n\nAstronauts repaired the orbiting telescope mirror.\n',
      );
      const caughtUp = nextEvent(mem.onDidChange, (x) => x.reason === 'vectors');
      const e = await mem.applyChanges({ created: [], changed: ['memory/MEMORY.md' as RelPath], deleted: [] });
      expect(e.embedded).toBe(0);
      expect(e.vectorMs).toBeNull();
      // Counted when the event fired: the catch-up starts at publish and may have embedded it by then.
      expect(e.vectorsPending).toBeLessThanOrEqual(1);
      const v = await caughtUp;
      expect(v.embedded).toBe(1);
      expect(v.vectorMs).not.toBeNull();
      expect(v.vectorsPending).toBe(0);
      const hit = (await recall(mem.context, 'space station repair of a telescope', { mode: 'vector', limit: 3 }))
        .results[0];
      expect(hit?.path).toBe('memory/MEMORY.md');
      // Delete a file: its chunks leave both indexes.
      unlinkSync(join(root, 'memory', 'entries', 'cache.md'));
      const d = await mem.applyChanges({ created: [], changed: [], deleted: ['memory/entries/cache.md' as RelPath] });
      expect(d.removed).toEqual(['memory/entries/cache.md']);
      expect(d.vectorsPending).toBe(0);
      await mem.settled();
      const res = await recall(mem.context, 'redis tenant cache keys', { mode: 'hybrid', limit: 10 });
      expect(res.results.map((r) => r.path)).not.toContain('memory/entries/cache.md');
      const rep = await mem.index({ paranoid: true });
      expect(rep.paranoid?.differences).toEqual([]);
      expect(rep.vectors.total).toBe(2);
    } finally {
      await mem.dispose();
    }
  });
});
