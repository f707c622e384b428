// BM25 over one or more segment views with global statistics (lunr's own arithmetic), prefix
// expansion over the vocabularies, required/prohibited constraints and top-k selection.
import { isSingleCjk, parseQuery, type ParsedQuery } from '../query/query.js';
import { B, BOOSTS, K1, NF, type Bm25Params, type LexicalHit, type View } from './lexical-segment.js';
import { stemOf } from './lexical-stem.js';
import { lowerBound } from './lexical-strings.js';

/** At most this many vocabulary expansions per prefix token (closest, i.e. shortest, first). */
const MAX_PREFIX_EXPANSIONS = 128;
/** Expanded (non-exact) prefix completions score at this weight. */
const PREFIX_BOOST = 0.5;

export type Constraint = { presence: 'required' | 'prohibited'; parts: string[][] };
const EMPTY_IDS = new Int32Array(0);

function hasId(ids: Int32Array, id: number): boolean {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * The best `k` items in `cmp` order (sorted), without sorting all of them when k is small. The
 * scorer's own bounded search uses {@link bestKeys} (no comparator call per candidate): with it, the
 * array-wide clearing of scratch scores and no score array per search, one-shot keyword recall at
 * 10,000 files (3-word queries of bench:peers' words, 15 alternating calls, quiet machine) went
 * from 398 to 367 ms CPU per call. (A top-k over the score array alone, measured earlier at load ≈ 14:
 * noise.)
 */
export function topK<T>(items: T[], k: number, cmp: (a: T, b: T) => number): T[] {
  if (items.length <= k || k >= items.length / 4) return items.sort(cmp).slice(0, k);
  // Bounded heap with the worst kept item at the root.
  const heap: T[] = [];
  const worse = (a: T, b: T) => cmp(a, b) > 0;
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const h of items) {
    if (heap.length < k) {
      heap.push(h);
      up(heap.length - 1);
    } else if (worse(heap[0]!, h)) {
      heap[0] = h;
      down(0);
    }
  }
  return heap.sort(cmp);
}

/**
 * Add `boost` · w(doc, term) of postings `[from, to)` of one term to `scores` (w: lunr's field
 * vector, see {@link Scorer.run}); a document scored for the first time is marked in `seen` and its
 * key (`id * V + vi`) pushed to `touched`. The hot loop of a query, apart in a small function so a
 * one-shot process optimises it after a few thousand postings instead of interpreting a 40k-posting
 * term inside the large `run` (cold first query at 10k files: most of its time was this loop).
 */
function scorePostings(
  postIds: Int32Array,
  postTf: Uint16Array,
  len: Uint32Array,
  from: number,
  to: number,
  mask: Uint8Array | undefined,
  avg: Float64Array,
  scores: Float64Array,
  seen: Uint8Array,
  touched: number[],
  at: { V: number; vi: number; boost: number; idf: number; k1: number; b: number; k1p1: number },
): void {
  const { V, vi, boost, idf, k1, b, k1p1 } = at;
  for (let p = from; p < to; p++) {
    const id = postIds[p]!;
    if (mask !== undefined && mask[id] === 1) continue;
    let w = 0;
    for (let f = 0; f < NF; f++) {
      const tf = postTf[p * NF + f]!;
      if (tf === 0) continue;
      // The length part of BM25, computed per posting (no per-query pass over every document).
      const norm = k1 * (1 - b + b * (len[id * NF + f]! / avg[f]!));
      let score = (idf * (k1p1 * tf)) / (norm + tf);
      score *= BOOSTS[f]!;
      w += Math.round(score * 1000) / 1000;
    }
    if (seen[id] === 0) {
      seen[id] = 1;
      touched.push(id * V + vi);
    }
    scores[id]! += boost * w;
  }
}

/** The accumulated score of each candidate key (`id * V + view`), in order. */
function scoresOf(candidates: readonly number[], views: readonly View[], V: number): Float64Array {
  const out = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const key = candidates[i]!;
    const vi = key % V;
    out[i] = views[vi]!.seg.scores[(key - vi) / V]!;
  }
  return out;
}

/**
 * The keys of the `max` best `candidates` (score desc, then ref asc): exactly the first `max` of
 * {@link topK} over all of them, found without a comparator call per candidate. One pass keeps the
 * `max` best scores (a min-heap of numbers) to learn the cut-off score; a second takes the
 * candidates at or above it (the kept ones and their ties), and only those are sorted in full.
 */
