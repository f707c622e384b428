// The texts a recall embeds for its vector search: the query as typed and, when the memory has words
// that stand in most of its chunks (the speakers' names of a chat log, a project's own name), the
// query without them; the vector half searches with the normalised mean of their embeddings
// (`recall.vectorCommonWords`). deps: indexes.
import { stemOf } from '../../indexes/lexical/lexical.js';
import { STOP_WORDS, tokenize } from '../../core/tokenize.js';

/**
 * The query texts to embed: `[query]`, or `[query, query without its common words]` when some word
 * is common. A word (a whitespace-separated piece of the query, punctuation kept) is common when
 * each of its index tokens that is not a stop word stands in more than `share` of the chunks: its
 * BM25 idf, ln(1 + (N − n + 0.5) / (n + 0.5)), is below ln(1 / share), i.e. n > share × N up to the
 * 0.5 smoothing. Stop words and pieces without letters or digits stay, so the second text is
 * still the question's sentence. Unchanged (`[query]`) when `share` is not in (0, 1), no idf is
 * known, no word is common, or every word is.
 */
export function queryEmbedTexts(query: string, share: number, idf: ((term: string) => number) | undefined): string[] {
  if (!idf || !(share > 0 && share < 1)) return [query];
  const below = Math.log(1 / share);
  const pieces = query.split(/\s+/).filter(Boolean);
  let dropped = 0;
  let words = 0;
  const kept: string[] = [];
  for (const piece of pieces) {
    const tokens = tokenize(piece).filter((t) => !STOP_WORDS.has(t));
    if (tokens.length > 0) {
      words++;
      if (tokens.every((t) => idf(stemOf(t)) < below)) {
        dropped++;
        continue;
      }
    }
    kept.push(piece);
  }
  if (dropped === 0 || dropped === words) return [query];
  return [query, kept.join(' ')];
}
