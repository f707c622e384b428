// The streamed full build (issue 46; engine/stream-rebuild.ts, live-index-stream.ts, segment-builder.ts
// stream, load.ts readWorkspace onBatch): the workspace is read and handed over a window of files at a
// time, in path order, and the index it builds is byte for byte the one a full read builds (segment,
// chunk records, per-file tables), skipped files (oversized, binary) and `supersedes` included.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nullLogger } from '../../../src/core/ports.js';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { IndexFreshness } from '../../../src/engine/freshness/freshness.js';
import { loadConfig, readWorkspace, type RawFile } from '../../../src/engine/load/load.js';
import { SegmentBuilder } from '../../../src/engine/segments/segment-builder.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { MemoryIndexStorage } from '../../support/memory-storage.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** 1,200 memory files (daily notes, entries, one superseding), a binary one and an oversized one. */
function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'gitmem-stream-'));
  roots.push(root);
  const files: [string, string | Buffer][] = [
    ['gitmem.config.json', JSON.stringify({ version: 1, layout: 'default', limits: { maxFileBytes: 20_000 } })],
    ['memory/notes/big.md', `# Big\n\n${'postgres pool tuning '.repeat(2000)}\n`],
    ['memory/notes/blob.md', Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02])],
    [
      'memory/entries/e-new.md',
      '---\nid: e-new\ntype: decision\ntitle: Pool size\nsupersedes: [e-3]\n---\n\nThe pool size is forty now.\n',
    ],
  ];
  for (let i = 0; i < 1200; i++) {
    if (i % 3)
      files.push([
        `memory/daily/${2020 + (i % 4)}/2020-01-${String(1 + (i % 28)).padStart(2, '0')}-${i}.md`,
        `# Day ${i}\n\n## Deploys\n\n- deploy ${i} retried the webhook w${(i * 7919) % 401}x\n- redis queue ${i % 17}\n`,
      ]);
    else
      files.push([
        `memory/entries/e-${i}.md`,
        `---\nid: e-${i}\ntype: learning\ntitle: Lesson ${i}\ntags: [t${i % 5}]\n---\n\nThe postgres pool w${i % 97}x needs care ${i}.\n`,
      ]);
  }
  const old = new Date(Date.now() - 60_000);
  for (const [p, text] of files) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), text);
    utimesSync(join(root, p), old, old);
  }
  return root;
}

async function freshness(root: string, storage: MemoryIndexStorage, lexicalWorker: string | false) {
  const fs = createNodeFs(root);
  return new IndexFreshness({
    fs,
    loaded: await loadConfig(fs),
    storage,
    fingerprint: 'fp',
    logger: nullLogger,
    lexicalWorker,
  });
}

