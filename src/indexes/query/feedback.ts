// Pseudo-relevance feedback for multi-hop questions: the terms that the first results share, weighed
// by idf, become a second keyword query. Pure: imports only the tokenizer and the stemmer.
import { stemOf } from '../lexical/lexical.js';
import { tokenize } from '../../core/tokenize.js';

/**
 * The `n` best expansion words of `texts` (the first results): words (3+ letters, not in the
 * query) scored by idf × the number of texts holding them; a word must appear in at least two
 * texts when there are two or more, so one result's odd word does not steer the second pass.
 * @param queryStems index terms (stemmed) of the query, excluded.
 * @returns words as written (lower case), best first; empty when nothing qualifies.
 */
export function feedbackTerms(
  texts: readonly string[],
  queryStems: ReadonlySet<string>,
  idf: (term: string) => number,
  n: number,
): string[] {
  const docs = new Map<string, { word: string; docs: number }>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (const tok of tokenize(text)) {
      if (tok.length < 3 || /^\d+$/.test(tok)) continue;
      const stem = stemOf(tok);
      if (queryStems.has(stem) || seen.has(stem)) continue;
      seen.add(stem);
      const e = docs.get(stem);
      if (e) e.docs++;
      else docs.set(stem, { word: tok, docs: 1 });
    }
  }
  const min = texts.length >= 2 ? 2 : 1;
  return [...docs]
    .filter(([, e]) => e.docs >= min)
    .map(([stem, e]) => ({ word: e.word, score: e.docs * idf(stem) }))
    .filter((e) => Number.isFinite(e.score) && e.score > 0)
    .sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : 1))
    .slice(0, Math.max(0, n))
    .map((e) => e.word);
}
