import { describe, expect, it } from 'vitest';
import { feedbackTerms } from '../../../../src/indexes/query/feedback.js';
import { stemOf } from '../../../../src/indexes/lexical/lexical.js';

describe('feedbackTerms (multi-hop second pass)', () => {
  const idf = (t: string) => (t === stemOf('gallery') ? 3 : t === stemOf('painting') ? 1 : 2);
  it('keeps words shared by at least two first results, not in the query, by docs × idf', () => {
    const texts = [
      'Melanie showed her painting at the gallery downtown',
      'the gallery opening was crowded, Melanie said',
      'a painting of a sunset',
    ];
    const words = feedbackTerms(texts, new Set([stemOf('melanie')]), idf, 5);
    expect(words).toEqual(['gallery', 'painting']);
    expect(feedbackTerms(texts, new Set([stemOf('melanie')]), idf, 1)).toEqual(['gallery']);
  });
  it('one text: every word qualifies; nothing for no texts or n = 0', () => {
    expect(feedbackTerms(['gallery'], new Set(), idf, 3)).toEqual(['gallery']);
    expect(feedbackTerms([], new Set(), idf, 3)).toEqual([]);
    expect(feedbackTerms(['gallery painting'], new Set(), idf, 0)).toEqual([]);
  });
});
