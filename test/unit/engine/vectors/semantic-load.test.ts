// Loading saved vectors (engine/vectors/semantic.ts over platform/index-storage.ts): the vector artifact is
// opened for ranged reads (the table keeps int8 codes and re-reads rows from it); what loads back scores exactly as what was saved, and a
// truncated or damaged vector file is refused (then re-embedded), never half-read. Real index storage
// in a temp folder; the embedder is a fake (deterministic unit vectors), this tests the storage side.
import {
  closeSync,
  cpSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nullLogger, type IndexStorage } from '../../../../src/core/ports.js';
import type { Embedder } from '../../../../src/indexes/embed/embedder.js';
import { SemanticIndex } from '../../../../src/engine/vectors/semantic.js';
import { noteChunk } from '../../../support/chunk-record.js';
import type { ChunkRecord } from '../../../../src/engine/chunks/index-manager.js';
import { createIndexStorage } from '../../../../src/platform/index-storage.js';

/** 8 dims (the WebAssembly kernel's path); each text's vector from its character codes. */
function fakeEmbedder(): Embedder & { calls: number } {
  const e = {
    modelId: 'fake',
    dims: 8,
    fingerprint: 'fake-load-1',
    calls: 0,
    async embed(texts: readonly string[]) {
      e.calls += texts.length;
      return texts.map((t) => {
        const v = Float32Array.from({ length: 8 }, (_, i) => (t.charCodeAt(i % t.length) % 17) + i);
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      });
    },
    async dispose() {},
  };
  return e;
}

function records(n: number): ChunkRecord[] {
  return Array.from({ length: n }, (_, i) =>
    noteChunk(`a.md#${i + 1}`, 'a.md', i + 1, `chunk ${i} ${'abcdefgh'.slice(i % 8)} ${i * 7}`),
  );
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-semantic-load-'));
  dirs.push(dir);
  return dir;
}

describe('SemanticIndex load', () => {
  it('vectors saved and loaded in a fresh index score exactly as before, nothing re-embedded', async () => {
    const dir = tempDir();
    const recs = records(40);
    const first = new SemanticIndex(createIndexStorage(dir), async () => fakeEmbedder(), nullLogger);
    await first.sync(recs);
    const before = await first.search('chunk 3 defgh', 10);
    const embedder = fakeEmbedder();
    const second = new SemanticIndex(createIndexStorage(dir), async () => embedder, nullLogger);
    const rep = await second.sync(recs);
    expect(rep).toMatchObject({ embedded: 0, total: 40 });
    expect(embedder.calls).toBe(0);
    expect(await second.search('chunk 3 defgh', 10)).toEqual(before);
    // The vector manifest records stat keys: an unchanged file is checked by length and sample.
    const manifest = JSON.parse(readFileSync(join(dir, 'vectors-manifest.json'), 'utf8')) as {
      artifacts: Record<string, { stat?: string; sample?: string }>;
    };
    const f32 = Object.entries(manifest.artifacts).find(([n]) => n.endsWith('.f32'))![1];
    expect(f32.stat).toMatch(/^\d+:\d+:\d+:\d+$/);
    expect(f32.sample).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a copied index folder hashes its vector file in full once: the load records the new stat keys, writing only the manifest', async () => {
    const dir = tempDir();
    // Over twice the sampled ends (2 × 64 KiB): a sampled check reads less than the whole file.
    const recs = records(6000);
    const first = new SemanticIndex(createIndexStorage(join(dir, 'a')), async () => fakeEmbedder(), nullLogger);
    await first.sync(recs, { persist: false });
    await first.flush();
    await first.dispose();
    // cp -a keeps sizes and mtimes, not inodes or ctimes: no recorded stat key matches the copy.
    cpSync(join(dir, 'a'), join(dir, 'b'), { recursive: true, preserveTimestamps: true });
    const f32 = join(dir, 'b', 'vectors-vectors.f32');
    const size = statSync(f32).size;
    expect(size).toBeGreaterThan(2 * 64 * 1024);
    /** Bytes of the vector file read while a fresh index starts over the copy, and what it embeds. */
    const load = async () => {
      let read = 0;
      const base = createIndexStorage(join(dir, 'b'));
      const storage: IndexStorage = {
        ...base,
        openRanged: async (name) => {
          const file = await base.openRanged!(name);
          if (!file || !name.endsWith('.f32')) return file;
          return {
            size: file.size,
            read: (t, pos) => {
              const n = file.read(t, pos);
              read += n;
              return n;
            },
            close: () => file.close(),
          };
        },
      };
      const embedder = fakeEmbedder();
      const sem = new SemanticIndex(storage, async () => embedder, nullLogger);
      await sem.start();
      const startRead = read;
      const rep = await sem.sync(recs, { persist: false }); // what it would embed; nothing saved
      await sem.dispose();
      return { read: startRead, embedded: rep.embedded + embedder.calls };
    };
    const before = statSync(f32);
    const once = await load(); // hashed in full (and read by the table, which keeps int8 codes)
    expect(once.embedded).toBe(0);
    // Only the manifest was written: the vector file is the copied one, untouched.
    const after = statSync(f32);
    expect([after.ino, after.mtimeMs, after.ctimeMs]).toEqual([before.ino, before.mtimeMs, before.ctimeMs]);
    // The next load samples it: one whole file less is read (before the fix, every load read as much).
    expect(await load()).toEqual({ read: once.read - size, embedded: 0 });
    // Damage in the middle of the copy, written in place (new ctime): hashed in full again, caught.
    const fd = openSync(f32, 'r+');
    writeSync(fd, new Uint8Array([0xff, 0xff, 0xff, 0xff]), 0, 4, size >> 1);
    closeSync(fd);
    const damaged = await load();
    expect(damaged.embedded).toBeGreaterThan(0);
  });

  it('a truncated vector file is refused and re-embedded; a same-length damaged one fails its checksum', async () => {
    const dir = tempDir();
    const recs = records(12);
    await new SemanticIndex(createIndexStorage(dir), async () => fakeEmbedder(), nullLogger).sync(recs);
    const file = join(dir, 'vectors-vectors.f32');
    const whole = readFileSync(file);
    truncateSync(file, whole.length - 4);
    const e1 = fakeEmbedder();
    expect((await new SemanticIndex(createIndexStorage(dir), async () => e1, nullLogger).sync(recs)).embedded).toBe(12);
    // The re-embed saved again, to the set the manifest did not name (b); damage it in the middle
    // with its length kept (stat changes: full hash).
    const manifest = JSON.parse(readFileSync(join(dir, 'vectors-manifest.json'), 'utf8')) as { artifacts: object };
    expect(Object.keys(manifest.artifacts)).toContain('vectors-b.f32');
    const saved = join(dir, 'vectors-vectors-b.f32');
    const again = readFileSync(saved);
    expect(again.length).toBe(whole.length);
    again[again.length >> 1]! ^= 0xff;
    writeFileSync(saved, again);
    const e2 = fakeEmbedder();
    expect((await new SemanticIndex(createIndexStorage(dir), async () => e2, nullLogger).sync(recs)).embedded).toBe(12);
  });
});
