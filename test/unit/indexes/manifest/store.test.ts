import {
  closeSync,
  cpSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../../src/core/errors.js';
import { sha256 } from '../../../../src/core/hash.js';
import { LUNR_VERSION } from '../../../../src/indexes/lexical/lexical.js';
import type { IndexManifest } from '../../../../src/indexes/manifest/manifest.js';
import { eachDoc } from '../../../../src/indexes/manifest/manifest-files.js';
import {
  artifactText,
  loadIndex,
  MANIFEST_NAME,
  sampleHash,
  saveIndex,
  type ManifestFields,
} from '../../../../src/indexes/manifest/store.js';
import { createIndexStorage } from '../../../../src/platform/index-storage.js';
import { loadLunrJson, lunrJson, buildWithLunr } from '../../../support/lunr-reference.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';

const fields: ManifestFields = {
  formatVersion: 1,
  fingerprint: 'fp-a',
  docs: { 'memory/MEMORY.md': { contentHash: 'h1', chunkCount: 2 } },
  chunkCount: 2,
};
const expected = { formatVersion: 1, fingerprint: 'fp-a' };
const clock = { now: () => new Date('2026-02-03T04:05:06Z') };

async function saved(): Promise<MemoryIndexStorage> {
  const storage = new MemoryIndexStorage();
  const lexical = buildWithLunr([
    { ref: 'memory/MEMORY.md#1', text: 'Use PostgreSQL for storage' },
    { ref: 'memory/MEMORY.md#3', text: '東京でミーティング' },
  ]);
  await saveIndex(
    storage,
    {
      artifacts: {
        'lexical.json': JSON.stringify(lunrJson(lexical)),
        'chunks.json': JSON.stringify([{ id: 'memory/MEMORY.md#1' }, { id: 'memory/MEMORY.md#3' }]),
        'vectors.f32': new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
      },
      manifest: fields,
    },
    { clock },
  );
  return storage;
}

describe('saveIndex', () => {
  it('writes every artifact, then manifest.json last, with sha256 and byte length', async () => {
    const storage = await saved();
    const writes = storage.writes();
    expect(writes.at(-1)).toBe(MANIFEST_NAME);
    const m = JSON.parse(storage.text(MANIFEST_NAME)!);
    // The per-file entries are in a binary file table written with the artifacts, not in manifest.json.
    expect(m.docs).toBeUndefined();
    expect(m.files.base).toMatch(/^files-[0-9a-f]{16}\.bin$/);
    expect(new Set(writes.slice(0, -1))).toEqual(new Set(['lexical.json', 'chunks.json', 'vectors.f32', m.files.base]));
    expect(m.createdAt).toBe('2026-02-03T04:05:06.000Z');
    expect(m.lunrVersion).toBe(LUNR_VERSION);
    expect(m.artifacts['vectors.f32']).toEqual({ sha256: sha256(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), bytes: 8 });
    const lex = storage.files.get('lexical.json')!;
    expect(m.artifacts['lexical.json']).toEqual({ sha256: sha256(lex), bytes: lex.byteLength });
  });

  it('removes the old manifest before writing artifacts, so a crash leaves "missing"', async () => {
    const storage = await saved();
    storage.calls.length = 0;
    storage.failWrite = 'chunks.json';
    await expect(
      saveIndex(storage, { artifacts: { 'lexical.json': '{}', 'chunks.json': '[]' }, manifest: fields }),
    ).rejects.toSatisfy((e: unknown) => isMemoryError(e, 'index.write-failed'));
    expect(storage.files.has(MANIFEST_NAME)).toBe(false);
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('B05: a failed manifest write is an error, not a success', async () => {
    const storage = new MemoryIndexStorage();
    storage.failWrite = MANIFEST_NAME;
    await expect(saveIndex(storage, { artifacts: { 'a.json': '{}' }, manifest: fields })).rejects.toSatisfy(
      (e: unknown) => isMemoryError(e, 'index.write-failed'),
    );
  });

  it('accepts the manifest fields flat next to artifacts', async () => {
    const storage = new MemoryIndexStorage();
    const m = await saveIndex(storage, { ...fields, artifacts: { 'a.json': '{"x":1}' } });
    expect(m.fingerprint).toBe('fp-a');
    expect((await loadIndex(storage, expected)).ok).toBe(true);
  });

  it('drops artifacts the new manifest no longer names', async () => {
    const storage = await saved();
    await saveIndex(storage, { artifacts: { 'lexical.json': '{}', 'chunks.json': '[]' }, manifest: fields });
    expect(storage.files.has('vectors.f32')).toBe(false);
  });

  it('rejects artifact names that are paths or the manifest itself', async () => {
    for (const name of ['../x', 'a/b', MANIFEST_NAME, '.hidden', '']) {
      await expect(
        saveIndex(new MemoryIndexStorage(), { artifacts: { [name]: 'x' }, manifest: fields }),
        name,
      ).rejects.toSatisfy((e: unknown) => isMemoryError(e, 'internal'));
    }
  });

  it('verify: reads back what it wrote', async () => {
    const storage = new MemoryIndexStorage();
    await saveIndex(storage, { artifacts: { 'a.json': 'x' }, manifest: fields }, { verify: true });
    expect(storage.calls.filter((c) => c.op === 'read' && c.name === 'a.json')).toHaveLength(1);
  });
});

describe('loadIndex', () => {
  it('save then load: ok, with identical artifacts and a working keyword index', async () => {
    const storage = await saved();
    const res = await loadIndex(storage, expected);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.manifest.chunkCount).toBe(2);
    expect(Object.keys(res.artifacts).sort()).toEqual(['chunks.json', 'lexical.json', 'vectors.f32']);
    expect([...res.artifacts['vectors.f32']!]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const lexical = loadLunrJson(JSON.parse(artifactText(res.artifacts['lexical.json']!))).index;
    expect(lexical.search('東京').map((h) => h.ref)).toEqual(['memory/MEMORY.md#3']);
    expect(lexical.search('postgresql').map((h) => h.ref)).toEqual(['memory/MEMORY.md#1']);
  });

  it('B05: a flipped byte is corrupt', async () => {
    const storage = await saved();
    storage.flipByte('lexical.json');
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('B05: a truncated artifact is partial', async () => {
    const storage = await saved();
    storage.truncate('chunks.json');
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'partial' });
  });

  it('B05: a deleted artifact is partial', async () => {
    const storage = await saved();
    await storage.remove('vectors.f32');
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'partial' });
  });

  it('B05: a deleted manifest is missing; an empty folder too', async () => {
    const storage = await saved();
    await storage.remove(MANIFEST_NAME);
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'missing' });
    expect(await loadIndex(new MemoryIndexStorage(), expected)).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('a damaged manifest is corrupt', async () => {
    const storage = await saved();
    storage.truncate(MANIFEST_NAME);
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
    storage.put(MANIFEST_NAME, '{"formatVersion":1}');
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
    storage.put(MANIFEST_NAME, new Uint8Array([0xff, 0xfe, 0x00]));
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('a manifest naming a path outside the folder is corrupt', async () => {
    const storage = await saved();
    const m = JSON.parse(storage.text(MANIFEST_NAME)!);
    m.artifacts['../../etc/passwd'] = { sha256: 'a'.repeat(64), bytes: 1 };
    storage.put(MANIFEST_NAME, JSON.stringify(m));
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('B32: another format version is version', async () => {
    const storage = await saved();
    expect(await loadIndex(storage, { ...expected, formatVersion: 2 })).toMatchObject({ ok: false, reason: 'version' });
  });

  it('another lunr version is version', async () => {
    const storage = await saved();
    expect(await loadIndex(storage, { ...expected, lunrVersion: '9.9.9' })).toMatchObject({
      ok: false,
      reason: 'version',
    });
  });

  it('B32: another fingerprint is fingerprint', async () => {
    const storage = await saved();
    expect(await loadIndex(storage, { ...expected, fingerprint: 'fp-b' })).toMatchObject({
      ok: false,
      reason: 'fingerprint',
    });
  });

  it('storage errors are reported as corrupt, never thrown', async () => {
    const storage = await saved();
    storage.read = async () => {
      throw new Error('EACCES');
    };
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('artifactText rejects invalid UTF-8', () => {
    expect(() => artifactText(new Uint8Array([0xc3, 0x28]))).toThrow(
      expect.objectContaining({ code: 'index.corrupt' }),
    );
  });
});

describe('loadIndex on disk: the stat key vouches for an unchanged artifact', () => {
  const big = () => {
    const b = new Uint8Array(512 * 1024);
    for (let i = 0; i < b.length; i++) b[i] = (i * 31 + 7) & 0xff;
    return b;
  };

  it('records stat and sample at save; a same-size rewrite in place is still caught by the full hash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-store-'));
    try {
      const storage = createIndexStorage(dir);
      await saveIndex(storage, { artifacts: { 'big.bin': big() }, manifest: fields });
      const m = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8'));
      expect(m.artifacts['big.bin']).toMatchObject({ bytes: 512 * 1024, sample: sampleHash(big()) });
      expect(m.artifacts['big.bin'].stat).toBe(await storage.statKey!('big.bin'));
      expect(await loadIndex(storage, expected)).toMatchObject({ ok: true });
      // One byte in the middle (outside the sampled ends), same length, written in place.
      const fd = openSync(join(dir, 'big.bin'), 'r+');
      writeSync(fd, new Uint8Array([0]), 0, 1, 256 * 1024);
      closeSync(fd);
      expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a copied folder (new stat keys) is hashed in full once; the keys it kept are recorded by the next save', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-store-'));
    try {
      const from = join(dir, 'a');
      const to = join(dir, 'b');
      await saveIndex(createIndexStorage(from), { artifacts: { 'big.bin': big() }, manifest: fields });
      // A copy keeps size and mtime (cp -a) but not the inode or ctime: the recorded key no longer matches.
      cpSync(from, to, { recursive: true, preserveTimestamps: true });
      // cpSync keeps the mtime to the millisecond; one that lands on a whole second reads as a
      // whole-second file system's, which never gets a stat key (index-storage.ts): keep it off one.
      for (const n of readdirSync(to)) {
        const st = statSync(join(to, n));
        if (st.mtimeMs % 1000 === 0) utimesSync(join(to, n), st.atimeMs / 1000, (st.mtimeMs + 1) / 1000);
      }
      const storage = createIndexStorage(to);
      const names = Object.keys(JSON.parse(readFileSync(join(to, MANIFEST_NAME), 'utf8')).artifacts).sort();
      const recorded = JSON.parse(readFileSync(join(to, MANIFEST_NAME), 'utf8')).artifacts['big.bin'];
      expect(await storage.statKey!('big.bin')).not.toBe(recorded.stat);
      const first = await loadIndex(storage, expected);
      if (!first.ok) throw new Error(first.reason);
      // Every artifact was copied: the keyword data and the file table alike.
      expect([...(first.restatted ?? [])].sort()).toEqual(names);
      expect(names).toContain('big.bin');
      expect(first.manifest.artifacts['big.bin']).toEqual({
        sha256: recorded.sha256,
        bytes: recorded.bytes,
        stat: await storage.statKey!('big.bin'),
        sample: sampleHash(big()),
      });
      // The next save reuses the artifact with the info the load vouched for; later loads sample it.
      await saveIndex(
        storage,
        { artifacts: {}, manifest: fields },
        { reuse: { 'big.bin': first.manifest.artifacts['big.bin']! } },
      );
      const second = await loadIndex(storage, expected);
      expect(second).toMatchObject({ ok: true });
      expect(second.ok && second.restatted).toBeUndefined();
      // Damage in the middle of the copy, written in place (new ctime): hashed in full again, caught.
      const fd = openSync(join(to, 'big.bin'), 'r+');
      writeSync(fd, new Uint8Array([0]), 0, 1, 256 * 1024);
      closeSync(fd);
      expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with the recorded stat key, damage at either end is caught by the sample', async () => {
    const storage = new MemoryIndexStorage();
    Object.assign(storage, {
      statKey: async (name: string) => (storage.files.has(name) ? 'same-stat' : undefined),
    });
    await saveIndex(storage, { artifacts: { 'big.bin': big() }, manifest: fields });
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: true });
    storage.flipByte('big.bin', 3);
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
    storage.flipByte('big.bin', 3);
    storage.flipByte('big.bin', 512 * 1024 - 2);
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
  });
});

describe('per-file entries in file tables: base, delta, compaction, crash', () => {
  const doc = (i: number, v = 0) => ({ contentHash: `h${i}.${v}`, chunkCount: 1 + (i % 3), stat: `${i}:${v}:0:1` });
  const docsOf = (n: number, edits: Record<number, number> = {}) => {
    const d: Record<string, ReturnType<typeof doc>> = {};
    for (let i = 0; i < n; i++) d[`memory/f-${String(i).padStart(4, '0')}.md`] = doc(i, edits[i] ?? 0);
    return d;
  };
  const sum = (d: Record<string, { chunkCount: number }>) => Object.values(d).reduce((s, x) => s + x.chunkCount, 0);
  const save = (storage: MemoryIndexStorage, docs: Record<string, ReturnType<typeof doc>>, previous?: IndexManifest) =>
    saveIndex(
      storage,
      { artifacts: { 'a.json': '{}' }, manifest: { ...fields, docs, chunkCount: sum(docs) } },
      previous ? { previous } : {},
    );

  it('a save after a small change writes a delta table only; load applies it', async () => {
    const storage = new MemoryIndexStorage();
    const first = await save(storage, docsOf(500));
    const base = first.files!.base;
    storage.calls.length = 0;
    const docs = docsOf(500, { 7: 1 });
    delete (docs as Record<string, unknown>)['memory/f-0009.md'];
    docs['memory/new.md'] = doc(900);
    const second = await save(storage, docs, first);
    expect(second.files!.base).toBe(base);
    expect(second.files!.delta).toMatch(/^files-delta-[0-9a-f]{16}\.bin$/);
    expect(storage.writes()).not.toContain(base);
    // Three rows (one changed, one removed, one added) instead of 500.
    expect(storage.files.get(second.files!.delta!)!.byteLength).toBeLessThan(storage.files.get(base)!.byteLength / 20);
    const res = await loadIndex(storage, expected);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    // eachDoc reads the tables' columns: the same entries as `docs`, in the same order.
    const walked: [string, unknown][] = [];
    eachDoc(res.manifest, (p, contentHash, stat, chunkCount) =>
      walked.push([p, { contentHash, chunkCount, ...(stat !== undefined ? { stat } : {}) }]),
    );
    expect(walked).toEqual(Object.entries(docs));
    expect(res.manifest.docs).toEqual(docs);
    expect(Object.keys(res.artifacts)).toEqual(['a.json']);
    // The delta is cumulative: a third save keeps the earlier changes in it, on the same base.
    const third = await save(storage, { ...docs, 'memory/f-0001.md': doc(1, 5) }, res.manifest);
    expect(third.files!.base).toBe(base);
    const again = await loadIndex(storage, expected);
    expect(again.ok && again.manifest.docs).toEqual({ ...docs, 'memory/f-0001.md': doc(1, 5) });
    // Only the live tables remain on disk.
    expect([...storage.files.keys()].filter((n) => n.startsWith('files-')).sort()).toEqual(
      [base, third.files!.delta!].sort(),
    );
  });

  it('past the delta limit the tables are folded into a new base, and the old ones are removed', async () => {
    const storage = new MemoryIndexStorage();
    let m = await save(storage, docsOf(200));
    const firstBase = m.files!.base;
    const edits: Record<number, number> = {};
    // fileDeltaLimit(200) is 64: the 65th changed file folds the tables into a new base.
    for (let i = 0; i < 64; i++) {
      edits[i] = 1;
      m = await save(storage, docsOf(200, edits), m);
      expect(m.files!.base).toBe(firstBase);
    }
    edits[64] = 1;
    m = await save(storage, docsOf(200, edits), m);
    expect(m.files!.base).not.toBe(firstBase);
    expect(m.files!.delta).toBeUndefined();
    expect(storage.files.has(firstBase)).toBe(false);
    expect([...storage.files.keys()].filter((n) => n.startsWith('files-'))).toEqual([m.files!.base]);
    const res = await loadIndex(storage, expected);
    expect(res.ok && res.manifest.docs).toEqual(docsOf(200, edits));
  });

  it('a crash while the delta is written leaves the previous index whole', async () => {
    const storage = new MemoryIndexStorage();
    const first = await save(storage, docsOf(100));
    storage.failWrite = 'a.json'; // fails after the delta table is written (names are written sorted)
    await expect(save(storage, docsOf(100, { 3: 1 }), first)).rejects.toSatisfy((e: unknown) =>
      isMemoryError(e, 'index.write-failed'),
    );
    // a.json is rewritten under the same name, so the old manifest went first: missing, not mixed.
    expect((await loadIndex(storage, expected)).ok).toBe(false);
    // With fresh artifact names (as the live index saves), the old manifest stays until the new one replaces it.
    const s2 = new MemoryIndexStorage();
    const one = await saveIndex(s2, {
      artifacts: { 'x-1.json': '{}' },
      manifest: { ...fields, docs: docsOf(100), chunkCount: sum(docsOf(100)) },
    });
    s2.failWrite = 'x-2.json';
    const docs = docsOf(100, { 3: 1 });
    await expect(
      saveIndex(
        s2,
        { artifacts: { 'x-2.json': '{}' }, manifest: { ...fields, docs, chunkCount: sum(docs) } },
        { previous: one },
      ),
    ).rejects.toSatisfy((e: unknown) => isMemoryError(e, 'index.write-failed'));
    const res = await loadIndex(s2, expected);
    expect(res.ok && res.manifest.docs).toEqual(docsOf(100));
  });

  it('a damaged or mismatched file table is corrupt', async () => {
    const storage = new MemoryIndexStorage();
    const m = await save(storage, docsOf(50));
    // Re-signed (checksum fixed) but chunk counts no longer add up.
    const wrong = JSON.parse(storage.text(MANIFEST_NAME)!);
    wrong.chunkCount += 1;
    storage.put(MANIFEST_NAME, JSON.stringify(wrong));
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
    // Re-signed garbage in place of the table.
    const junk = new Uint8Array(64).fill(7);
    storage.put(m.files!.base, junk);
    wrong.chunkCount -= 1;
    wrong.artifacts[m.files!.base] = { sha256: sha256(junk), bytes: junk.byteLength };
    storage.put(MANIFEST_NAME, JSON.stringify(wrong));
    expect(await loadIndex(storage, expected)).toMatchObject({
      ok: false,
      reason: 'corrupt',
      detail: expect.stringMatching(/file table/),
    });
    // Inline docs next to file tables are not a shape we write.
    storage.put(MANIFEST_NAME, JSON.stringify({ ...wrong, docs: {} }));
    expect(await loadIndex(storage, expected)).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('a manifest with inline per-file entries (older saves, the vector index) still loads', async () => {
    const storage = new MemoryIndexStorage();
    const docs = docsOf(3);
    storage.put('a.json', '{}');
    storage.put(
      MANIFEST_NAME,
      JSON.stringify({
        formatVersion: 1,
        lunrVersion: LUNR_VERSION,
        createdAt: new Date(0).toISOString(),
        fingerprint: 'fp-a',
        docs,
        artifacts: { 'a.json': { sha256: sha256(new TextEncoder().encode('{}')), bytes: 2 } },
        chunkCount: sum(docs),
      }),
    );
    const res = await loadIndex(storage, expected);
    expect(res.ok && res.manifest.docs).toEqual(docs);
    // An index without files keeps `docs: {}` inline and writes no table.
    const empty = new MemoryIndexStorage();
    await saveIndex(empty, {
      artifacts: { 'v.bin': new Uint8Array([1]) },
      manifest: { ...fields, docs: {}, chunkCount: 0 },
    });
    expect(JSON.parse(empty.text(MANIFEST_NAME)!).docs).toEqual({});
    expect([...empty.files.keys()].some((n) => n.startsWith('files-'))).toBe(false);
  });
});
