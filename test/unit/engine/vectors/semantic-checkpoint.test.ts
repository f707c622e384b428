// Vector checkpoints during an embedding run (engine/vectors/semantic.ts): a reported progress count is a
// saved count, and a save that dies half-way (artifact written, manifest not) leaves the previous
// checkpoint whole, so a restart embeds only what was not saved. Real index storage in a temp
// folder; the embedder is a fake (deterministic vectors), this tests the saving logic only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IndexStorage, Logger } from '../../../../src/core/ports.js';
import type { Embedder } from '../../../../src/indexes/embed/embedder.js';
import { EMBED_GROUP, SemanticIndex } from '../../../../src/engine/vectors/semantic.js';
import { noteChunk } from '../../../support/chunk-record.js';
import type { ChunkRecord } from '../../../../src/engine/chunks/index-manager.js';
import { createIndexStorage } from '../../../../src/platform/index-storage.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Embeds each text as a unit vector from its length; counts the texts it was given. */
function fakeEmbedder(): Embedder & { calls: number } {
  const e = {
    modelId: 'fake',
    dims: 4,
    fingerprint: 'fake-1',
    calls: 0,
    async embed(texts: readonly string[]) {
      e.calls += texts.length;
      return texts.map((t) => {
        const v = new Float32Array([1, t.length % 7, 2, 3]);
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      });
    },
    async dispose() {},
  };
  return e;
}

function records(n: number, tag: string): ChunkRecord[] {
  return Array.from({ length: n }, (_, i) =>
    noteChunk(`${tag}-${i}`, `memory/${tag}.md`, i + 1, `${tag} chunk ${i} ${'x'.repeat(i % 13)}`),
  );
}

const dirs: string[] = [];
function tempStorage(): { dir: string; storage: IndexStorage } {
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-semantic-ckpt-'));
  dirs.push(dir);
  return { dir, storage: createIndexStorage(dir) };
}
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Vectors a fresh process would load from `storage`. */
async function savedCount(storage: IndexStorage): Promise<number> {
  const s = new SemanticIndex(storage, async () => fakeEmbedder(), quiet);
  await s.start();
  return s.size;
}

