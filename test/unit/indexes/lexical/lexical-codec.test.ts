// The binary segment form (indexes/lexical/lexical-codec.ts): a loaded segment answers exactly as the built
// one, re-encodes to the same bytes, and damaged bytes are index.corrupt (never a crash); a segment
// opened from its file (postings read on demand) answers the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../../src/core/errors.js';
import { LexicalIndex, SegmentedLexical, type LexicalDoc } from '../../../../src/indexes/lexical/lexical.js';
import { createIndexStorage } from '../../../../src/platform/index-storage.js';

const WORDS = [
  'deploy',
  'deployed',
  'cache',
  'caching',
  'redis',
  'pool',
  'café',
  '東京',
  'getUserName',
  'json',
  'général',
];
const docArb = fc.array(
  fc.record({
    text: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(' ')),
    title: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
    tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }),
  }),
  { minLength: 0, maxLength: 30 },
);
const queries = [
  'deploy',
  'deploy* cache',
  'caf*',
  '東京',
  '+redis pool',
  'json -cache',
  'gen*',
  'getusername',
  'nothing',
];

function docs(raw: { text: string; title?: string | undefined; tags: string[] }[]): LexicalDoc[] {
  return raw.map((d, i) => ({
    ref: `memory/n${i % 7}.md#${i}`,
    text: d.text,
    ...(d.title ? { title: d.title } : {}),
    tags: d.tags,
  }));
}

function corruptCode(fn: () => unknown): boolean {
  try {
    const idx = fn() as LexicalIndex;
    // Damage that passes the structural checks must still never crash a query.
    for (const q of queries) idx.search(q);
    return false;
  } catch (e) {
    return isMemoryError(e, 'index.corrupt');
  }
}

