// Reciprocal rank fusion: the formula, weights, ties, the top-keyword bonus and the trace.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOP_BONUS, reciprocalRankFusion, scoreFusion } from '../../../../src/indexes/fusion/fusion.js';

const list = (name: string, refs: string[]) => ({ name, ranked: refs.map((ref, i) => ({ ref, score: 10 - i })) });

describe('reciprocalRankFusion', () => {
  it('scores Σ weight/(k + rank) and reports every list in ranks/scores', () => {
    const out = reciprocalRankFusion([list('keyword', ['a', 'b']), list('vector', ['b', 'c'])]);
    const b = out.find((h) => h.ref === 'b')!;
    expect(b.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(b.ranks).toEqual({ keyword: 2, vector: 1 });
    expect(b.scores).toEqual({ keyword: 9, vector: 10 });
    const c = out.find((h) => h.ref === 'c')!;
    expect(c.ranks).toEqual({ keyword: null, vector: 2 });
    expect(c.scores).toEqual({ keyword: null, vector: 9 });
    expect(out.map((h) => h.ref)).toEqual(['b', 'a', 'c']);
    expect(out.every((h) => h.bonus === 0)).toBe(true);
  });

  it('k is configurable', () => {
    const [top] = reciprocalRankFusion([list('keyword', ['a'])], { k: 1 });
    expect(top!.score).toBeCloseTo(0.5, 12);
  });

  it('weights scale each list; weight 0 keeps the trace but not the score', () => {
    const lists = [list('keyword', ['a', 'b']), list('vector', ['b', 'a'])];
    expect(reciprocalRankFusion(lists, { weights: { keyword: 2 } })[0]!.ref).toBe('a');
    expect(reciprocalRankFusion(lists, { weights: { vector: 2 } })[0]!.ref).toBe('b');
    const zero = reciprocalRankFusion(lists, { weights: { vector: 0 } });
    expect(zero[0]!.ref).toBe('a');
    expect(zero[0]!.ranks.vector).toBe(2);
    expect(zero[0]!.score).toBeCloseTo(1 / 61, 12);
  });

  it('equal scores tie-break by ref ascending, deterministically', () => {
    const out = reciprocalRankFusion([list('keyword', ['z', 'y']), list('vector', ['y', 'z'])]);
    expect(out.map((h) => h.ref)).toEqual(['y', 'z']);
    expect(reciprocalRankFusion([list('keyword', ['m']), list('vector', ['b'])]).map((h) => h.ref)).toEqual(['b', 'm']);
  });

  it('a duplicate ref in one list counts once, at its best rank; ranks count distinct refs', () => {
    const out = reciprocalRankFusion([
      {
        name: 'keyword',
        ranked: [
          { ref: 'a', score: 3 },
          { ref: 'a', score: 2 },
          { ref: 'b', score: 1 },
        ],
      },
    ]);
    expect(out.map((h) => [h.ref, h.ranks.keyword, h.scores.keyword])).toEqual([
      ['a', 1, 3],
      ['b', 2, 1],
    ]);
  });

  it('plain RRF buries an exact keyword match that the vectors rank low; the top bonus keeps it first', () => {
    // `exact` is keyword rank 1 but vector rank 40; `both` is rank 3 in each list.
    const vector = Array.from({ length: 50 }, (_, i) => `v${i}`);
    vector.splice(2, 0, 'both');
    vector.splice(39, 0, 'exact');
    const lists = [
      list('keyword', ['exact', 'k2', 'both', 'k4']),
      { name: 'vector', ranked: vector.map((ref, i) => ({ ref, score: 1 - i / 100 })) },
    ];
    const plain = reciprocalRankFusion(lists);
    expect(plain[0]!.ref).toBe('both');
    const boosted = reciprocalRankFusion(lists, { topBonus: true });
    expect(boosted[0]!.ref).toBe('exact');
    expect(boosted[0]!.bonus).toBe(DEFAULT_TOP_BONUS.bonuses[0]);
    expect(boosted.find((h) => h.ref === 'k4')!.bonus).toBe(0);
    const custom = reciprocalRankFusion(lists, { topBonus: { list: 'keyword', bonuses: [0.001] } });
    expect(custom[0]!.ref).toBe('both');
  });

  it('limit keeps the best n; empty input gives []', () => {
    expect(reciprocalRankFusion([list('keyword', ['a', 'b', 'c'])], { limit: 2 }).map((h) => h.ref)).toEqual([
      'a',
      'b',
    ]);
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([list('keyword', [])])).toEqual([]);
  });
});