describe('streamed full build', () => {
  it('readWorkspace with onBatch hands the files over in path order, a window at a time, and keeps none', async () => {
    const root = workspace();
    const fs = createNodeFs(root);
    const loaded = await loadConfig(fs);
    const full = await readWorkspace(fs, loaded);
    const batches: RawFile[][] = [];
    const streamed = await readWorkspace(fs, loaded, { onBatch: async (b) => void batches.push(b) });
    expect(streamed.files).toEqual([]);
    expect(batches.length).toBeGreaterThan(2);
    for (const b of batches) expect(b.length).toBeLessThanOrEqual(512);
    const paths = batches.flat().map((f) => f.path as string);
    expect(paths).toEqual(full.files.map((f) => f.path as string));
    expect([...paths].sort()).toEqual(paths);
    expect(streamed.hashes).toEqual(full.hashes);
    expect(streamed.skipped.map((s) => s.path).sort()).toEqual(['memory/notes/big.md', 'memory/notes/blob.md']);
    expect(streamed.count).toBe(full.count);
    expect(streamed.bytes).toBe(full.bytes);
  });

  for (const worker of [false, resolve('dist/lexical-worker.js')] as const) {
    it(`index --rebuild streamed writes the index a full read builds (${worker ? 'worker' : 'main thread'})`, async () => {
      if (worker) expect(existsSync(worker), 'run npm run build first').toBe(true);
      const root = workspace();
      const a = new MemoryIndexStorage();
      const b = new MemoryIndexStorage();
      const streamedF = await freshness(root, a, worker);
      const fullF = await freshness(root, b, worker);
      const s = await streamedF.walk({ rebuild: true });
      // `full` reads every text at once (the path a paranoid index takes): the reference.
      const f = await fullF.walk({ full: true });
      expect(s.raw.files).toEqual([]);
      expect(f.raw.files.length).toBe(1201);
      expect(s.out.update?.upserted.length).toBe(1203);
      expect(s.snap.chunks.size).toBe(f.snap.chunks.size);
      const names = (st: MemoryIndexStorage) => [...st.files.keys()].filter((n) => !n.startsWith('write')).sort();
      expect(names(a)).toEqual(names(b));
      // Every artifact byte for byte; the manifest (it records when it was written) by its artifacts.
      for (const n of names(a).filter((n) => n !== 'manifest.json'))
        expect(Buffer.from(a.files.get(n)!).equals(Buffer.from(b.files.get(n)!)), n).toBe(true);
      const listed = (st: MemoryIndexStorage) => JSON.parse(st.text('manifest.json')!).artifacts;
      expect(listed(a)).toEqual(listed(b));
      const hits = (snap: typeof s.snap, q: string) => snap.lexical.search(q, 20).map((h) => [h.ref, h.score]);
      for (const q of ['postgres pool', 'webhook w7x', 'redis queue 3', 'forty'])
        expect(hits(s.snap, q)).toEqual(hits(f.snap, q));
      const sup = (snap: typeof s.snap) => [...(snap.chunks.superseding?.() ?? [])].map((r: ChunkRecord) => r.id);
      expect(sup(s.snap)).toEqual(['memory/entries/e-new.md#8']);
      expect(sup(s.snap)).toEqual(sup(f.snap));
      // The states after a streamed build serve an update like a loaded index's do.
      writeFileSync(join(root, 'memory/entries/e-3.md'), '---\nid: e-3\ntype: learning\n---\n\nzebracrossing\n');
      const after = await streamedF.walk();
      expect(after.out.update?.upserted).toEqual(['memory/entries/e-3.md']);
      expect(after.snap.lexical.search('zebracrossing', 5).map((h) => after.snap.chunks.get(h.ref)!.path)).toEqual([
        'memory/entries/e-3.md',
      ]);
    });
  }

  it('a segment fed in uneven batches is the segment built from all records at once', async () => {
    const worker = resolve('dist/lexical-worker.js');
    expect(existsSync(worker), 'run npm run build first').toBe(true);
    const rs: ChunkRecord[] = Array.from({ length: 5000 }, (_, i) => ({
      id: `memory/n-${String(i).padStart(5, '0')}.md#1`,
      path: `memory/n-${String(i).padStart(5, '0')}.md`,
      kind: 'note',
      startLine: 1,
      endLine: 2,
      headingPath: [],
      text: `note ${i} deploy w${(i * 31) % 977}x é`,
      tags: [],
    }));
    for (const script of [worker, false] as const) {
      const builder = new SegmentBuilder({ script, logger: nullLogger });
      try {
        const whole = await builder.build(rs, { offThread: true, chunks: true });
        const stream = builder.stream();
        for (let i = 0; i < rs.length;) {
          const n = 1 + ((i * 7) % 2600);
          await stream.add(rs.slice(i, i + n));
          i += n;
        }
        const fed = await stream.finish();
        expect(fed.where).toBe(script ? 'worker' : 'inline');
        if ('files' in fed) throw new Error('no spill was asked for');
        expect(Buffer.from(fed.lexBytes).equals(Buffer.from(whole.lexBytes))).toBe(true);
        expect(Buffer.from(fed.chunksBytes).equals(Buffer.from(whole.chunksBytes!))).toBe(true);
        // The builder is free again: the next job runs.
        expect((await builder.build(rs.slice(0, 3), { chunks: true })).lexical.size).toBe(3);
      } finally {
        await builder.dispose();
      }
    }
  });
});
