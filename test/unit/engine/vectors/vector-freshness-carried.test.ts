// Issue 44 item 2: with an embedding model, bringing the vectors up to date after a write
// (VectorFreshness.ensure → SemanticIndex.sync) reads the snapshot's embedding-key map, which the live
// index carries over an update (engine/live/vector-key-map.ts), instead of walking every chunk again.
// A real LiveIndex and SemanticIndex over in-memory storage; the embedder is a counting fake.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentHash } from '../../../../src/core/hash.js';
import { nullLogger } from '../../../../src/core/ports.js';
import { toRelPath } from '../../../../src/core/paths.js';
import { docRecords } from '../../../../src/engine/chunks/index-manager.js';
import { ChunkTable } from '../../../../src/engine/live/chunk-table.js';
import { LiveIndex, type FileState } from '../../../../src/engine/live/live-index.js';
import { buildKeyMap } from '../../../../src/engine/live/vector-key-map.js';
import { SegmentBuilder } from '../../../../src/engine/segments/segment-builder.js';
import { SemanticIndex } from '../../../../src/engine/vectors/semantic.js';
import { VectorFreshness } from '../../../../src/engine/vectors/vector-freshness.js';
import { parseDocument } from '../../../../src/parse/parse-document.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';
import { countingEmbedder } from '../../../support/fake-embedder.js';

function state(path: string, body: string): FileState {
  const text = `# Note\n\n## One\n\n${body}\n\n## Two\n\nShared section text.\n`;
  return { hash: contentHash(text), records: docRecords(parseDocument({ path: toRelPath(path), kind: 'note', text })) };
}

afterEach(() => vi.restoreAllMocks());

describe('vectors after a write use the carried embedding-key map', () => {
  it('embeds only the new chunk and walks no chunk table', async () => {
    const builder = new SegmentBuilder({ script: false, logger: nullLogger });
    const live = new LiveIndex({ storage: new MemoryIndexStorage(), fingerprint: 'v', logger: nullLogger, builder });
    const files = new Map<string, FileState>();
    for (let i = 0; i < 50; i++) files.set(`memory/n${i}.md`, state(`memory/n${i}.md`, `Body number ${i}.`));
    await live.rebuild(files);
    const embedder = countingEmbedder();
    const freshness = new VectorFreshness(
      new SemanticIndex(new MemoryIndexStorage(), async () => embedder, nullLogger),
    );
    const first = await freshness.ensure(live.snapshot);
    expect(first.missing).toBe(0);
    embedder.texts.length = 0;
    const walks = vi.spyOn(ChunkTable.prototype, 'vectorKeys');
    await live.update(new Map([['memory/n7.md', state('memory/n7.md', 'A body written just now.')]]));
    const rep = await freshness.ensure(live.snapshot);
    expect(walks).not.toHaveBeenCalled();
    expect(rep.embedded).toBe(1);
    expect(embedder.texts).toHaveLength(1);
    expect(embedder.texts[0]).toContain('A body written just now.');
    walks.mockRestore();
    expect(rep.total).toBe(buildKeyMap(live.snapshot.chunks.vectorKeys!()).size);
    expect(rep.missing).toBe(0);
  });
});