describe('scoreFusion', () => {
  const scored = (name: string, hits: [string, number, number?][]) => ({
    name,
    ranked: hits.map(([ref, score, weight]) => ({ ref, score, ...(weight !== undefined ? { weight } : {}) })),
  });

  it('normalises each list by its best hit (above the floor) and sums with the list weights', () => {
    const out = scoreFusion(
      [
        scored('keyword', [
          ['a', 10],
          ['b', 6],
        ]),
        scored('vector', [
          ['b', 0.65],
          ['c', 0.45],
        ]),
      ],
      { weights: { vector: 0.5 }, floors: { vector: 0.25 } },
    );
    const by = Object.fromEntries(out.map((h) => [h.ref, h]));
    expect(by.a!.score).toBeCloseTo(1, 12);
    expect(by.b!.score).toBeCloseTo(0.6 + 0.5 * 1, 12);
    expect(by.c!.score).toBeCloseTo(0.5 * (0.2 / 0.4), 12);
    expect(out.map((h) => h.ref)).toEqual(['b', 'a', 'c']);
    expect(by.b!.ranks).toEqual({ keyword: 2, vector: 1 });
    expect(by.c!.scores).toEqual({ keyword: null, vector: 0.45 });
  });

  it('keeps a large keyword gap but lets the other list decide near-ties (unlike RRF)', () => {
    const lists = [
      scored('keyword', [
        ['a', 10],
        ['b', 9.9],
        ['c', 2],
      ]),
      scored('vector', [
        ['b', 0.6],
        ['c', 0.59],
      ]),
    ];
    const out = scoreFusion(lists, { weights: { vector: 0.5 }, floors: { vector: 0.25 } });
    expect(out[0]!.ref).toBe('b'); // near-tie with a: the vector list decides
    expect(out.map((h) => h.ref).indexOf('a')).toBeLessThan(out.map((h) => h.ref).indexOf('c'));
  });

  it('a keyword hit with a low weight (one common word of a long query) does not beat a strong vector hit', () => {
    const lists = [
      scored('keyword', [
        ['recipe', 8, 0.15],
        ['scifi', 2, 0.6],
      ]),
      scored('vector', [
        ['scifi', 0.7],
        ['recipe', 0.26],
      ]),
    ];
    const out = scoreFusion(lists, { weights: { vector: 0.5 }, floors: { vector: 0.25 } });
    expect(out[0]!.ref).toBe('scifi');
  });

  it('tops: a list of only ranked-down hits stays low against the reference score', () => {
    const out = scoreFusion([scored('keyword', [['dream', 1]]), scored('vector', [['memory', 0.5]])], {
      weights: { vector: 0.5 },
      floors: { vector: 0.25 },
      tops: { keyword: 10 },
    });
    expect(out.map((h) => h.ref)).toEqual(['memory', 'dream']);
    expect(out[1]!.score).toBeCloseTo(0.1, 12);
  });

  it('is deterministic on ties (by ref) and honours limit', () => {
    const out = scoreFusion(
      [
        scored('keyword', [
          ['b', 1],
          ['a', 1],
          ['c', 0.5],
        ]),
      ],
      { limit: 2 },
    );
    expect(out.map((h) => h.ref)).toEqual(['a', 'b']);
    expect(scoreFusion([])).toEqual([]);
  });
});
