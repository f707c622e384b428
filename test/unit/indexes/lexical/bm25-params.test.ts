// BM25 k1 and b per search (config `recall.bm25`): the defaults are lunr's, b moves how much a long
// chunk is penalised, k1 how much repeated terms count.
import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../../../../src/indexes/lexical/lexical.js';

const docs = [
  // One mention in a long chunk against one mention in a short one.
  { ref: 'long', text: `The deploy runbook. ${'Other words about unrelated topics and chores. '.repeat(12)}` },
  { ref: 'short', text: 'Runbook for the deploy.' },
  { ref: 'none', text: 'Nothing relevant here at all.' },
];

describe('BM25 parameters per search', () => {
  const index = LexicalIndex.build(docs);

  it('defaults to lunr k1 1.2, b 0.75 (same scores as passing them)', () => {
    expect(index.search('runbook')).toEqual(index.search('runbook', undefined, { k1: 1.2, b: 0.75 }));
  });

  it('b 0 ignores chunk length; b 1 penalises the long chunk fully', () => {
    const flat = index.search('runbook', undefined, { b: 0 });
    expect(flat.map((h) => h.ref).sort()).toEqual(['long', 'short']);
    expect(flat[0]!.score).toBeCloseTo(flat[1]!.score, 6);
    const full = index.search('runbook', undefined, { b: 1 });
    expect(full.map((h) => h.ref)).toEqual(['short', 'long']);
    const half = index.search('runbook', undefined, { b: 0.5 });
    const gap = (hs: typeof full) => hs.find((h) => h.ref === 'short')!.score - hs.find((h) => h.ref === 'long')!.score;
    expect(gap(half)).toBeGreaterThan(0);
    expect(gap(half)).toBeLessThan(gap(full));
  });

  it('k1 0 makes term frequency irrelevant (every matching chunk scores the idf)', () => {
    const hs = index.search('runbook', undefined, { k1: 0 });
    expect(hs).toHaveLength(2);
    expect(hs[0]!.score).toBeCloseTo(hs[1]!.score, 6);
  });
});
