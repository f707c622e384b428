// The texts a recall embeds for its vector search (service/recall/query-embed.ts,
// `recall.vectorCommonWords`) over a real keyword index: a word standing in more than the share of
// the chunks (a chat log's speaker names) is left out of the second text; a query without such
// words, or made only of them, is embedded as typed. And the mean of unit vectors that then forms
// the one query vector (indexes/vector/vector-mean.ts).
import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../../../src/indexes/lexical/lexical.js';
import { meanUnitVector } from '../../../src/indexes/vector/vector-mean.js';
import { queryEmbedTexts } from '../../../src/service/recall/query-embed.js';

// A chat log: both speakers' names stand in every chunk, "painting" in two of six, "camping" in one.
const index = LexicalIndex.build([
  { ref: 'a', text: 'Caroline: I went to a support group.\nMelanie: That sounds powerful.' },
  { ref: 'b', text: 'Melanie: I painted a lake sunrise.\nCaroline: Lovely painting!' },
  { ref: 'c', text: 'Caroline: Painting helps me relax.\nMelanie: Same here, Caroline.' },
  { ref: 'd', text: 'Melanie: We went camping last week.\nCaroline: How fun!' },
  { ref: 'e', text: 'Caroline: I am reading a new book.\nMelanie: Which one?' },
  { ref: 'f', text: 'Melanie: The kids love the beach.\nCaroline: Mine too.' },
]);
const idf = (t: string) => index.idf(t);

describe('queryEmbedTexts', () => {
  it('adds the query without the words in more than half of the chunks, punctuation and stop words kept', () => {
    expect(queryEmbedTexts("What did Melanie say about Caroline's painting?", 0.5, idf)).toEqual([
      "What did Melanie say about Caroline's painting?",
      'What did say about painting?',
    ]);
  });

  it('keeps a word in fewer chunks than the share: "painting" (2 of 6) goes only at share 0.25', () => {
    expect(queryEmbedTexts('Caroline painting camping', 0.5, idf)).toEqual([
      'Caroline painting camping',
      'painting camping',
    ]);
    expect(queryEmbedTexts('Caroline painting camping', 0.25, idf)).toEqual(['Caroline painting camping', 'camping']);
  });

  it('embeds the query as typed when no word is common, when every word is, and when off', () => {
    expect(queryEmbedTexts('camping at the beach', 0.5, idf)).toEqual(['camping at the beach']);
    expect(queryEmbedTexts('Caroline and Melanie?', 0.5, idf)).toEqual(['Caroline and Melanie?']);
    expect(queryEmbedTexts('Caroline painting', 0, idf)).toEqual(['Caroline painting']);
    expect(queryEmbedTexts('Caroline painting', 1, idf)).toEqual(['Caroline painting']);
    expect(queryEmbedTexts('Caroline painting', 0.5, undefined)).toEqual(['Caroline painting']);
  });
});

describe('meanUnitVector', () => {
  it('is the normalised sum: two orthogonal unit vectors give the diagonal', () => {
    const m = meanUnitVector([Float32Array.from([1, 0]), Float32Array.from([0, 1])])!;
    expect(m[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(m[1]).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('returns one vector itself, and undefined for none or a zero sum', () => {
    const v = Float32Array.from([0.6, 0.8]);
    expect(meanUnitVector([v])).toBe(v);
    expect(meanUnitVector([])).toBeUndefined();
    expect(meanUnitVector([Float32Array.from([1, 0]), Float32Array.from([-1, 0])])).toBeUndefined();
  });
});
