// The binary segment form (indexes/lexical-codec.ts): a loaded segment answers exactly as the built
// one, re-encodes to the same bytes, and damaged bytes are index.corrupt (never a crash).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { LexicalIndex, SegmentedLexical, type LexicalDoc } from '../../../src/indexes/lexical.js';

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
