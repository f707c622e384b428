// Unit tests for recall's fusion step (service/recall/fuse.ts fuse): keyword or vector alone keep
// their list's order and scores; normalised score fusion weighs a keyword hit by the share of the
// query its chunk covers, drops vector hits at the cosine floor and normalises a ranked-down kind by
// its score before demotion; reciprocal rank fusion gives the top-keyword bonus only past the
// coverage gate; the vector weight follows the spread of the vector list's top cosines
// (recall.vectorSpread). Lists and chunks are built by hand (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import { queryWeights } from '../../../src/indexes/evidence/evidence.js';
import type { Plan } from '../../../src/service/recall/candidates.js';
import { fuse, spreadWeights } from '../../../src/service/recall/fuse.js';
import { DEFAULT_FUSION, type FusionSettings, type RecallMode } from '../../../src/service/recall/types.js';
import { chunk, fakeSnapshot } from '../../support/recall-snapshot.js';

type Ranked = { ref: string; score: number }[];
const planOf = (mode: RecallMode, keywordRanked: Ranked, vectorRanked: Ranked = []): Plan =>
  ({ mode, keywordRanked, vectorRanked }) as unknown as Plan;

// Query "postgres pool": `both` holds both words, `half` one of them, `vec*` neither.
const snap = fakeSnapshot(
  [
    chunk('both', 'the postgres pool holds twenty connections'),
    chunk('half', 'the worker pool restarts nightly'),
    chunk('vecHigh', 'database connection limits'),
    chunk('vecLow', 'lunch menu'),
    chunk('dream', 'postgres pool idea', { kind: 'dreams' }),
  ],
  [],
);
const weights = queryWeights(['postgres', 'pool']);
const score = (over: Partial<FusionSettings>): FusionSettings => ({
  ...DEFAULT_FUSION,
  method: 'score',
  weights: { keyword: 1, vector: 0.3 },
  minVectorScore: 0.25,
  keywordConfidence: 'hit',
  ...over,
});

describe('fuse: one list alone', () => {
  it('keyword mode keeps the keyword order, scores and ranks, cut to depth', () => {
    const p = planOf('keyword', [
      { ref: 'half', score: 4 },
      { ref: 'both', score: 3 },
      { ref: 'vecLow', score: 1 },
    ]);
    expect(fuse(snap, p, DEFAULT_FUSION, weights, 2)).toEqual([
      { ref: 'half', score: 4, kw: 4, kwRank: 1, vec: null, vecRank: null },
      { ref: 'both', score: 3, kw: 3, kwRank: 2, vec: null, vecRank: null },
    ]);
  });

  it('vector mode keeps the vector order', () => {
    const p = planOf(
      'vector',
      [{ ref: 'both', score: 9 }],
      [
        { ref: 'vecHigh', score: 0.8 },
        { ref: 'vecLow', score: 0.3 },
      ],
    );
    expect(fuse(snap, p, DEFAULT_FUSION, weights, 10)).toEqual([
      { ref: 'vecHigh', score: 0.8, kw: null, kwRank: null, vec: 0.8, vecRank: 1 },
      { ref: 'vecLow', score: 0.3, kw: null, kwRank: null, vec: 0.3, vecRank: 2 },
    ]);
  });
});

describe('fuse: normalised score fusion', () => {
  const p = planOf(
    'hybrid',
    [
      { ref: 'half', score: 5 },
      { ref: 'both', score: 5 },
    ],
    [
      { ref: 'vecHigh', score: 0.8 },
      { ref: 'vecLow', score: 0.25 },
    ],
  );

  it('a keyword hit weighs the share of the query its chunk covers; a vector hit at the floor adds nothing', () => {
    const fused = fuse(snap, p, score({}), weights, 10);
    expect(fused.map((f) => [f.ref, Number(f.score.toFixed(6))])).toEqual([
      ['both', 1],
      ['half', 0.5],
      ['vecHigh', 0.3],
      ['vecLow', 0],
    ]);
    expect(fused[1]).toMatchObject({ kw: 5, kwRank: 1, vec: null, vecRank: null });
    expect(fused[2]).toMatchObject({ kw: null, vec: 0.8, vecRank: 1 });
  });

  it("keywordConfidence 'none' weighs every keyword hit fully (ties by ref)", () => {
    const fused = fuse(snap, p, score({ keywordConfidence: 'none' }), weights, 10);
    expect(fused.slice(0, 2).map((f) => [f.ref, f.score])).toEqual([
      ['both', 1],
      ['half', 1],
    ]);
  });

  it('a ranked-down kind is normalised by its score before demotion, so alone it stays low', () => {
    // DREAMS.md chunks weigh 0.1 (default priors): a raw BM25 of 10 reached fusion as 1.
    const dreamOnly = planOf('hybrid', [{ ref: 'dream', score: 1 }]);
    const [only] = fuse(snap, dreamOnly, score({}), weights, 10);
    expect(only!.ref).toBe('dream');
    expect(only!.score).toBeCloseTo(0.1, 9);
  });
});