describe('binary segment codec', () => {
  it('property: fromBinary(toBinary(x)) searches like x and re-encodes to the same bytes', () => {
    fc.assert(
      fc.property(docArb, (raw) => {
        const built = LexicalIndex.build(docs(raw));
        const bytes = built.toBinary();
        const loaded = LexicalIndex.fromBinary(bytes);
        expect(loaded.size).toBe(built.size);
        expect(loaded.refs).toEqual(built.refs);
        for (const q of queries) expect(loaded.search(q), q).toEqual(built.search(q));
        expect(Buffer.from(loaded.toBinary()).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a loaded base with masked refs and a delta searches like a rebuild', () => {
    const all = docs(
      Array.from({ length: 40 }, (_, i) => ({ text: `${WORDS[i % 11]} ${WORDS[(i * 3) % 11]}`, tags: [] })),
    );
    const base = LexicalIndex.fromBinary(LexicalIndex.build(all).toBinary());
    const changed = all.slice(0, 5).map((d) => ({ ...d, text: `${d.text} redis redis` }));
    const delta = LexicalIndex.fromBinary(LexicalIndex.build(changed).toBinary());
    const seg = new SegmentedLexical([{ index: base, masked: changed.map((d) => d.ref) }, { index: delta }]);
    const truth = LexicalIndex.build([...all.slice(5), ...changed]);
    for (const q of queries) expect(seg.search(q), q).toEqual(truth.search(q));
    expect(seg.search('redis').length).toBeGreaterThan(0);
    const merged = LexicalIndex.merge([{ index: base, drop: changed.map((d) => d.ref) }, { index: delta }]);
    for (const q of queries) expect(merged.search(q), q).toEqual(truth.search(q));
  });

  it('property: fromFile reads postings on demand and answers, merges and re-encodes like fromBinary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-lexfile-'));
    try {
      const storage = createIndexStorage(dir);
      let k = 0;
      await fc.assert(
        fc.asyncProperty(docArb, async (raw) => {
          const built = LexicalIndex.build(docs(raw));
          const bytes = built.toBinary();
          const name = `s${k++}.lex`;
          await storage.write(name, bytes);
          const file = (await storage.openRanged!(name))!;
          const loaded = LexicalIndex.fromFile(file);
          expect(loaded.refs).toEqual(built.refs);
          for (const q of queries) expect(loaded.search(q), q).toEqual(built.search(q));
          // Masked refs (a base under a delta), then a merge and an encode: every posting is read.
          const masked = built.refs.filter((_, i) => i % 3 === 0);
          const delta = LexicalIndex.build(docs(raw.slice(0, 3)).map((d) => ({ ...d, ref: `${d.ref}x` })));
          const seg = new SegmentedLexical([{ index: loaded, masked }, { index: delta }]);
          const truth = new SegmentedLexical([{ index: built, masked }, { index: delta }]);
          for (const q of queries) expect(seg.search(q), q).toEqual(truth.search(q));
          expect(Buffer.from(loaded.toBinary()).equals(Buffer.from(bytes))).toBe(true);
          const merged = LexicalIndex.merge([{ index: loaded, drop: masked }, { index: delta }]);
          const mergedTruth = LexicalIndex.merge([{ index: built, drop: masked }, { index: delta }]);
          for (const q of queries) expect(merged.search(q), q).toEqual(mergedTruth.search(q));
        }),
        { numRuns: 40 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fromFile reads a query its postings only; once the file is closed an unread term is index.corrupt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-lexfile-'));
    try {
      const storage = createIndexStorage(dir);
      const many = Array.from({ length: 3000 }, (_, i) => ({
        ref: `memory/n${i}.md#1`,
        text: `${WORDS[i % 11]} w${i} w${i + 1} w${(i * 7) % 3001} common`,
      }));
      const bytes = LexicalIndex.build(many).toBinary();
      await storage.write('big.lex', bytes);
      const file = (await storage.openRanged!('big.lex'))!;
      let read = 0;
      const counted = { ...file, read: (t: Uint8Array, at: number) => ((read += t.length), file.read(t, at)) };
      const loaded = LexicalIndex.fromFile(counted);
      const atLoad = read;
      expect(loaded.search('w17').map((h) => h.ref)).toEqual(
        LexicalIndex.fromBinary(bytes)
          .search('w17')
          .map((h) => h.ref),
      );
      // Two short posting lists: a few dozen bytes beyond what the load read, not the segment.
      expect(read - atLoad).toBeLessThan(200);
      // The load reads neither the postings (P ids, NF tf each) nor the documents' vocabulary ids (RI).
      const header = new DataView(bytes.buffer, bytes.byteOffset, 48);
      const [n, P, RI, refsB] = [12, 24, 28, 32].map((at) => header.getUint32(at, true)) as [
        number,
        number,
        number,
        number,
      ];
      // Nor the refs: their text, offsets and order (issue 46); a hit's ref is read alone.
      const refs = refsB + 4 * (n + 1) + 4 * n;
      expect(atLoad).toBeLessThanOrEqual(bytes.length - P * (4 + 2 * 4) - RI * 4 - refs);
      // Masking two documents by id reads nothing more than the search's postings and refs.
      const want = new SegmentedLexical([
        { index: LexicalIndex.fromBinary(bytes), masked: ['memory/n5.md#1', 'memory/n6.md#1'] },
      ])
        .search('w17')
        .map((h) => h.ref);
      let before = read;
      const byId = new SegmentedLexical([{ index: loaded, maskedIds: [5, 6] }]);
      expect(byId.search('w17').map((h) => h.ref)).toEqual(want);
      expect(read - before).toBeLessThan(200);
      // By ref: the first lookup reads the refs whole (once), still no document's vocabulary ids.
      before = read;
      const masked = new SegmentedLexical([{ index: loaded, masked: ['memory/n5.md#1', 'memory/n6.md#1'] }]);
      expect(masked.search('w17').map((h) => h.ref)).toEqual(want);
      expect(read - before).toBeLessThanOrEqual(refs + 200);
      before = read;
      expect(loaded.has('memory/n9.md#1')).toBe(true);
      expect(loaded.refAt(2999)).toBe('memory/n2999.md#1');
      expect(read).toBe(before);
      loaded.close();
      expect(() => loaded.search('common')).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
      // A term read before the close still answers.
      expect(loaded.search('w17').length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('truncated, extended, wrong-version and damaged-offset bytes are index.corrupt', () => {
    const bytes = LexicalIndex.build(
      docs([
        { text: 'deploy cache redis', tags: ['pool'] },
        { text: 'café 東京', tags: [] },
      ]),
    ).toBinary();
    const variants: Uint8Array[] = [
      bytes.slice(0, 10),
      bytes.slice(0, bytes.length - 1),
      new Uint8Array([...bytes, 0, 0, 0, 0]),
    ];
    const version = bytes.slice();
    new DataView(version.buffer).setUint32(4, 1, true); // the previous format
    variants.push(version);
    const magic = bytes.slice();
    magic[0] = magic[0]! ^ 0xff;
    variants.push(magic);
    for (const v of variants) expect(corruptCode(() => LexicalIndex.fromBinary(v))).toBe(true);
  });

  it('property: any single damaged byte is either index.corrupt or still answers without throwing', () => {
    const bytes = LexicalIndex.build(
      docs(Array.from({ length: 12 }, (_, i) => ({ text: WORDS.slice(i % 5, (i % 5) + 4).join(' '), tags: [] }))),
    ).toBinary();
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, x) => {
        const v = bytes.slice();
        v[at] = v[at]! ^ x;
        try {
          const idx = LexicalIndex.fromBinary(v);
          for (const q of queries) idx.search(q);
        } catch (e) {
          expect(isMemoryError(e, 'index.corrupt'), String(e)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
