// LiveIndex (engine/live/live-index.ts) over real parsed documents: rebuild, incremental update (change,
// add, remove, a stat-only change), persistence and load — asserted by what a keyword search finds.
// The storage is the in-memory fake (a real folder where stat keys matter); segments are built on
// the calling thread.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IndexStorage, Logger } from '../../../../src/core/ports.js';
import { LiveIndex, type FileState } from '../../../../src/engine/live/live-index.js';
import { SegmentBuilder } from '../../../../src/engine/segments/segment-builder.js';
import { createIndexStorage } from '../../../../src/platform/index-storage.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';
import { fileState } from '../../../support/live-index-state.js';

const warnings: string[] = [];
const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };

const state = (path: string, text: string, stat?: string): FileState => fileState(path, text, stat);

function open<S extends IndexStorage = MemoryIndexStorage>(storage: S = new MemoryIndexStorage() as unknown as S) {
  const live = new LiveIndex({
    storage,
    fingerprint: 'test-fp',
    logger,
    builder: new SegmentBuilder({ script: false, logger }),
  });
  return { live, storage };
}

/** Paths of the chunks a keyword query finds. */
function find(live: LiveIndex, q: string): string[] {
  const snap = live.snapshot;
  return [...new Set(snap.lexical.search(q, 10).map((h) => snap.chunks.get(h.ref)!.path))].sort();
}

const A = '# Pool\n\nThe postgres pool size is twenty connections.\n';
const B = '# Deploy\n\nDeploys run on tuesday after the freeze.\n';

