// The keyword analysis of one chunk (B46): per field, its distinct tokens with their counts and the
// field's length in tokens, which is everything the segment accumulator (./lexical-accumulate) takes
// from a document's text. The analysis depends on the four field values alone, so a bounded memo
// keyed by them lets a rebuilt segment re-tokenise only the chunks whose text changed: a one-line
// edit of a 60,000-line note re-analyses one chunk, not 12,000. Imports only the lexical-* constants
// and the tokenizer.
import { GenerationMemo } from '../../core/generation-memo.js';
import { tokenize } from '../../core/tokenize.js';
import { FIELD_NAMES, NF, type LexicalDoc } from './lexical-segment.js';

/** One document's fields as the accumulator counts them. */
export interface DocAnalysis {
  /** Distinct tokens of field f, in first-seen order: `tokens[ends[f - 1] .. ends[f])` (ends[-1] = 0). */
  readonly tokens: readonly string[];
  /** Occurrences of each token of `tokens` in its field. */
  readonly counts: Int32Array;
  /** End offset in `tokens` per field (NF entries). */
  readonly ends: Int32Array;
  /** Tokens per field, repeats included (NF entries). */
  readonly lens: Int32Array;
}

/** The field values of `d` in FIELD_NAMES order, as the accumulator reads them. */
export function fieldValues(d: LexicalDoc): string[] {
  const values = {
    text: d.text ?? '',
    title: d.title ?? '',
    tags: (d.tags ?? []).join('\n'),
    headings: (d.headings ?? []).join('\n'),
  };
  return FIELD_NAMES.map((f) => String(values[f]));
}

/**
 * The memo's key of field values: their lengths, then the values (two documents share a key only
 * when every field is equal).
 */
export function analysisKey(fields: readonly string[]): string {
  return `${fields.map((v) => v.length).join(',')}|${fields.join('')}`;
}

/** Tokenise the fields of a document once: distinct tokens and counts per field. */
export function analyzeFields(fields: readonly string[]): DocAnalysis {
  const tokens: string[] = [];
  const counts: number[] = [];
  const ends = new Int32Array(NF);
  const lens = new Int32Array(NF);
  const at = new Map<string, number>();
  for (let f = 0; f < NF; f++) {
    at.clear();
    let len = 0;
    for (const token of tokenize(fields[f]!)) {
      const i = at.get(token);
      if (i === undefined) {
        at.set(token, tokens.length);
        tokens.push(token);
        counts.push(1);
      } else counts[i]!++;
      len++;
    }
    ends[f] = tokens.length;
    lens[f] = len;
  }
  return { tokens, counts: Int32Array.from(counts), ends, lens };
}

/** Documents whose fields are longer than this (UTF-16 units) are analysed every time, never kept. */
const MAX_KEPT = 64 * 1024;

/**
 * Analyses keyed by the exact field values (their lengths, then the values: no two documents with
 * different fields share a key, and no hash can collide). Bounded as a {@link GenerationMemo} of
 * keys, so the chunks a repeated rebuild keeps reading stay and the rest go.
 */
export class AnalysisMemo {
  readonly #memo: GenerationMemo<DocAnalysis>;

  /** @param maxChars key text kept per generation (default 8 Mi UTF-16 units). */
  constructor(maxChars = 8 * 1024 * 1024) {
    this.#memo = new GenerationMemo(maxChars, MAX_KEPT);
  }

  /** Documents remembered now. */
  get size(): number {
    return this.#memo.size;
  }

  /** Lookups answered from the memo and lookups analysed anew, since construction. */
  get stats(): { hits: number; misses: number } {
    return this.#memo.stats;
  }

  /** The analysis of `fields` (FIELD_NAMES order): remembered, or computed and remembered. */
  of(fields: readonly string[]): DocAnalysis {
    return this.#memo.get(analysisKey(fields), () => analyzeFields(fields));
  }
}
