// Evidence inside a retrieved chunk: BM25-style term weights per line pick the line (or the run of
// adjacent lines) that answers the query, and the sentences of a long line that match it best.
// Pure: imports only the tokenizer and the stemmer of the keyword index.
import { stemOf } from '../lexical/lexical.js';
import { tokenize } from '../../core/tokenize.js';

/** Query index terms (stemmed) with their weight (idf), and the sum of the weights. */
export interface QueryWeights {
  readonly terms: ReadonlyMap<string, number>;
  readonly total: number;
}

/**
 * Weights of the query's tokens: each distinct index term weighs its idf (from the keyword index,
 * or 1 when no idf is known).
 */
export function queryWeights(tokens: readonly string[], idf?: (term: string) => number): QueryWeights {
  const terms = new Map<string, number>();
  for (const t of tokens) {
    const term = stemOf(t);
    if (terms.has(term)) continue;
    const w = idf ? idf(term) : 1;
    terms.set(term, Number.isFinite(w) && w > 0 ? w : 0);
  }
  let total = 0;
  for (const w of terms.values()) total += w;
  return { terms, total };
}

/** Texts up to this long keep their term counts in {@link countsCache}… */
const CACHED_TEXT_CHARS = 2000;
/** …at most this many of them (then the cache starts over): at most ~4 MB of keys. */
const CACHED_TEXTS = 1024;
/**
 * Term counts of recent texts. One recall scores the same lines several times (the evidence span,
 * the context block, nearness), and tokenizing and stemming is most of a one-shot recall's own CPU.
 */
const countsCache = new Map<string, ReadonlyMap<string, number>>();

/** Index terms of `text` with their frequency (callers only read the map). */
function termCounts(text: string): ReadonlyMap<string, number> {
  const cached = countsCache.get(text);
  if (cached) return cached;
  const out = new Map<string, number>();
  for (const t of tokenize(text)) {
    const term = stemOf(t);
    out.set(term, (out.get(term) ?? 0) + 1);
  }
  if (text.length <= CACHED_TEXT_CHARS) {
    if (countsCache.size >= CACHED_TEXTS) countsCache.clear();
    countsCache.set(text, out);
  }
  return out;
}

/** Share (0…1) of the query's weight that `text` (or several texts) holds. 0 for an empty query. */
export function coverage(q: QueryWeights, ...texts: readonly string[]): number {
  if (q.total <= 0) return 0;
  const seen = new Set<string>();
  for (const text of texts) for (const t of termCounts(text).keys()) if (q.terms.has(t)) seen.add(t);
  let got = 0;
  for (const t of seen) got += q.terms.get(t)!;
  return got / q.total;
}

const K1 = 1.2;
const B = 0.75;
/** Typical line length in tokens (the BM25 length normaliser of a line). */
const AVG_LINE_TOKENS = 20;

/** BM25 score of one line for the query (tf saturation and length normalisation per line). */
export function lineScore(q: QueryWeights, text: string): number {
  if (q.total <= 0) return 0;
  const counts = termCounts(text);
  let len = 0;
  for (const n of counts.values()) len += n;
  const norm = K1 * (1 - B + (B * len) / AVG_LINE_TOKENS);
  let s = 0;
  for (const [term, w] of q.terms) {
    const tf = counts.get(term);
    if (tf) s += (w * tf * (K1 + 1)) / (tf + norm);
  }
  return s;
}

/** A line d lines after a matching line gets NEAR_DECAY^d of that line's relevance (the answer often follows)… */
const NEAR_DECAY = 0.45;
/** …and a line before it that times BACKWARD. */
const BACKWARD = 0.5;

/**
 * Nearness (0…1) of each line to the query: its BM25 line score relative to the best line, or a
 * decayed share of a matching neighbour's (`after` per line after it, default NEAR_DECAY, times
 * `before` for a line before it, default BACKWARD).
 * All 0 when no line holds a query term.
 */
export function nearness(
  q: QueryWeights,
  lines: readonly string[],
  decay: { readonly after?: number; readonly before?: number } = {},
): number[] {
  return nearnessOf(
    lines.map((l) => (l.trim() ? lineScore(q, l) : 0)),
    lines,
    decay,
  );
}