function bestKeys(
  candidates: readonly number[],
  views: readonly View[],
  V: number,
  max: number,
  refOf: (key: number) => string,
): number[] {
  const scoreOf = (key: number) => {
    const vi = key % V;
    return views[vi]!.seg.scores[(key - vi) / V]!;
  };
  const heap = new Float64Array(max);
  let size = 0;
  for (let i = 0; i < candidates.length; i++) {
    const s = scoreOf(candidates[i]!);
    if (size < max) {
      // Sift up.
      let j = size++;
      while (j > 0) {
        const p = (j - 1) >> 1;
        if (heap[p]! <= s) break;
        heap[j] = heap[p]!;
        j = p;
      }
      heap[j] = s;
    } else if (s > heap[0]!) {
      // Replace the root (the worst kept score) and sift down.
      let j = 0;
      for (;;) {
        const l = 2 * j + 1;
        if (l >= max) break;
        const r = l + 1;
        const m = r < max && heap[r]! < heap[l]! ? r : l;
        if (heap[m]! >= s) break;
        heap[j] = heap[m]!;
        j = m;
      }
      heap[j] = s;
    }
  }
  const cut = heap[0]!;
  const kept: number[] = [];
  for (let i = 0; i < candidates.length; i++) if (scoreOf(candidates[i]!) >= cut) kept.push(candidates[i]!);
  kept.sort((a, b) => {
    const d = scoreOf(b) - scoreOf(a);
    if (d !== 0) return d;
    const ra = refOf(a);
    const rb = refOf(b);
    return ra < rb ? -1 : ra > rb ? 1 : 0;
  });
  return kept.length > max ? kept.slice(0, max) : kept;
}

/**
 * Reset the scratch scores and marks of every touched key (the next search starts from zeros): key
 * by key, or whole arrays when the query touched more than an eighth of the documents (a common
 * word: filling 50k zeros costs less than as many scattered writes).
 */
function clearScratch(touched: readonly number[], views: readonly View[], V: number): void {
  let docs = 0;
  for (const v of views) docs += v.seg.scores.length;
  if (touched.length * 8 > docs) {
    for (const v of views) {
      v.seg.scores.fill(0);
      v.seg.seen.fill(0);
    }
    return;
  }
  for (let i = 0; i < touched.length; i++) {
    const key = touched[i]!;
    const vi = key % V;
    const id = (key - vi) / V;
    const seg = views[vi]!.seg;
    seg.scores[id] = 0;
    seg.seen[id] = 0;
  }
}

/**
 * BM25 over one or more segments with global statistics, reproducing lunr's own arithmetic
 * (lunr.idf, the builder's field-vector formula, its 3-decimal rounding and field boosts, and the
 * query-vector similarity of `index.query`) so that the scores equal those of one lunr index built
 * over the live documents.
 */
export class Scorer {
  readonly views: readonly View[];
  readonly size: number;
  readonly #avg = new Float64Array(NF);
  readonly #idf = new Map<string, number>();

  constructor(views: readonly View[]) {
    this.views = views;
    let n = 0;
    const total = new Float64Array(NF);
    for (const v of views) {
      n += v.seg.n - v.maskedCount;
      for (let f = 0; f < NF; f++) total[f]! += v.seg.totalLen[f]! - v.maskLen[f]!;
    }
    this.size = n;
    // lunr: accumulator[field] / documentsWithField[field]; every document has every field.
    for (let f = 0; f < NF; f++) this.#avg[f] = total[f]! / n;
  }

  /** Global document frequency of an index term (0 = not in any live document). */
  df(term: string): number {
    let df = 0;
    for (const v of this.views) {
      const t = v.seg.termIndex(term);
      if (t !== undefined) df += v.seg.termDf(t) - v.maskDf(t);
    }
    return df;
  }

  /** BM25 inverse document frequency of an index term over the live documents. */
  idf(term: string): number {
    return this.#idfOf(term);
  }

