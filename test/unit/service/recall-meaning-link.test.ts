// Unit tests for versions said in other words, linked by meaning (service/recall/meaning-link.ts)
// as current-first.ts uses them: for a question that asks what holds now, a later statement that
// announces a change and whose chunk's embedding is close to an earlier statement's takes the
// earlier one's slot, though the two share too few subject words for the word rule. Negative cases:
// no vectors (keyword recall), distant vectors, a later turn that announces no change, and an
// earlier addition (it stands beside later rules). The stored vectors are fixed unit vectors: the
// logic around the embeddings is under test, not the model.
import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { queryWeights } from '../../../src/indexes/evidence/evidence.js';
import { tokenize } from '../../../src/core/tokenize.js';
import { currentFirst } from '../../../src/service/recall/current-first.js';
import { nearInMeaning, type StoredVector } from '../../../src/service/recall/meaning-link.js';
import { subjectOf } from '../../../src/service/recall/restatement.js';
import { chunk } from '../../support/recall-snapshot.js';

const day = (id: string, date: string, lines: string[]): ChunkRecord =>
  chunk(id, lines.join('\n'), { path: `memory/${date}.md`, kind: 'daily', date });

/** A unit vector at `angle` radians in the plane of the first two axes. */
const at = (angle: number) => Float32Array.from([Math.cos(angle), Math.sin(angle), 0]);

const order = (question: string, chunks: ChunkRecord[], scores: number[], stored?: StoredVector) => {
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const hits = chunks.map((c, i) => ({ ref: c.id, score: scores[i]! }));
  const subject = subjectOf(queryWeights(tokenize(question)));
  const chunkOf = (ref: string) => byId.get(ref);
  return currentFirst(hits, chunkOf, subject, question, hits.length, nearInMeaning(chunkOf, stored, subject)).map(
    (h) => h.ref,
  );
};

const Q = 'Which project management tool should be used?';
const monday = day('monday', '2024-01-04', [
  "- Sylvie: Now, I'd like to introduce you to another tool we use for project management: Monday.",
]);
const jira = day('jira', '2024-01-11', [
  "- Sylvie: Trello is a great tool for personal task management. However, I'd like you to start using Jira instead.",
]);
const vectors = (angles: Record<string, number>): StoredVector => {
  const m = new Map(Object.entries(angles).map(([id, a]) => [`v-${id}`, at(a)]));
  return (key) => m.get(key);
};

describe('a later statement close in meaning takes the earlier one slot', () => {
  it('moves the later change above the earlier statement when their chunks are close', () => {
    // cos(0.3) ≈ 0.955
    expect(order(Q, [monday, jira], [5, 4.6], vectors({ monday: 0, jira: 0.3 }))).toEqual(['jira', 'monday']);
  });

  it('keeps the order without vectors (keyword recall) or with distant ones', () => {
    expect(order(Q, [monday, jira], [5, 4.6])).toEqual(['monday', 'jira']);
    // cos(1.2) ≈ 0.36
    expect(order(Q, [monday, jira], [5, 4.6], vectors({ monday: 0, jira: 1.2 }))).toEqual(['monday', 'jira']);
  });

  it('keeps the order when the later turn announces no change', () => {
    const praise = day('praise', '2024-01-11', [
      "- Sylvie: I'd like you to keep your personal tasks in Jira too; it is a fine tool.",
    ]);
    expect(order(Q, [monday, praise], [5, 4.6], vectors({ monday: 0, praise: 0.1 }))).toEqual(['monday', 'praise']);
  });

  it('keeps an earlier addition above a later rule: an addition stands beside it', () => {
    const q = 'Which decorator must be added to all methods?';
    const timer = day('timer', '2024-02-01', [
      "- Emma: Please add the '@timer' decorator from the 'pedantic' module to all your methods.",
    ]);
    const calls = day('calls', '2024-02-09', ["- Emma: From now on, I want you to put '@count_calls' on each method."]);
    expect(order(q, [timer, calls], [5, 4.6], vectors({ timer: 0, calls: 0.1 }))).toEqual(['timer', 'calls']);
  });
});
