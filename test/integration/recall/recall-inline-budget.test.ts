// A recall over a workspace whose chunks are mostly not embedded (an interrupted `gitmem index`) must
// not embed them all before answering: `recall.inlineEmbedMs` bounds the inline embedding in time.
// Real model; the budget is 1 ms, so exactly the first group runs (at most EMBED_GROUP chunks), the
// answer still comes (keyword + the vectors there are) and says that vector results are partial.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMBED_GROUP } from '../../../src/engine/vectors/semantic.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory } from '../../../src/service/memory.js';
import { tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';
import { workspace } from '../../support/watch.js';
import { recall } from '../../../src/service/recall/recall.js';

const TOPICS = ['webhook retries', 'postgres pool', 'redis cache keys', 'deploy pipeline', 'tenant ids'];

/** `N of M chunks are not embedded yet` → [N, M]. */
function partialCounts(note: string | null | undefined): [number, number] {
  const m = /^(\d+) of (\d+) chunks are not embedded yet; run `gitmem index` \(vector results are partial\)/.exec(
    note ?? '',
  );
  expect(m, `note: ${note}`).not.toBeNull();
  return [Number(m![1]), Number(m![2])];
}

describe('recall with many unembedded chunks (real model)', () => {
  it('embeds only what fits the time budget, answers, and says the vectors are partial', async () => {
    const sections = Array.from(
      { length: 120 },
      (_, i) =>
        `## Note ${i}\n\nThe ${TOPICS[i % TOPICS.length]} decision number ${i} was reviewed on day ${i % 28}.\n`,
    );
    const root = workspace(
      { 'memory/MEMORY.md': `# Memory\n\n${sections.join('\n')}` },
      { model: { enabled: true }, recall: { inlineEmbedMs: 1 } },
    );
    const mem = await createMemory({
      fs: createNodeFs(root),
      openStorage: () => createIndexStorage(join(tempDir('gitmem-inline-'), 'index')),
      freshness: 'manual',
      lexicalWorker: false,
      defaultModelDir: modelDir(),
    });
    try {
      const first = await recall(mem.context, 'postgres pool decision', { mode: 'hybrid', limit: 5 });
      expect(first.results.length).toBeGreaterThan(0);
      const [missing, total] = partialCounts(first.degraded);
      expect(total).toBeGreaterThanOrEqual(120);
      const embedded = total - missing;
      // The first group always runs (progress); no second group starts after the budget.
      expect(embedded).toBeGreaterThan(0);
      expect(embedded).toBeLessThanOrEqual(EMBED_GROUP);

      // The next recall goes on where this one stopped, again within one group.
      const second = await recall(mem.context, 'redis cache keys', { mode: 'hybrid', limit: 5 });
      const [missing2] = partialCounts(second.degraded);
      expect(missing2).toBeLessThan(missing);
      expect(missing - missing2).toBeLessThanOrEqual(EMBED_GROUP);

      // `gitmem index` embeds the rest; then the note is gone.
      const rep = await mem.index();
      expect(rep.vectors.embedded).toBe(missing2);
      const done = await recall(mem.context, 'deploy pipeline', { mode: 'hybrid', limit: 5 });
      expect(done.degraded ?? '').not.toMatch(/not embedded yet/);
    } finally {
      await mem.dispose();
    }
  });
});