describe('SemanticIndex checkpoints', () => {
  it('saves a checkpoint before reporting the progress it covers, so a reported count is on disk', async () => {
    const { storage } = tempStorage();
    const sem = new SemanticIndex(storage, async () => fakeEmbedder(), quiet);
    const seen: [number, number][] = [];
    const pending: Promise<void>[] = [];
    let starts = 0;
    const recs = records(EMBED_GROUP * 4, 'a');
    await sem.sync(recs, {
      onProgress: (done) => {
        starts += done === 0 ? 1 : 0;
        if (done > 0) pending.push(savedCount(storage).then((n) => void seen.push([done, n])));
      },
    });
    await Promise.all(pending);
    expect(starts).toBe(1); // one (0, total) report when the run starts
    expect(seen.length).toBe(4);
    // The first group is always checkpointed (no save cost known yet), and before its report. Later
    // groups are saved as often as keeps saving cheap (this fake embedder takes no time, so seldom).
    // (The reads resolve in any order, and a later checkpoint may land before the first read.)
    seen.sort((a, b) => a[0] - b[0]);
    expect(seen.map(([done]) => done)).toEqual([1, 2, 3, 4].map((k) => k * EMBED_GROUP));
    expect(seen[0]![1]).toBeGreaterThanOrEqual(EMBED_GROUP);
    for (const [, onDisk] of seen) expect(onDisk).toBeGreaterThanOrEqual(EMBED_GROUP);
    expect(await savedCount(storage)).toBe(recs.length);
  });

  it('one slow save does not postpone the next checkpoints of a small table; a big one saves per 10 % of it', async () => {
    // A busy disk: the first save takes 300 ms (of the clock semantic.ts reads, performance.now, faked
    // and moved on during the save). By the save-cost rule alone the next checkpoint would wait
    // 20 × 300 ms, far past this instant embedder's four groups (SIGKILL then lost all but one).
    vi.useFakeTimers({ toFake: ['performance'] });
    const slowFirst = (storage: IndexStorage) => {
      const saves = { count: 0 };
      const wrapped: IndexStorage = {
        ...storage,
        read: (n) => storage.read(n),
        remove: (n) => storage.remove(n),
        write: async (n, d) => {
          if (n.endsWith('manifest.json') && saves.count++ === 0) vi.advanceTimersByTime(300);
          await storage.write(n, d);
        },
      };
      return { wrapped, saves };
    };
    const small = tempStorage();
    const a = slowFirst(small.storage);
    await new SemanticIndex(a.wrapped, async () => fakeEmbedder(), quiet).sync(records(EMBED_GROUP * 4, 's'));
    // After groups 1, 2 and 3 (the last group's save is the run's final one).
    expect(a.saves.count).toBe(4);

    const big = tempStorage();
    const base = records(5000, 'base');
    const seeded = new SemanticIndex(big.storage, async () => fakeEmbedder(), quiet);
    await seeded.sync(base, { persist: false });
    await seeded.flush();
    const b = slowFirst(big.storage);
    const sem = new SemanticIndex(b.wrapped, async () => fakeEmbedder(), quiet);
    await sem.sync([...base, ...records(EMBED_GROUP * 4, 'more')]);
    // 5,000 vectors: the 128 new ones are under 10 % of the table, so only the first group's
    // checkpoint and the final save; what the share rule bounds is the bytes saving writes.
    expect(b.saves.count).toBe(2);
    expect(await savedCount(big.storage)).toBe(5000 + EMBED_GROUP * 4);
  });

  it('a save killed after writing its vectors but before the manifest keeps the previous checkpoint', async () => {
    const { storage } = tempStorage();
    const first = records(EMBED_GROUP * 2, 'first');
    const sem = new SemanticIndex(storage, async () => fakeEmbedder(), quiet);
    await sem.sync(first);
    expect(await savedCount(storage)).toBe(first.length);

    // The next run's save "dies" (throws) right when it would replace the manifest.
    let dying = false;
    const dies: IndexStorage = {
      ...storage,
      read: (n) => storage.read(n),
      remove: (n) => storage.remove(n),
      write: async (n, d) => {
        if (dying && n.endsWith('manifest.json')) throw new Error('killed before the manifest');
        await storage.write(n, d);
      },
    };
    const sem2 = new SemanticIndex(dies, async () => fakeEmbedder(), quiet);
    await sem2.start();
    dying = true;
    const both = [...first, ...records(EMBED_GROUP, 'second')];
    await sem2.sync(both);
    // The old manifest and the artifacts it names are untouched: the first run's vectors load whole.
    expect(await savedCount(storage)).toBe(first.length);

    // A restart embeds only what the dead run had not saved.
    const embedder = fakeEmbedder();
    const sem3 = new SemanticIndex(storage, async () => embedder, quiet);
    const rep = await sem3.sync(both);
    expect(rep.embedded).toBe(EMBED_GROUP);
    expect(embedder.calls).toBe(EMBED_GROUP);
    expect(await savedCount(storage)).toBe(both.length);
  });

  it('alternating artifact sets: every save loads back whole, and the older set is removed', async () => {
    const { storage } = tempStorage();
    let recs: ChunkRecord[] = [];
    for (let round = 0; round < 3; round++) {
      recs = [...recs, ...records(5, `r${round}`)];
      const sem = new SemanticIndex(storage, async () => fakeEmbedder(), quiet);
      await sem.sync(recs);
      expect(await savedCount(storage)).toBe(recs.length);
      const sets = ['vectors-vectors.f32', 'vectors-vectors-b.f32'];
      const present = (await Promise.all(sets.map((n) => storage.read(n)))).filter((b) => b !== undefined);
      expect(present.length).toBe(1);
    }
  });
});