describe('fuse: vector weight by the spread of the top cosines (recall.vectorSpread)', () => {
  const spread = { share: 0.5, margin: 0.1, depth: 10 };
  // `half` leads by keyword (5 against 4); `vecHigh` is the only strong cosine.
  const lists = (vectorSpread?: number): Plan =>
    ({
      ...planOf(
        'hybrid',
        [
          { ref: 'half', score: 5 },
          { ref: 'both', score: 4 },
        ],
        [
          { ref: 'both', score: 0.9 },
          { ref: 'half', score: 0.25 },
        ],
      ),
      vectorSpread,
    }) as Plan;
  const s = score({ keywordConfidence: 'none', vectorSpread: spread });

  it('a spread equal to the margin keeps the configured weight', () => {
    expect(spreadWeights(s, 0.1)).toEqual({ keyword: 1, vector: 0.3 });
    const fused = fuse(snap, lists(0.1), s, weights, 10);
    expect(fused.map((f) => [f.ref, Number(f.score.toFixed(6))])).toEqual([
      ['both', 1.1],
      ['half', 1],
    ]);
  });

  it('flat top cosines halve the vector weight (share 0.5): the keyword lead stands', () => {
    expect(spreadWeights(s, 0)).toEqual({ keyword: 1, vector: 0.15 });
    const fused = fuse(snap, lists(0), s, weights, 10);
    expect(fused.map((f) => [f.ref, Number(f.score.toFixed(6))])).toEqual([
      ['half', 1],
      ['both', 0.95],
    ]);
  });

  it('a spread twice the margin gives the vectors 1.5 times their weight', () => {
    expect(spreadWeights(s, 0.2)!.vector).toBeCloseTo(0.45, 12);
    expect(fuse(snap, lists(0.2), s, weights, 10)[0]!.score).toBeCloseTo(1.25, 9);
  });

  it('an unknown spread (fewer hits than depth) or share 0 leaves the weights alone', () => {
    expect(spreadWeights(s, undefined)).toEqual({ keyword: 1, vector: 0.3 });
    expect(spreadWeights(score({ vectorSpread: { ...spread, share: 0 } }), 0)).toEqual({ keyword: 1, vector: 0.3 });
    expect(fuse(snap, lists(undefined), s, weights, 10)[0]!.score).toBeCloseTo(1.1, 9);
  });
});

describe('fuse: reciprocal rank fusion', () => {
  // `half` ranks first by keyword but covers half the query; `both` second and covers all of it.
  const p = planOf('hybrid', [
    { ref: 'half', score: 5 },
    { ref: 'both', score: 4 },
  ]);
  const rrf = (keywordCoverage: number): FusionSettings => ({
    ...DEFAULT_FUSION,
    method: 'rrf',
    rrfK: 60,
    weights: { keyword: 1, vector: 1 },
    keywordBonus: true,
    keywordCoverage,
  });

  it('the top-keyword bonus goes only to hits past the coverage gate', () => {
    const gated = fuse(snap, p, rrf(0.75), weights, 10);
    expect(gated.map((f) => f.ref)).toEqual(['both', 'half']);
    expect(gated[0]!.score).toBeCloseTo(1 / 62 + 0.02, 9);
    expect(gated[1]!.score).toBeCloseTo(1 / 61, 9);
  });

  it('without the gate the first keyword hit keeps its bonus and its lead', () => {
    const open = fuse(snap, p, rrf(0), weights, 10);
    expect(open.map((f) => f.ref)).toEqual(['half', 'both']);
    expect(open[0]!.score).toBeCloseTo(1 / 61 + 0.05, 9);
  });

  it('a hit in both lists carries both ranks and scores', () => {
    const both = planOf('hybrid', [{ ref: 'both', score: 4 }], [{ ref: 'both', score: 0.7 }]);
    expect(fuse(snap, both, rrf(0), weights, 10)[0]).toMatchObject({
      ref: 'both',
      kw: 4,
      kwRank: 1,
      vec: 0.7,
      vecRank: 1,
    });
  });
});