/** {@link nearness} from per-line scores (`scores[k]` of `lines[k]`). */
function nearnessOf(
  scores: readonly number[],
  lines: readonly string[],
  decay: { readonly after?: number; readonly before?: number } = {},
): number[] {
  const after = decay.after ?? NEAR_DECAY;
  const before = decay.before ?? BACKWARD;
  const top = Math.max(0, ...scores);
  if (top <= 0) return scores.map(() => 0);
  return lines.map((l, k) => {
    if (!l.trim()) return 0;
    let near = 0;
    for (let j = 0; j < lines.length; j++) {
      const d = k - j;
      const f = d === 0 ? 1 : Math.pow(after, Math.abs(d)) * (d > 0 ? 1 : before);
      near = Math.max(near, (scores[j]! / top) * f);
    }
    return near;
  });
}

/** The answering span of a chunk: file lines (1-based, inclusive) and per-line nearness. */
export interface EvidenceSpan {
  readonly startLine: number;
  readonly endLine: number;
  /** Best line score in the span (0 when no line matches). */
  readonly score: number;
  /** {@link nearness} of every chunk line, in order (index 0 = the chunk's first line). */
  readonly lineScores: readonly number[];
}

/** Options of {@link pickEvidence}. */
export interface EvidenceOptions {
  /** Lines with at least this nearness to the best line join the span. Default 0.4. */
  readonly joinRatio?: number;
  /** Most lines in the span. Default 5. */
  readonly maxLines?: number;
  /**
   * Indices (inclusive) of `lines` that are the retrieved chunk when `lines` also holds a few lines
   * around it: the best line is inside the anchor, and a line outside it joins the span only as the
   * neighbour of a match inside it (the answer after a matching last line). Default: every line.
   */
  readonly anchor?: readonly [number, number];
}

/**
 * Pick the span of `lines` (the chunk's text lines; `lines[0]` is file line `startLine`) that
 * answers the query: the best-scoring line, grown over adjacent lines whose {@link nearness} is at
 * least `joinRatio` (a matching neighbour, or the line right after a match). When no line holds a
 * query term, the whole chunk is the span.
 */
export function pickEvidence(
  q: QueryWeights,
  startLine: number,
  lines: readonly string[],
  options: EvidenceOptions = {},
): EvidenceSpan {
  const ratio = options.joinRatio ?? 0.4;
  const maxLines = Math.max(1, options.maxLines ?? 5);
  const lo = Math.max(0, options.anchor?.[0] ?? 0);
  const hi = Math.min(lines.length - 1, options.anchor?.[1] ?? lines.length - 1);
  // Lines outside the anchor are only near a match inside it: their own words do not count, so a
  // better match in the next chunk neither moves the span nor pulls it out of its chunk.
  const near = nearnessOf(
    lines.map((l, k) => (k >= lo && k <= hi && l.trim() ? lineScore(q, l) : 0)),
    lines,
  );
  let best = -1;
  // The first line of the anchor with the highest nearness (1 when the best line is inside it).
  for (let i = lo; i <= hi; i++) if (near[i]! > 0 && (best < 0 || near[i]! > near[best]!)) best = i;
  if (best < 0) {
    return {
      startLine: startLine + lo,
      endLine: startLine + lo + Math.max(0, Math.min(hi - lo + 1, maxLines) - 1),
      score: 0,
      lineScores: near,
    };
  }
  // The span leaves the anchor only over the edge its best line is on (the reply after a matching
  // last line); a best line inside the chunk keeps the chunk's own lines.
  const first = best === lo ? 0 : lo;
  const last = best === hi ? near.length - 1 : hi;
  let from = best;
  let to = best;
  for (;;) {
    if (to - from + 1 >= maxLines) break;
    const up = from > first ? near[from - 1]! : -1;
    const down = to < last ? near[to + 1]! : -1;
    if (Math.max(up, down) < ratio || Math.max(up, down) <= 0) break;
    if (down >= up) to++;
    else from--;
  }
  return { startLine: startLine + from, endLine: startLine + to, score: lineScore(q, lines[best]!), lineScores: near };
}