  #idfOf(term: string): number {
    let idf = this.#idf.get(term);
    if (idf === undefined) {
      const df = this.df(term);
      const x = (this.size - df + 0.5) / (df + 0.5);
      idf = Math.log(1 + Math.abs(x));
      this.#idf.set(term, idf);
    }
    return idf;
  }

  has(ref: string): boolean {
    for (const v of this.views) {
      const id = v.seg.id(ref);
      if (id !== undefined && v.live(id)) return true;
    }
    return false;
  }

  /**
   * Live entries of one sorted vocabulary (`raw` or `terms`) across every segment that start with
   * `key`, sorted, de-duplicated, at most `limit`; each with the index term it stands for.
   */
  #liveWithPrefix(kind: 'raw' | 'terms', key: string, limit: number): { s: string; term: string }[] {
    const all: { s: string; term: string }[] = [];
    for (const v of this.views) {
      const d = v.seg.data;
      const sorted = kind === 'raw' ? d.raw : d.terms;
      let taken = 0;
      for (let i = lowerBound(sorted, key); i < sorted.length && sorted.at(i).startsWith(key) && taken < limit; i++) {
        const s = sorted.at(i);
        // Live in this segment; an entry live only in another segment is collected from that one.
        const live =
          kind === 'raw'
            ? v.seg.rawDf[i]! - (v.maskRawDf ? v.maskRawDf[i]! : 0) > 0
            : v.seg.termDf(i) - v.maskDf(i) > 0;
        if (!live) continue;
        all.push({ s, term: kind === 'raw' ? d.rawStem.at(i) : s });
        taken++;
      }
    }
    if (this.views.length === 1) return all;
    all.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    const out: { s: string; term: string }[] = [];
    for (const e of all) {
      if (out.length >= limit) break;
      if (out.length === 0 || out[out.length - 1]!.s !== e.s) out.push(e);
    }
    return out;
  }

  /** Index terms a query token stands for, with their boost; only terms of live documents. */
  expand(token: string, prefix: boolean): Map<string, number> {
    const out = new Map<string, number>();
    const exact = stemOf(token);
    if (this.df(exact) > 0) out.set(exact, 1);
    if (!prefix && !isSingleCjk(token)) return out;
    const cap = 4 * MAX_PREFIX_EXPANSIONS;
    const found: { term: string; len: number }[] = [];
    for (const e of this.#liveWithPrefix('raw', token, cap + 1)) {
      found.push({ term: e.term, len: e.s.length }); // unstemmed: genera* → general → gener
      if (found.length > cap) break;
    }
    for (const e of this.#liveWithPrefix('terms', exact, cap + 1)) {
      found.push({ term: e.term, len: e.s.length }); // stemmed: happi* → happi
      if (found.length > cap) break;
    }
    found.sort((a, b) => a.len - b.len || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    for (const { term } of found) {
      if (out.size >= MAX_PREFIX_EXPANSIONS) break;
      if (!out.has(term)) out.set(term, PREFIX_BOOST);
    }
    return out;
  }

  /** Query terms → index terms with boosts, plus required/prohibited constraints; undefined = no match possible. */
  plan(parsed: ParsedQuery): { scoring: Map<string, number>; constraints: Constraint[] } | undefined {
    const scoring = new Map<string, number>(); // index term → boost
    const constraints: Constraint[] = [];
    for (const term of parsed.terms) {
      if (term.presence !== 'prohibited') {
        for (const tok of term.tokens) {
          for (const [t, boost] of this.expand(tok, term.prefix)) {
            if ((scoring.get(t) ?? 0) < boost) scoring.set(t, boost);
          }
        }
      }
      if (term.presence !== 'optional') {
        constraints.push({
          presence: term.presence,
          parts: term.parts.map((alts) => [...new Set(alts.flatMap((a) => [...this.expand(a, term.prefix).keys()]))]),
        });
      }
    }
    if (scoring.size === 0) return undefined;
    // A required part with no term in the vocabulary can match nothing.
    if (constraints.some((c) => c.presence === 'required' && c.parts.some((alts) => alts.length === 0)))
      return undefined;
    return { scoring, constraints };
  }

  /** Doc ids (ascending) of an index term in one segment; empty when absent. */
  ids(v: View, term: string): Int32Array {
    const t = v.seg.termIndex(term);
    return t === undefined ? EMPTY_IDS : v.seg.postingIds(t);
  }

  /** Does doc `id` of view `v` contain, in any field, at least one alternative of every part? */
  satisfies(v: View, id: number, parts: readonly (readonly string[])[]): boolean {
    if (parts.length === 0) return false;
    return parts.every((alts) => alts.some((t) => hasId(this.ids(v, t), id)));
  }

  /**
   * score = Σ_terms boost · w(doc, term) / |q|, w = Σ_fields round3(idf · (k1+1)·tf / (norm + tf) · fieldBoost):
   * lunr's stored field vector, computed here from term frequencies and the global statistics.
   */
  run(parsed: ParsedQuery, max: number, bm25?: Bm25Params): LexicalHit[] {
    if (parsed.empty || this.size === 0 || max <= 0) return [];
    const plan = this.plan(parsed);
    if (!plan) return [];
    let qnorm = 0;
    for (const boost of plan.scoring.values()) qnorm += boost * boost;
    qnorm = Math.sqrt(qnorm);
    const V = this.views.length;
    const touched: number[] = []; // id * V + view
    const k1 = bm25?.k1 ?? K1;
    const b = bm25?.b ?? B;
    const k1p1 = k1 + 1;
    try {
      for (const [term, boost] of plan.scoring) {
        const idf = this.#idfOf(term);
        for (let vi = 0; vi < V; vi++) {
          const v = this.views[vi]!;
          const t = v.seg.termIndex(term);
          if (t === undefined) continue;
          const d = v.seg.data;
          const { scores, seen } = v.seg;
          const at = { V, vi, boost, idf, k1, b, k1p1 };
          scorePostings(
            d.postIds,
            d.postTf,
            d.docLen,
            d.postStart[t]!,
            d.postStart[t + 1]!,
            v.mask,
            this.#avg,
            scores,
            seen,
            touched,
            at,
          );
        }
      }
      const resolved = plan.constraints.map((c) => ({
        required: c.presence === 'required',
        parts: this.views.map((v) => c.parts.map((alts) => alts.map((t) => this.ids(v, t)))),
      }));
      const ok = (key: number) => {
        const vi = key % V;
        const id = (key - vi) / V;
        return resolved.every(
          (c) =>
            (c.parts[vi]!.length > 0 && c.parts[vi]!.every((alts) => alts.some((ids) => hasId(ids, id)))) ===
            c.required,
        );
      };
      const candidates = resolved.length === 0 ? touched : touched.filter(ok);
      const refOf = (key: number) => {
        const vi = key % V;
        return this.views[vi]!.seg.data.refs.at((key - vi) / V);
      };
      // A bounded search over many matches: the cut-off score first, then only the best are sorted.
      if (max < candidates.length / 4)
        return bestKeys(candidates, this.views, V, max, refOf).map((key) => {
          const vi = key % V;
          return { ref: refOf(key), score: this.views[vi]!.seg.scores[(key - vi) / V]! / qnorm || 0 };
        });
      // Scores read once into one array: an unbounded search sorts every match, and the comparator
      // then reads plain numbers (same order: score, then ref).
      const score = scoresOf(candidates, this.views, V);
      const order = new Array<number>(candidates.length);
      for (let i = 0; i < order.length; i++) order[i] = i;
      const best = topK(order, max, (a, b) => {
        const d = score[b]! - score[a]!;
        if (d !== 0) return d;
        const ra = refOf(candidates[a]!);
        const rb = refOf(candidates[b]!);
        return ra < rb ? -1 : ra > rb ? 1 : 0;
      });
      return best.map((i) => ({ ref: refOf(candidates[i]!), score: score[i]! / qnorm || 0 }));
    } finally {
      clearScratch(touched, this.views, V);
    }
  }
}

/**
 * Parse (when given text) and score a query. User text never throws here: the query parser turns
 * every operator character into a separator and a query with no usable terms is `empty` (an empty
 * answer). A failure inside the scorer is a bug and is not hidden.
 */
export function searchWith(
  scorer: Scorer,
  query: ParsedQuery | string,
  limit: number | undefined,
  bm25?: Bm25Params,
): LexicalHit[] {
  const parsed = typeof query === 'string' ? parseQuery(query) : query;
  if (parsed.empty || scorer.size === 0) return [];
  const max = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit) || 0));
  if (max === 0) return [];
  return scorer.run(parsed, max, bm25);
}