describe('LiveIndex', () => {
  it('rebuild indexes every file; a search finds the file that holds the term', async () => {
    const { live } = open();
    const r = await live.rebuild(
      new Map([
        ['memory/a.md', state('memory/a.md', A)],
        ['memory/b.md', state('memory/b.md', B)],
      ]),
    );
    expect(r.upserted.length).toBe(2);
    expect(find(live, 'postgres')).toEqual(['memory/a.md']);
    expect(find(live, 'tuesday')).toEqual(['memory/b.md']);
    expect(find(live, 'nowhere')).toEqual([]);
    await live.dispose();
  });

  it('update re-indexes a changed file, adds a new one and removes a deleted one', async () => {
    const { live } = open();
    await live.rebuild(
      new Map([
        ['memory/a.md', state('memory/a.md', A)],
        ['memory/b.md', state('memory/b.md', B)],
      ]),
    );
    const r = await live.update(
      new Map<string, FileState | null>([
        ['memory/a.md', state('memory/a.md', '# Pool\n\nThe mysql pool size is forty.\n')],
        ['memory/c.md', state('memory/c.md', '# Cache\n\nRedis keeps sessions.\n')],
        ['memory/b.md', null],
      ]),
    );
    expect([...r.upserted].sort()).toEqual(['memory/a.md', 'memory/c.md']);
    expect(r.removed).toEqual(['memory/b.md']);
    expect(find(live, 'postgres')).toEqual([]);
    expect(find(live, 'mysql')).toEqual(['memory/a.md']);
    expect(find(live, 'redis')).toEqual(['memory/c.md']);
    expect(find(live, 'tuesday')).toEqual([]);
    expect([...live.files.keys()].sort()).toEqual(['memory/a.md', 'memory/c.md']);
    await live.dispose();
  });

  it('a stat-only change (same content) records the new key and re-indexes nothing', async () => {
    const { live } = open();
    await live.rebuild(new Map([['memory/a.md', state('memory/a.md', A, 'k1')]]));
    const r = await live.update(new Map([['memory/a.md', state('memory/a.md', A, 'k2')]]));
    expect(r.upserted).toEqual([]);
    expect(live.files.get('memory/a.md')?.stat).toBe('k2');
    expect(find(live, 'postgres')).toEqual(['memory/a.md']);
    await live.dispose();
  });

  it('saves what it built; a new index on the same storage loads it and answers the same', async () => {
    const { live, storage } = open();
    await live.rebuild(new Map([['memory/a.md', state('memory/a.md', A)]]));
    await live.update(new Map([['memory/b.md', state('memory/b.md', B)]]));
    expect(await live.flush()).toBe(true);
    await live.dispose();
    const again = open(storage).live;
    expect(await again.load()).toBe(true);
    expect(again.snapshot.source).toBe('loaded');
    expect(find(again, 'postgres')).toEqual(['memory/a.md']);
    expect(find(again, 'tuesday')).toEqual(['memory/b.md']);
    await again.dispose();
  });

  it('a copied index folder is hashed in full once: the load records the new stat keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-live-copy-'));
    try {
      const first = open(createIndexStorage(join(dir, 'a'))).live;
      await first.rebuild(new Map([['memory/a.md', state('memory/a.md', A)]]));
      await first.dispose();
      // cp -a keeps sizes and mtimes, not inodes or ctimes: no recorded key matches the copy.
      cpSync(join(dir, 'a'), join(dir, 'b'), { recursive: true, preserveTimestamps: true });
      const storage = createIndexStorage(join(dir, 'b'));
      const keys = async () => {
        const m = JSON.parse(readFileSync(join(dir, 'b', 'manifest.json'), 'utf8')) as {
          artifacts: Record<string, { stat?: string }>;
        };
        const out: [string, boolean][] = [];
        for (const [name, info] of Object.entries(m.artifacts))
          out.push([name, info.stat === (await storage.statKey!(name))]);
        return out;
      };
      expect((await keys()).every(([, same]) => !same)).toBe(true);
      const copy = open(storage).live;
      expect(await copy.load()).toBe(true);
      expect(find(copy, 'postgres')).toEqual(['memory/a.md']);
      await copy.dispose();
      expect((await keys()).every(([, same]) => same)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a snapshot keeps the files it was published with while later updates change them (loaded and built)', async () => {
    const { live, storage } = open();
    await live.rebuild(
      new Map([
        ['memory/a.md', state('memory/a.md', A, 'k1')],
        ['memory/b.md', state('memory/b.md', B)],
      ]),
    );
    expect(await live.flush()).toBe(true);
    await live.dispose();
    const again = open(storage).live;
    expect(await again.load()).toBe(true);
    for (const step of [0, 1]) {
      const before = again.snapshot;
      const ids = [...before.chunks.keys()];
      const size = before.chunks.size;
      const bId = ids.find((id) => id.startsWith('memory/b.md#'))!;
      expect(bId).toBeDefined();
      // A removal, an addition and a stat-only change, after a loaded (step 0) and a built (step 1) snapshot.
      await again.update(
        new Map<string, FileState | null>([
          ['memory/b.md', null],
          [`memory/c${step}.md`, state(`memory/c${step}.md`, '# Cache\n\nRedis keeps sessions.\n')],
          ['memory/a.md', state('memory/a.md', A, `k${step + 2}`)],
        ]),
      );
      expect(before.chunks.size).toBe(size);
      expect([...before.chunks.keys()]).toEqual(ids);
      expect(before.chunks.get(bId)?.path).toBe('memory/b.md');
      expect([...before.chunks.values()].some((r) => r.path === `memory/c${step}.md`)).toBe(false);
      expect(again.snapshot.chunks.get(bId)).toBeUndefined();
      expect([...again.files.keys()]).toContain(`memory/c${step}.md`);
      expect(again.files.get('memory/a.md')?.stat).toBe(`k${step + 2}`);
      // Put b back for the next step.
      await again.update(new Map([['memory/b.md', state('memory/b.md', B)]]));
    }
    await again.dispose();
  });

  it('a damaged saved index is not loaded (the caller rebuilds)', async () => {
    const { live, storage } = open();
    await live.rebuild(new Map([['memory/a.md', state('memory/a.md', A)]]));
    await live.flush();
    await live.dispose();
    for (const [name, data] of storage.files) if (name !== 'manifest.json') storage.files.set(name, data.slice(0, 3));
    const again = open(storage).live;
    expect(await again.load()).toBe(false);
    expect(again.loadFailure).toBeTruthy();
    await again.dispose();
  });
});