// Made on first use: the first Intl.Segmenter loads ICU break data (60-100 ms of CPU), which a
// recall without a context block never needs.
let sentenceSegmenter: Intl.Segmenter | undefined;

/** Sentences of `text` (Unicode sentence boundaries), each with its offset; never empty for non-empty text. */
export function sentences(text: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  sentenceSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'sentence' });
  for (const s of sentenceSegmenter.segment(text)) if (s.segment.trim()) out.push({ text: s.segment, at: s.index });
  return out.length ? out : [{ text, at: 0 }];
}

/**
 * Whether `text` holds a specific: a number, a code identifier (snake_case, camelCase, a dotted or
 * `@`/`$`-prefixed name, a backticked span) or a quoted literal — what an answer is usually made of.
 */
export function hasSpecifics(text: string): boolean {
  return SPECIFIC.test(text);
}
const SPECIFIC =
  /\p{N}|`[^`]+`|'[^'\s][^']{0,40}'|"[^"\s][^"]{0,40}"|\b\w+_\w*|\b_\w+|\b\p{Ll}+\p{Lu}\w*|[@$]\w+|\b\w+\.\w+\(/u;

/** Shares of a matching neighbour's score a sentence with specifics gets (the numbers after "expiry is"). */
const SPECIFIC_NEAR = 0.6;
/** A matching sentence with specifics gains this share of its own score over one without. */
const SPECIFIC_OWN = 0.25;

/**
 * Score of each sentence of a line for the query: its BM25 line score, plus — when it holds numbers,
 * identifiers or quoted literals ({@link hasSpecifics}) — a share of its own score and of the best
 * neighbouring sentence's, so the sentence that carries the values next to the question's words
 * competes with the one that only repeats them.
 */
export function sentenceScores(q: QueryWeights, texts: readonly string[]): number[] {
  const own = texts.map((t) => lineScore(q, t));
  return texts.map((t, i) => {
    if (!hasSpecifics(t)) return own[i]!;
    const near = Math.max(own[i - 1] ?? 0, own[i + 1] ?? 0);
    return own[i]! * (1 + SPECIFIC_OWN) + SPECIFIC_NEAR * near;
  });
}

/**
 * The words acknowledgements and pleasantries are made of (phatic expressions: "Good.", "Ready when
 * you are.", "Thanks, sounds great!", "Got it, will do."). A line of nothing else carries no content.
 */
const PHATIC = new Set(
  `a all alright and absolutely am are aw aww awesome be bye cheers cool course definitely do done excellent fine for
  from glad go good got great haha happy hear hello hey hi i i'll i'm it it's just let let's lol lovely me more morning
  much nice no noted of oh ok okay on perfect pleasure problem ready really right see so sounds sure talk
  thank thanks that that's the then there think this to too totally understood up we we'll welcome well
  when will wonderful woohoo wow yay yeah yep yes you you're your`.split(/\s+/u),
);

/**
 * Whether a line or sentence (its list marker and a short `Name:` label aside) is filler: an
 * acknowledgement or a pleasantry made only of {@link PHATIC} words and the names it addresses
 * ("Thanks, Mel!", "Wow, Caroline!": a capitalised word), at least one phatic word, with no query
 * term and no specifics.
 */
export function isFiller(q: QueryWeights | undefined, text: string): boolean {
  const body = text.replace(/^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,30}:\s)?/u, '');
  const words = (body.replace(/’/gu, "'").match(/[\p{L}\p{N}']+/gu) ?? []).map((w) => w.replace(/^'+|'+$/gu, ''));
  if (words.length === 0 || hasSpecifics(body)) return false;
  let phatic = 0;
  for (const w of words) {
    if (PHATIC.has(w.toLowerCase())) phatic++;
    else if (!/^\p{Lu}\p{Ll}+$/u.test(w)) return false;
  }
  return phatic > 0 && (!q || lineScore(q, body) <= 0);
}
