// Unit tests for the vector half's context (service/recall/vector-pass.ts, spans.ts neighbourChunks):
// a chunk's neighbours are the chunks right before and after it in the same file and section, and
// with neighbour context a chunk scores its own cosine plus a share of its best neighbour's, so the
// turn after the one a question paraphrases is found even without a cosine of its own; keyword
// neighbour context only re-scores the candidates it is given (max of own and a share of the best neighbour's).
import { describe, expect, it } from 'vitest';
import { queryWeights } from '../../../src/indexes/evidence/evidence.js';
import type { Plan } from '../../../src/service/recall/candidates.js';
import { fuse } from '../../../src/service/recall/fuse.js';
import { DEFAULT_FUSION } from '../../../src/service/recall/types.js';
import { neighbourChunks } from '../../../src/service/recall/spans.js';
import { liftByNeighbours, withNeighbourContext } from '../../../src/service/recall/vector-pass.js';
import { chunk, fakeSnapshot } from '../../support/recall-snapshot.js';

// memory/a.md: section S1 holds lines 3–7 and 8–12, section S2 (after a heading on line 14) 15–19.
const at = (line: number, text: string, section: string) =>
  chunk(`memory/a.md#${line}`, text, { path: 'memory/a.md', startLine: line, headingPath: [section] });
const first = at(3, 'one\ntwo\nthree\nfour\nfive', 'S1');
const second = at(8, 'six\nseven\neight\nnine\nten', 'S1');
const other = at(15, 'a\nb\nc\nd\ne', 'S2');
const snap = fakeSnapshot([first, second, other], []);

describe('neighbourChunks', () => {
  it('finds the chunk before and after in the same section, never across a heading', () => {
    expect(neighbourChunks(snap, first).map((c) => c.id)).toEqual(['memory/a.md#8']);
    expect(neighbourChunks(snap, second).map((c) => c.id)).toEqual(['memory/a.md#3']);
    expect(neighbourChunks(snap, other)).toEqual([]);
  });
});

describe('withNeighbourContext', () => {
  it('adds a share of the best neighbour cosine and scores a neighbour without its own', () => {
    const out = withNeighbourContext(snap, new Map([[first.id, 0.6]]), 0.5);
    expect(out).toEqual([
      { ref: first.id, score: 0.6 },
      { ref: second.id, score: 0.3 },
    ]);
  });

  it('reorders two chunks of one section by their neighbour', () => {
    const own = new Map([
      [first.id, 0.5],
      [second.id, 0.4],
      [other.id, 0.45],
    ]);
    const out = withNeighbourContext(snap, own, 0.4);
    expect(out.map((h) => h.ref)).toEqual([first.id, second.id, other.id]);
    expect(out[1]!.score).toBeCloseTo(0.4 + 0.4 * 0.5);
    expect(out[2]!.score).toBeCloseTo(0.45);
  });
});

describe('liftByNeighbours', () => {
  it('scores a hit at least the share of its best neighbouring hit, and adds no chunk', () => {
    const out = liftByNeighbours(
      snap,
      [
        { ref: first.id, score: 10 },
        { ref: other.id, score: 3.5 },
        { ref: second.id, score: 1 },
      ],
      0.4,
    );
    // second (own 1) rises to 0.4 × 10 = 4, above other (3.5, another section); first keeps its own.
    expect(out).toEqual([
      { ref: first.id, score: 10 },
      { ref: second.id, score: 4 },
      { ref: other.id, score: 3.5 },
    ]);
    // first's neighbour alone: second is not a candidate, so it is not added.
    expect(liftByNeighbours(snap, [{ ref: first.id, score: 10 }], 0.4)).toEqual([{ ref: first.id, score: 10 }]);
  });

  it('takes the max, not the sum: a strong own score is kept and share 0 changes nothing', () => {
    const list = [
      { ref: first.id, score: 5 },
      { ref: second.id, score: 4 },
    ];
    expect(liftByNeighbours(snap, list, 0.5)).toEqual(list);
    expect(liftByNeighbours(snap, list, 0)).toEqual(list);
  });
});

describe('fuse with recall.keywordContext', () => {
  const keywordRanked = [
    { ref: first.id, score: 10 },
    { ref: other.id, score: 3.5 },
    { ref: second.id, score: 1 },
  ];
  const planOf = (mode: 'keyword' | 'hybrid') => ({ mode, keywordRanked, vectorRanked: [] }) as unknown as Plan;
  const settings = {
    ...DEFAULT_FUSION,
    method: 'score' as const,
    keywordConfidence: 'none' as const,
    keywordContext: 0.4,
  };

  it('lifts a keyword candidate next to the top hit in hybrid mode, not in keyword mode', () => {
    const w = queryWeights(['one']);
    expect(fuse(snap, planOf('hybrid'), settings, w, 10).map((f) => f.ref)).toEqual([first.id, second.id, other.id]);
    expect(fuse(snap, planOf('keyword'), settings, w, 10).map((f) => f.ref)).toEqual([first.id, other.id, second.id]);
  });
});
