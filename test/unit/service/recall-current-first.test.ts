// Unit tests for the current version first (service/recall/current-first.ts): for a question that
// asks what holds now, of two close hits that state its subject as a directive on different days the
// later ranks first, even when the two were not judged versions of one thing (other wording); slots
// keep their scores. Negative cases: a question that asks no norm, a later directive that names only a
// side word of the subject, a distant score, and rules about different places of a name. Chunks are
// built by hand (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { queryWeights } from '../../../src/indexes/evidence/evidence.js';
import { tokenize } from '../../../src/core/tokenize.js';
import { asksNorm, currentFirst } from '../../../src/service/recall/current-first.js';
import { subjectOf } from '../../../src/service/recall/restatement.js';
import { chunk } from '../../support/recall-snapshot.js';

const day = (id: string, date: string, lines: string[]): ChunkRecord =>
  chunk(id, lines.join('\n'), { path: `memory/${date}.md`, kind: 'daily', date });

const order = (question: string, chunks: ChunkRecord[], scores: number[]) => {
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const hits = chunks.map((c, i) => ({ ref: c.id, score: scores[i]! }));
  return currentFirst(hits, (ref) => byId.get(ref), subjectOf(queryWeights(tokenize(question))), question);
};

const old = day('old', '2024-03-07', [
  '- Yuichi: Firstly, I want you to remember to never use a whiteboard for brainstorming. It limits you.',
]);
const cur = day('cur', '2024-03-30', [
  "- Yuichi: Great. From now on, I want you to utilize a whiteboard whenever you're brainstorming a problem.",
]);
const Q = 'What is the current rule about whiteboards for brainstorming?';

describe('the later statement of the subject first', () => {
  it('moves a close later directive above the earlier one; slots keep their scores', () => {
    const r = order(Q, [old, cur], [5.5, 4.7]);
    expect(r.map((h) => h.ref)).toEqual(['cur', 'old']);
    expect(r.map((h) => h.score)).toEqual([5.5, 4.7]);
  });

  it('a close later directive also goes above an earlier hit that directs nothing', () => {
    const chat = day('chat', '2024-01-01', [
      '- Naivo: Whiteboards have their place in brainstorming, but they can limit your creativity.',
    ]);
    expect(order(Q, [chat, cur], [4.1, 4.0]).map((h) => h.ref)).toEqual(['cur', 'chat']);
  });

  it('leaves the order for a question that asks no norm, or a distant score', () => {
    expect(order('Where did Yuichi brainstorm with a whiteboard?', [old, cur], [5.5, 4.7]).map((h) => h.ref)).toEqual([
      'old',
      'cur',
    ]);
    expect(order(Q, [old, cur], [5.5, 3]).map((h) => h.ref)).toEqual(['old', 'cur']);
  });

  it('a later directive naming only a side word of the subject stays below', () => {
    const rule = day('rule', '2024-01-05', ['- Emma: Always include try statements in your functions from now on.']);
    const doc = day('doc', '2024-01-20', ['- Emma: Going forward, I want you to add docstrings to all functions.']);
    const q = 'What is the current rule about try statements in functions?';
    expect(order(q, [rule, doc], [4, 3.9]).map((h) => h.ref)).toEqual(['rule', 'doc']);
  });

  it('a later rule about another place of a name stays below', () => {
    const start = day('start', '2024-02-01', ["- Sylvie: From now on, start all attribute names with 'xt_'."]);
    const end = day('end', '2024-02-07', ["- Sylvie: From now on, I need you to end attribute names with '_at'."]);
    const q = 'What is the current rule for naming attributes?';
    expect(order(q, [start, end], [4, 3.9]).map((h) => h.ref)).toEqual(['start', 'end']);
  });

  it('reads a norm off the question', () => {
    expect(asksNorm('Which IDE should be used?')).toBe(true);
    expect(asksNorm('What is the current rule about profilers?')).toBe(true);
    expect(asksNorm('When did Caroline go to the support group?')).toBe(false);
  });
});
