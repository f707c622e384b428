// The streamed full build on disk (issue 46; engine/spill-build.ts, spill.ts, segment-builder.ts stream
// `spill`, live-index-stream.ts adoptStaged): with an index folder on disk, the keyword worker folds
// records into runs of a bounded size, merges them term by term into the segment file and writes the
// chunk-record artifact from file-backed regions. The artifacts are byte for byte those of the
// in-memory build, no build file is left behind, and the saved index loads and answers the same.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nullLogger, type IndexStorage } from '../../../src/core/ports.js';
import { IndexFreshness } from '../../../src/engine/freshness/freshness.js';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { loadConfig } from '../../../src/engine/load/load.js';
import { SegmentBuilder } from '../../../src/engine/segments/segment-builder.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { MemoryIndexStorage } from '../../support/memory-storage.js';

const WORKER = resolve('dist/lexical-worker.js');
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'gitmem-spill-'));
  roots.push(d);
  return d;
};

const records: ChunkRecord[] = Array.from({ length: 5000 }, (_, i) => ({
  id: `memory/n-${String(i).padStart(5, '0')}.md#1`,
  path: `memory/n-${String(i).padStart(5, '0')}.md`,
  kind: 'note',
  startLine: 1,
  endLine: 2,
  headingPath: i % 3 ? ['Day', `Part ${i % 7}`] : [],
  text: `note ${i} deploy w${(i * 31) % 977}x é データ ${i % 13 ? 'redis' : 'postgres'}`,
  tags: i % 5 ? [] : ['ops'],
  ...(i % 11 ? {} : { vkey: createHash('sha256').update(String(i)).digest('hex') }),
}));

describe('streamed full build on disk', () => {
  it('runs merged in the worker give the bytes of the in-memory build, and leave only the two artifacts', async () => {
    expect(existsSync(WORKER), 'run npm run build first').toBe(true);
    const folder = temp();
    const builder = new SegmentBuilder({ script: WORKER, logger: nullLogger });
    try {
      const whole = await builder.build(records, { offThread: true, chunks: true });
      const stream = builder.stream({ spill: { folder, name: `stream-${process.pid}-t1`, runDocs: 700 } });
      for (let i = 0; i < records.length;) {
        const n = 1 + ((i * 7) % 2600);
        await stream.add(records.slice(i, i + n));
        i += n;
      }
      const fed = await stream.finish();
      if (!('files' in fed)) throw new Error('the worker was asked to spill');
      expect(readdirSync(folder).sort()).toEqual([fed.files.chunks.name, fed.files.lex.name].sort());
      const lex = readFileSync(join(folder, fed.files.lex.name));
      const chunks = readFileSync(join(folder, fed.files.chunks.name));
      expect(lex.equals(Buffer.from(whole.lexBytes))).toBe(true);
      expect(chunks.equals(Buffer.from(whole.chunksBytes!))).toBe(true);
      expect(fed.files.lex).toMatchObject({ sha256: whole.lexInfo.sha256, bytes: lex.length });
      expect(fed.files.chunks).toMatchObject({ sha256: whole.chunksInfo!.sha256, bytes: chunks.length });
      // An aborted spilled stream removes what it wrote.
      const aborted = builder.stream({ spill: { folder, name: `stream-${process.pid}-t2`, runDocs: 700 } });
      await aborted.add(records.slice(0, 2000));
      aborted.abort();
      expect((await builder.build(records.slice(0, 3), { offThread: true, chunks: true })).lexical.size).toBe(3);
      expect(readdirSync(folder).filter((n) => n.includes('-t2'))).toEqual([]);
    } finally {
      await builder.dispose();
    }
  });

  it('files of a build whose process is gone are swept when the storage hands out its folder; a live process keeps its own', async () => {
    const folder = temp();
    writeFileSync(join(folder, 'stream-999999999-x.lex'), 'old');
    writeFileSync(join(folder, `stream-${process.pid}-y.lex`), 'mine');
    writeFileSync(join(folder, 'base-0123.lex'), 'artifact');
    expect(await createIndexStorage(folder).localFolder!()).toBe(folder);
    expect(readdirSync(folder).sort()).toEqual(['.gitignore', 'base-0123.lex', `stream-${process.pid}-y.lex`]);
  });

  it('index --rebuild into a folder on disk saves the artifacts a full read builds, which load and answer alike', async () => {
    expect(existsSync(WORKER), 'run npm run build first').toBe(true);
    const root = temp();
    const old = new Date(Date.now() - 60_000);
    for (let i = 0; i < 900; i++) {
      const p = join(root, `memory/daily/2024/2024-01-${String(1 + (i % 28)).padStart(2, '0')}-${i}.md`);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(
        p,
        `# Day ${i}\n\n## Deploys\n\n- deploy ${i} retried webhook w${(i * 7919) % 401}x\n- redis ${i % 17}\n`,
      );
      utimesSync(p, old, old);
    }
    writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'default' }));
    const fs = createNodeFs(root);
    const loaded = await loadConfig(fs);
    const dir = join(root, 'index');
    const make = (storage: IndexStorage) =>
      new IndexFreshness({
        fs,
        loaded,
        storage,
        fingerprint: 'fp',
        logger: nullLogger,
        lexicalWorker: WORKER,
        tuning: { runDocs: 250 },
      });
    const mem = new MemoryIndexStorage();
    const disk = createIndexStorage(dir);
    const renamed: string[] = [];
    const onDisk = make({
      ...disk,
      rename: async (a: string, b: string) => (renamed.push(`${a} -> ${b}`), disk.rename!(a, b)),
    });
    const s = await onDisk.walk({ rebuild: true });
    const f = await make(mem).walk({ full: true });
    expect(s.out.update?.persisted).toBe(true);
    // Built on disk: the worker's two files were renamed into the artifacts the manifest names.
    expect(renamed).toEqual([
      expect.stringMatching(/^stream-\d+-\w+\.lex -> base-[0-9a-f]{16}\.lex$/),
      expect.stringMatching(/^stream-\d+-\w+\.chunks -> base-[0-9a-f]{16}\.chunks$/),
    ]);
    const names = readdirSync(dir).filter((n) => !n.startsWith('.') && n !== 'write.lock');
    expect(names.filter((n) => n.startsWith('stream-'))).toEqual([]);
    const artifacts = [...mem.files.keys()].filter((n) => n !== 'manifest.json' && !n.startsWith('write'));
    expect(names.filter((n) => n !== 'manifest.json').sort()).toEqual(artifacts.sort());
    for (const n of artifacts) expect(readFileSync(join(dir, n)).equals(Buffer.from(mem.files.get(n)!)), n).toBe(true);
    const hits = (snap: typeof s.snap, q: string) => snap.lexical.search(q, 20).map((h) => [h.ref, h.score]);
    // A second index --rebuild over the saved index (never loaded by it) saves too.
    const twice = await make(createIndexStorage(dir)).walk({ rebuild: true });
    expect(twice.out.update?.persisted).toBe(true);
    const again = await make(createIndexStorage(dir)).walk();
    expect(again.out.source).toBe('loaded');
    for (const q of ['webhook w7x', 'redis 3', 'deploy 12']) {
      expect(hits(s.snap, q)).toEqual(hits(f.snap, q));
      expect(hits(again.snap, q)).toEqual(hits(f.snap, q));
    }
  });
});
