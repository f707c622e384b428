// Segmented keyword index (base + delta, masked base entries, global BM25 statistics) ranks exactly
// like one index built over the same live documents: same refs, same order, same scores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LexicalIndex, SegmentedLexical, type LexicalDoc } from '../../../../src/indexes/lexical/lexical.js';

const WORDS = [
  'deploy',
  'deploys',
  'deployment',
  'database',
  'migration',
  'migrate',
  'retry',
  'retries',
  'webhook',
  'getUserName',
  'user_id',
  'café',
  'cafe',
  '東京タワー',
  'pool',
  'pooling',
  'general',
  'generate',
  'happy',
  'happiness',
  'json',
  'the',
  'a',
];
const QUERIES = [
  'deploy',
  'deploy*',
  'dep*',
  'migrat*',
  'retry webhook',
  '+database pool',
  'pool -json',
  'getUserName',
  'user*',
  'café',
  'cafe',
  '東',
  '東京',
  'gen*',
  'happi*',
  'happ*',
  'json database retry',
  '+retry +webhook',
  'nothing',
  'a*',
  'c*',
];

const docArb = fc.record({
  text: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(' ')),
  title: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
  tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }),
  headings: fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }),
});

function check(live: Map<string, LexicalDoc>, seg: SegmentedLexical) {
  const full = LexicalIndex.build([...live.values()]);
  expect(seg.size).toBe(full.size);
  for (const q of QUERIES) expect(seg.search(q), q).toEqual(full.search(q));
  for (const ref of live.keys()) expect(seg.has(ref)).toBe(true);
}

describe('SegmentedLexical', () => {
  it('base + delta with masks equals a full rebuild (fast-check over edit sequences)', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 25 }),
        fc.array(fc.tuple(fc.constantFrom('edit', 'delete', 'add'), fc.nat(40), docArb), { maxLength: 15 }),
        (initial, ops) => {
          const base = new Map<string, LexicalDoc>();
          initial.forEach((d, i) => base.set(`f${i}.md#1`, { ref: `f${i}.md#1`, ...d }));
          const baseIndex = LexicalIndex.build([...base.values()], { lunr: false });
          const live = new Map(base);
          const dirty = new Set<string>();
          for (const [op, k, d] of ops) {
            const ref = op === 'add' ? `n${k}.md#1` : [...base.keys()][k % base.size]!;
            dirty.add(ref);
            if (op === 'delete') live.delete(ref);
            else live.set(ref, { ref, ...d });
          }
          const delta = LexicalIndex.build(
            [...live.values()].filter((d) => dirty.has(d.ref)),
            { lunr: false },
          );
          check(live, new SegmentedLexical([{ index: baseIndex, masked: dirty }, { index: delta }]));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('merge (dropping superseded docs, adding new ones) equals a build over the same docs (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 0, maxLength: 15 }),
        fc.array(docArb, { maxLength: 8 }),
        fc.array(fc.nat(20), { maxLength: 6 }),
        (olds, news, drops) => {
          const a = olds.map((d, i) => ({ ref: `a${i}.md#1`, ...d }));
          const dropped = new Set(drops.filter((k) => k < a.length).map((k) => `a${k}.md#1`));
          const b = news.map((d, i) => ({ ref: `b${i}.md#1`, ...d }));
          const merged = LexicalIndex.merge([
            { index: LexicalIndex.build(a, { lunr: false }), drop: dropped },
            { index: LexicalIndex.build(b, { lunr: false }) },
          ]);
          const truth = LexicalIndex.build([...a.filter((d) => !dropped.has(d.ref)), ...b]);
          expect(merged.size).toBe(truth.size);
          for (const q of QUERIES) expect(merged.search(q), q).toEqual(truth.search(q));
          // And inside a segmented index next to a base, after a binary round trip.
          const again = LexicalIndex.fromBinary(merged.toBinary());
          for (const q of QUERIES) expect(again.search(q), q).toEqual(truth.search(q));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an empty delta and no masks equal the base; binary round trip keeps every answer', () => {
    const docs = Array.from({ length: 30 }, (_, i) => ({
      ref: `d${i}#1`,
      text: WORDS.filter((_, j) => (i + j) % 3 === 0).join(' '),
    }));
    const base = LexicalIndex.build(docs);
    const seg = new SegmentedLexical([
      { index: LexicalIndex.fromBinary(base.toBinary()) },
      { index: LexicalIndex.build([]) },
    ]);
    for (const q of QUERIES) expect(seg.search(q), q).toEqual(base.search(q));
    // Unaligned bytes (as a pooled Buffer may hand them over) load too.
    const bin = base.toBinary();
    const odd = new Uint8Array(bin.length + 1);
    odd.set(bin, 1);
    expect(LexicalIndex.fromBinary(odd.subarray(1)).search('deploy')).toEqual(base.search('deploy'));
  });

  it('a ref live in two segments is a caller bug', () => {
    const a = LexicalIndex.build([{ ref: 'x#1', text: 'a b' }]);
    const b = LexicalIndex.build([{ ref: 'x#1', text: 'c d' }]);
    expect(() => new SegmentedLexical([{ index: a }, { index: b }])).toThrow(/two keyword segments/);
    expect(new SegmentedLexical([{ index: a, masked: ['x#1'] }, { index: b }]).search('c')).toEqual(b.search('c'));
  });

  it('damaged binary segments are index.corrupt', () => {
    const bin = LexicalIndex.build([{ ref: 'x#1', text: 'alpha beta' }]).toBinary();
    for (const bad of [
      bin.slice(0, 10),
      bin.slice(0, bin.length - 2),
      Uint8Array.from(bin, (b, i) => (i === 0 ? b ^ 1 : b)),
    ]) {
      expect(() => LexicalIndex.fromBinary(bad)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
    }
  });
});
