// Keyword (BM25) index over chunks: the ONLY importer of lunr. Our tokenizer, no ASCII trimmer (B03),
// English stemming for Latin tokens only, user text never reaches lunr's query parser (B01), prefix
// matching over the unstemmed vocabulary (B04). Segments (docs/DESIGN.md §3): lunr cannot update an index in
// place, so the live index is a large base segment plus a small delta, merged at query time with BM25
// computed from GLOBAL statistics (document count, per-term document frequency, average field
// lengths over every live document of every segment, masked base entries excluded). That is exactly
// the arithmetic lunr uses when it builds one index over the same documents, so a segmented index
// ranks identically to a full rebuild. Imports only core, ./tokenize, ./query and lunr.
import lunr from 'lunr';
import { MemoryError } from '../core/errors.js';
import { isSingleCjk, parseQuery, type ParsedQuery } from './query.js';
import { isLatinToken, tokenize } from './tokenize.js';

export { parseQuery, queryTokens, MAX_QUERY_TERMS } from './query.js';
export type { ParsedQuery, QueryTerm, QueryFilters, Presence } from './query.js';

/** One chunk as the keyword index sees it. */
export interface LexicalDoc {
  /** Chunk id (`path#startLine`); unique within one index. */
  readonly ref: string;
  readonly text: string;
  readonly title?: string;
  readonly tags?: readonly string[];
  readonly headings?: readonly string[];
}

/** One keyword hit. Scores are lunr BM25 scores, comparable only within one index. */
export interface LexicalHit {
  readonly ref: string;
  readonly score: number;
}

/** Version of {@link LexicalIndex.toJSON}'s shape; bump when it changes. */
export const LEXICAL_FORMAT_VERSION = 2;

/** The lunr version this build uses (record it in the index manifest). */
export const LUNR_VERSION: string = lunr.version;

const FORMAT_TAG = 'gitmem-lexical';
const STEM_LABEL = 'gitmem-stem-latin';
/** Field name → boost. Title and tags weigh double; headings are context, not content. */
const FIELDS = { text: 1, title: 2, tags: 2, headings: 0.5 } as const;
const FIELD_NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];
/** At most this many vocabulary expansions per prefix token (closest, i.e. shortest, first). */
const MAX_PREFIX_EXPANSIONS = 128;
/** Expanded (non-exact) prefix completions score at this weight. */
const PREFIX_BOOST = 0.5;

/** Porter-stem a Latin-script token; every other script is indexed as is (the index term of a token). */
export function stemOf(token: string): string {
  return isLatinToken(token) ? lunr.stemmer(new lunr.Token(token, {})).toString() : token;
}

const stemLatin: lunr.PipelineFunction = (token) => (isLatinToken(token.toString()) ? lunr.stemmer(token) : token);

// Registered at module load, i.e. always before any lunr.Index.load in this process.
lunr.Pipeline.registerFunction(stemLatin, STEM_LABEL);

type Posting = Record<string, Record<string, unknown>> & { _index: number };
type Constraint = { presence: 'required' | 'prohibited'; parts: string[][] };
const NF = FIELD_NAMES.length;
const BOOSTS = FIELD_NAMES.map((f) => FIELDS[f]);
const K1 = 1.2;
const B = 0.75;
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

/** Score descending, then ref ascending. */
function compareHits(a: LexicalHit, b: LexicalHit): number {
  return b.score - a.score || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0);
}

/** The best `k` items in `cmp` order (sorted), without sorting all of them when k is small. */
function topK<T>(items: T[], k: number, cmp: (a: T, b: T) => number): T[] {
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

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function corrupt(message: string, cause?: unknown): MemoryError {
  return new MemoryError('index.corrupt', `keyword index: ${message}`, {
    hint: 'the index is rebuilt from the markdown files (gitmem index --rebuild)',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Version of the binary segment format ({@link LexicalIndex.toBinary}); bump when it changes. */
export const LEXICAL_BINARY_VERSION = 1;
const MAGIC = 0x584c4d47; // "GMLX" read as a little-endian u32
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** What search needs from one segment: plain data (typed arrays + strings), transferable between threads. */
interface SegmentData {
  /** Dense document id → chunk ref. */
  readonly refs: readonly string[];
  /** Index terms (stemmed), sorted; a term's id is its position. */
  readonly terms: readonly string[];
  /** Unstemmed vocabulary, sorted, and the stem (always an index term) of each entry. */
  readonly raw: readonly string[];
  readonly rawStem: readonly string[];
  /** Postings of term t are `[postStart[t], postStart[t + 1])` in postIds (ascending doc ids) / postTf. */
  readonly postStart: Int32Array;
  readonly postIds: Int32Array;
  /** Term frequency per field (NF per posting, field order of FIELD_NAMES). */
  readonly postTf: Uint16Array;
  /** Field lengths in terms (NF per document). */
  readonly docLen: Uint32Array;
  /** Raw-vocabulary ids of document d are `rawIds[rawStart[d] .. rawStart[d + 1])`. */
  readonly rawStart: Int32Array;
  readonly rawIds: Int32Array;
}

/**
 * One immutable segment with the per-segment statistics derived from its data. Everything derived is
 * computed on first use (a one-shot query touches a handful of terms: it must not pay for a map
 * of every term and ref, or a pass over every posting, of a 50k-chunk segment).
 */
class Segment {
  readonly data: SegmentData;
  readonly n: number;
  #idOf: Map<string, number> | undefined;
  /** Per term: number of (field, document) pairs holding it — lunr's document frequency (-1 = not computed yet). */
  readonly #termDf: Int32Array;
  #rawDf: Int32Array | undefined;
  /** Per field: sum of the field lengths. */
  readonly totalLen = new Float64Array(NF);
  #scores: Float64Array | undefined;
  #seen: Uint8Array | undefined;

  constructor(data: SegmentData) {
    this.data = data;
    this.n = data.refs.length;
    this.#termDf = new Int32Array(data.terms.length).fill(-1);
    for (let d = 0; d < this.n; d++) for (let f = 0; f < NF; f++) this.totalLen[f]! += data.docLen[d * NF + f]!;
  }

  /** Ref → dense document id. */
  get idOf(): ReadonlyMap<string, number> {
    if (!this.#idOf) {
      const m = new Map<string, number>();
      this.data.refs.forEach((r, i) => m.set(r, i));
      this.#idOf = m;
    }
    return this.#idOf;
  }

  /** Id of an index term (binary search: terms are sorted), or undefined. */
  termIndex(term: string): number | undefined {
    const terms = this.data.terms;
    let lo = 0;
    let hi = terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const t = terms[mid]!;
      if (t === term) return mid;
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  termDf(t: number): number {
    let df = this.#termDf[t]!;
    if (df < 0) {
      const d = this.data;
      df = 0;
      for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) {
        for (let f = 0; f < NF; f++) if (d.postTf[p * NF + f]! > 0) df++;
      }
      this.#termDf[t] = df;
    }
    return df;
  }

  /** Per raw token: number of documents holding it. */
  get rawDf(): Int32Array {
    if (!this.#rawDf) {
      const a = new Int32Array(this.data.raw.length);
      for (const r of this.data.rawIds) a[r]!++;
      this.#rawDf = a;
    }
    return this.#rawDf;
  }

  /** Scratch for scoring (search is synchronous, so one set per segment suffices). */
  get scores(): Float64Array {
    return (this.#scores ??= new Float64Array(this.n));
  }

  get seen(): Uint8Array {
    return (this.#seen ??= new Uint8Array(this.n));
  }

  postingIds(t: number): Int32Array {
    return this.data.postIds.subarray(this.data.postStart[t]!, this.data.postStart[t + 1]!);
  }

  #forward: { start: Int32Array; term: Int32Array; fields: Uint8Array } | undefined;

  /** Per document: its term ids and in how many fields each occurs (built once, on the first mask). */
  forward(): { start: Int32Array; term: Int32Array; fields: Uint8Array } {
    if (this.#forward) return this.#forward;
    const d = this.data;
    const P = d.postIds.length;
    const start = new Int32Array(this.n + 1);
    for (let p = 0; p < P; p++) start[d.postIds[p]! + 1]!++;
    for (let i = 0; i < this.n; i++) start[i + 1]! += start[i]!;
    const fill = start.slice(0, this.n);
    const term = new Int32Array(P);
    const fields = new Uint8Array(P);
    for (let t = 0; t < d.terms.length; t++) {
      for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) {
        const k = fill[d.postIds[p]!]!++;
        term[k] = t;
        let c = 0;
        for (let f = 0; f < NF; f++) if (d.postTf[p * NF + f]! > 0) c++;
        fields[k] = c;
      }
    }
    this.#forward = { start, term, fields };
    return this.#forward;
  }
}

/** A segment as one search sees it: some of its documents may be masked (superseded by a newer segment). */
class View {
  readonly seg: Segment;
  readonly mask: Uint8Array | undefined;
  readonly maskedCount: number;
  readonly maskDf: Int32Array | undefined;
  readonly maskRawDf: Int32Array | undefined;
  readonly maskLen = new Float64Array(NF);
  /** K1 · (1 − B + B · len / avgLen) per (document, field): the length part of BM25, set by the scorer. */
  norm: Float64Array | undefined;

  constructor(seg: Segment, masked: Iterable<string> | undefined) {
    this.seg = seg;
    let mask: Uint8Array | undefined;
    let count = 0;
    for (const ref of masked ?? []) {
      const id = seg.idOf.get(ref);
      if (id === undefined) continue;
      mask ??= new Uint8Array(seg.n);
      if (mask[id] === 0) {
        mask[id] = 1;
        count++;
      }
    }
    this.mask = mask;
    this.maskedCount = count;
    if (!mask) return;
    const d = seg.data;
    const fwd = seg.forward();
    const df = new Int32Array(d.terms.length);
    const rawDf = new Int32Array(d.raw.length);
    for (let id = 0; id < seg.n; id++) {
      if (mask[id] === 0) continue;
      for (let k = fwd.start[id]!; k < fwd.start[id + 1]!; k++) df[fwd.term[k]!]! += fwd.fields[k]!;
      for (let k = d.rawStart[id]!; k < d.rawStart[id + 1]!; k++) rawDf[d.rawIds[k]!]!++;
      for (let f = 0; f < NF; f++) this.maskLen[f]! += d.docLen[id * NF + f]!;
    }
    this.maskDf = df;
    this.maskRawDf = rawDf;
  }

  live(id: number): boolean {
    return this.mask === undefined || this.mask[id] === 0;
  }
}

/**
 * BM25 over one or more segments with global statistics, reproducing lunr's own arithmetic
 * (lunr.idf, the builder's field-vector formula, its 3-decimal rounding and field boosts, and the
 * query-vector similarity of `index.query`) so that the scores equal those of one lunr index built
 * over the live documents.
 */
class Scorer {
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
      if (t !== undefined) df += v.seg.termDf(t) - (v.maskDf ? v.maskDf[t]! : 0);
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

  #norm(v: View): Float64Array {
    if (!v.norm) {
      const len = v.seg.data.docLen;
      const norm = new Float64Array(len.length);
      for (let i = 0; i < len.length; i++) norm[i] = K1 * (1 - B + B * (len[i]! / this.#avg[i % NF]!));
      v.norm = norm;
    }
    return v.norm;
  }

  has(ref: string): boolean {
    for (const v of this.views) {
      const id = v.seg.idOf.get(ref);
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
      for (let i = lowerBound(sorted, key); i < sorted.length && sorted[i]!.startsWith(key) && taken < limit; i++) {
        const s = sorted[i]!;
        // Live in this segment; an entry live only in another segment is collected from that one.
        const live =
          kind === 'raw'
            ? v.seg.rawDf[i]! - (v.maskRawDf ? v.maskRawDf[i]! : 0) > 0
            : v.seg.termDf(i) - (v.maskDf ? v.maskDf[i]! : 0) > 0;
        if (!live) continue;
        all.push({ s, term: kind === 'raw' ? d.rawStem[i]! : s });
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
  run(parsed: ParsedQuery, max: number): LexicalHit[] {
    if (parsed.empty || this.size === 0 || max <= 0) return [];
    const plan = this.plan(parsed);
    if (!plan) return [];
    let qnorm = 0;
    for (const boost of plan.scoring.values()) qnorm += boost * boost;
    qnorm = Math.sqrt(qnorm);
    const V = this.views.length;
    const touched: number[] = []; // id * V + view
    const k1p1 = K1 + 1;
    try {
      for (const [term, boost] of plan.scoring) {
        const idf = this.#idfOf(term);
        for (let vi = 0; vi < V; vi++) {
          const v = this.views[vi]!;
          const t = v.seg.termIndex(term);
          if (t === undefined) continue;
          const d = v.seg.data;
          const norm = this.#norm(v);
          const { scores, seen } = v.seg;
          const mask = v.mask;
          for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) {
            const id = d.postIds[p]!;
            if (mask !== undefined && mask[id] === 1) continue;
            let w = 0;
            for (let f = 0; f < NF; f++) {
              const tf = d.postTf[p * NF + f]!;
              if (tf === 0) continue;
              let score = (idf * (k1p1 * tf)) / (norm[id * NF + f]! + tf);
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
      const scoreOf = (key: number) => {
        const vi = key % V;
        return this.views[vi]!.seg.scores[(key - vi) / V]!;
      };
      const refOf = (key: number) => {
        const vi = key % V;
        return this.views[vi]!.seg.data.refs[(key - vi) / V]!;
      };
      const best = topK(candidates, max, (a, b) => {
        const d = scoreOf(b) - scoreOf(a);
        if (d !== 0) return d;
        const ra = refOf(a);
        const rb = refOf(b);
        return ra < rb ? -1 : ra > rb ? 1 : 0;
      });
      return best.map((key) => ({ ref: refOf(key), score: scoreOf(key) / qnorm || 0 }));
    } finally {
      for (const key of touched) {
        const vi = key % V;
        const id = (key - vi) / V;
        const seg = this.views[vi]!.seg;
        seg.scores[id] = 0;
        seg.seen[id] = 0;
      }
    }
  }
}

/** What recall needs from a keyword index: one segment ({@link LexicalIndex}) or several ({@link SegmentedLexical}). */
export interface LexicalSearcher {
  /** Number of live documents (chunks). */
  readonly size: number;
  has(ref: string): boolean;
  parseQuery(text: string): ParsedQuery;
  search(query: ParsedQuery | string, limit?: number): LexicalHit[];
  /** BM25 idf of an index term (a {@link stemOf} token) over the live documents; optional. */
  idf?(term: string): number;
}

/**
 * Parse (when given text) and score a query. User text never throws here: the query parser turns
 * every operator character into a separator and a query with no usable terms is `empty` (an empty
 * answer). A failure inside the scorer is a bug and is not hidden.
 */
function searchWith(scorer: Scorer, query: ParsedQuery | string, limit: number | undefined): LexicalHit[] {
  const parsed = typeof query === 'string' ? parseQuery(query) : query;
  if (parsed.empty || scorer.size === 0) return [];
  const max = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit) || 0));
  if (max === 0) return [];
  return scorer.run(parsed, max);
}

/** Collect per-document term frequencies and field lengths the way lunr's Builder.add does. */
function segmentFromBuilder(
  docs: readonly LexicalDoc[],
  builder: lunr.Builder,
  rawByDoc: readonly (readonly string[])[],
): SegmentData {
  const b = builder as unknown as {
    fieldTermFrequencies: Record<string, Record<string, number>>;
    fieldLengths: Record<string, number>;
    invertedIndex: Record<string, unknown>;
  };
  const terms = Object.keys(b.invertedIndex).sort();
  const termId = new Map<string, number>();
  terms.forEach((t, i) => termId.set(t, i));
  const n = docs.length;
  const docLen = new Uint32Array(n * NF);
  // Per document: term id → NF term frequencies.
  const perDoc: Map<number, Uint16Array>[] = [];
  const counts = new Int32Array(terms.length + 1);
  for (let d = 0; d < n; d++) {
    const ref = docs[d]!.ref;
    const m = new Map<number, Uint16Array>();
    for (let f = 0; f < NF; f++) {
      const fieldRef = `${FIELD_NAMES[f]}/${ref}`;
      docLen[d * NF + f] = b.fieldLengths[fieldRef] ?? 0;
      const tfs = b.fieldTermFrequencies[fieldRef];
      if (!tfs) continue;
      for (const term of Object.keys(tfs)) {
        const t = termId.get(term)!;
        let row = m.get(t);
        if (!row) {
          row = new Uint16Array(NF);
          m.set(t, row);
          counts[t + 1]!++;
        }
        row[f] = Math.min(65535, tfs[term]!);
      }
    }
    perDoc.push(m);
  }
  for (let t = 0; t < terms.length; t++) counts[t + 1]! += counts[t]!;
  const postStart = counts;
  const P = postStart[terms.length]!;
  const postIds = new Int32Array(P);
  const postTf = new Uint16Array(P * NF);
  const fill = postStart.slice(0, terms.length);
  for (let d = 0; d < n; d++) {
    for (const [t, row] of perDoc[d]!) {
      const pos = fill[t]!++;
      postIds[pos] = d;
      postTf.set(row, pos * NF);
    }
  }
  const rawSet = new Set<string>();
  for (const r of rawByDoc) for (const t of r) rawSet.add(t);
  const raw = [...rawSet].sort();
  const rawId = new Map<string, number>();
  raw.forEach((r, i) => rawId.set(r, i));
  const rawStart = new Int32Array(n + 1);
  const ids: number[] = [];
  for (let d = 0; d < n; d++) {
    const uniq = [...new Set(rawByDoc[d]!)].map((t) => rawId.get(t)!).sort((x, y) => x - y);
    for (const i of uniq) ids.push(i);
    rawStart[d + 1] = ids.length;
  }
  return {
    refs: docs.map((d) => d.ref),
    terms,
    raw,
    rawStem: raw.map(stemOf),
    postStart,
    postIds,
    postTf,
    docLen,
    rawStart,
    rawIds: Int32Array.from(ids),
  };
}

/**
 * Merge segments at the data level (no re-tokenising): the live documents of each part, in part
 * order, with term and vocabulary ids remapped. Searching the result equals searching a segment built
 * by lunr over the same documents (search depends only on per-document term frequencies, field
 * lengths and vocabularies, never on document ids).
 */
function mergeSegments(parts: readonly { seg: Segment; drop: ReadonlySet<string> }[]): SegmentData {
  const refs: string[] = [];
  const keep: Int32Array[] = []; // per part: old doc id → new doc id, or -1
  for (const { seg, drop } of parts) {
    const map = new Int32Array(seg.n).fill(-1);
    seg.data.refs.forEach((r, i) => {
      if (drop.has(r)) return;
      map[i] = refs.length;
      refs.push(r);
    });
    keep.push(map);
  }
  const n = refs.length;
  // Terms and raw tokens that occur in a kept document.
  const termSet = new Set<string>();
  const rawSet = new Map<string, string>(); // raw → stem
  parts.forEach(({ seg }, k) => {
    const d = seg.data;
    const map = keep[k]!;
    for (let t = 0; t < d.terms.length; t++) {
      for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) {
        if (map[d.postIds[p]!]! >= 0) {
          termSet.add(d.terms[t]!);
          break;
        }
      }
    }
    for (let id = 0; id < seg.n; id++) {
      if (map[id]! < 0) continue;
      for (let q = d.rawStart[id]!; q < d.rawStart[id + 1]!; q++)
        rawSet.set(d.raw[d.rawIds[q]!]!, d.rawStem[d.rawIds[q]!]!);
    }
  });
  const terms = [...termSet].sort();
  const termId = new Map(terms.map((t, i) => [t, i]));
  const raw = [...rawSet.keys()].sort();
  const rawId = new Map(raw.map((r, i) => [r, i]));
  const counts = new Int32Array(terms.length + 1);
  parts.forEach(({ seg }, k) => {
    const d = seg.data;
    const map = keep[k]!;
    for (let t = 0; t < d.terms.length; t++) {
      const nt = termId.get(d.terms[t]!);
      if (nt === undefined) continue;
      for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) if (map[d.postIds[p]!]! >= 0) counts[nt + 1]!++;
    }
  });
  for (let t = 0; t < terms.length; t++) counts[t + 1]! += counts[t]!;
  const P = counts[terms.length]!;
  const postIds = new Int32Array(P);
  const postTf = new Uint16Array(P * NF);
  const fill = counts.slice(0, terms.length);
  // Parts in order and ids ascending within a part: new ids stay ascending per term.
  parts.forEach(({ seg }, k) => {
    const d = seg.data;
    const map = keep[k]!;
    for (let t = 0; t < d.terms.length; t++) {
      const nt = termId.get(d.terms[t]!);
      if (nt === undefined) continue;
      for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) {
        const nid = map[d.postIds[p]!]!;
        if (nid < 0) continue;
        const pos = fill[nt]!++;
        postIds[pos] = nid;
        postTf.set(d.postTf.subarray(p * NF, p * NF + NF), pos * NF);
      }
    }
  });
  const docLen = new Uint32Array(n * NF);
  const rawStart = new Int32Array(n + 1);
  const rawIds: number[] = [];
  parts.forEach(({ seg }, k) => {
    const d = seg.data;
    const map = keep[k]!;
    for (let id = 0; id < seg.n; id++) {
      const nid = map[id]!;
      if (nid < 0) continue;
      docLen.set(d.docLen.subarray(id * NF, id * NF + NF), nid * NF);
      const ids: number[] = [];
      for (let q = d.rawStart[id]!; q < d.rawStart[id + 1]!; q++) ids.push(rawId.get(d.raw[d.rawIds[q]!]!)!);
      ids.sort((a, b) => a - b);
      for (const x of ids) rawIds.push(x);
      rawStart[nid + 1] = rawIds.length;
    }
  });
  return {
    refs,
    terms,
    raw,
    rawStem: raw.map((r) => rawSet.get(r)!),
    postStart: counts,
    postIds,
    postTf,
    docLen,
    rawStart,
    rawIds: Int32Array.from(rawIds),
  };
}

const utf8 = new TextEncoder();

function encodeSegment(d: SegmentData): Uint8Array {
  const header = utf8.encode(
    JSON.stringify({
      refs: d.refs,
      terms: d.terms,
      raw: d.raw,
      stems: d.raw.map((r, i) => (d.rawStem[i] === r ? '' : d.rawStem[i]!)),
      sizes: [
        d.postStart.length,
        d.postIds.length,
        d.rawStart.length,
        d.rawIds.length,
        d.docLen.length,
        d.postTf.length,
      ],
    }),
  );
  const headPad = (4 - (header.length % 4)) % 4;
  const i32 = d.postStart.length + d.postIds.length + d.rawStart.length + d.rawIds.length + d.docLen.length;
  const total = 16 + header.length + headPad + i32 * 4 + d.postTf.length * 2;
  const buf = new ArrayBuffer(total);
  const dv = new DataView(buf);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, LEXICAL_BINARY_VERSION, true);
  dv.setUint32(8, header.length, true);
  dv.setUint32(12, LITTLE_ENDIAN ? 1 : 0, true);
  const bytes = new Uint8Array(buf);
  bytes.set(header, 16);
  let off = 16 + header.length + headPad;
  for (const a of [d.postStart, d.postIds, d.rawStart, d.rawIds, d.docLen]) {
    new Int32Array(buf, off, a.length).set(a as unknown as ArrayLike<number>);
    off += a.length * 4;
  }
  new Uint16Array(buf, off, d.postTf.length).set(d.postTf);
  return bytes;
}

function decodeSegment(input: Uint8Array): SegmentData {
  if (input.byteLength < 16) throw corrupt('segment too short');
  // Typed-array views need aligned offsets: copy when the bytes sit at an odd offset of a shared buffer.
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const buf = bytes.buffer;
  const base = bytes.byteOffset;
  const dv = new DataView(buf, base, bytes.byteLength);
  if (dv.getUint32(0, true) !== MAGIC) throw corrupt('not a gitmem keyword segment');
  if (dv.getUint32(4, true) !== LEXICAL_BINARY_VERSION)
    throw corrupt(`segment format ${dv.getUint32(4, true)} is not ${LEXICAL_BINARY_VERSION}`);
  if (dv.getUint32(12, true) !== (LITTLE_ENDIAN ? 1 : 0))
    throw corrupt('segment written on a machine of other byte order');
  const hlen = dv.getUint32(8, true);
  if (16 + hlen > bytes.byteLength) throw corrupt('segment header truncated');
  let h: { refs: unknown; terms: unknown; raw: unknown; stems: unknown; sizes: unknown };
  try {
    h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(16, 16 + hlen)));
  } catch (e) {
    throw corrupt('segment header unreadable', e);
  }
  if (!isStringArray(h.refs) || !isStringArray(h.terms) || !isStringArray(h.raw) || !isStringArray(h.stems))
    throw corrupt('bad segment header');
  if (h.raw.length !== h.stems.length) throw corrupt('bad segment vocabulary');
  const sizes = h.sizes;
  if (!Array.isArray(sizes) || sizes.length !== 6 || !sizes.every((x) => Number.isInteger(x) && x >= 0))
    throw corrupt('bad segment sizes');
  const [s0, s1, s2, s3, s4, s5] = sizes as number[];
  const n = h.refs.length;
  const T = h.terms.length;
  if (s0 !== T + 1 || s2 !== n + 1 || s4 !== n * NF || s5 !== s1! * NF) throw corrupt('segment sizes do not match');
  let off = 16 + hlen + ((4 - (hlen % 4)) % 4);
  if (off + (s0! + s1! + s2! + s3! + s4!) * 4 + s5! * 2 !== bytes.byteLength)
    throw corrupt('segment length does not match');
  const take32 = (len: number) => {
    const a = new Int32Array(buf, base + off, len);
    off += len * 4;
    return a;
  };
  const postStart = take32(s0!);
  const postIds = take32(s1!);
  const rawStart = take32(s2!);
  const rawIds = take32(s3!);
  const docLenI = take32(s4!);
  const postTf = new Uint16Array(buf, base + off, s5!);
  const docLen = new Uint32Array(docLenI.buffer, docLenI.byteOffset, docLenI.length);
  // Structural checks (the artifact is checksummed; this guards against our own bugs and old builds).
  const monotone = (a: Int32Array, end: number) => {
    if (a[0] !== 0 || a[a.length - 1] !== end) return false;
    for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) return false;
    return true;
  };
  if (!monotone(postStart, s1!) || !monotone(rawStart, s3!)) throw corrupt('segment offsets out of order');
  for (const id of postIds) if (id < 0 || id >= n) throw corrupt('segment posting out of range');
  for (const r of rawIds) if (r < 0 || r >= h.raw.length) throw corrupt('segment vocabulary id out of range');
  for (let i = 1; i < T; i++) if (!(h.terms[i - 1]! < h.terms[i]!)) throw corrupt('segment terms not sorted');
  for (let i = 1; i < h.raw.length; i++)
    if (!(h.raw[i - 1]! < h.raw[i]!)) throw corrupt('segment vocabulary not sorted');
  const raw = h.raw;
  const stems = h.stems;
  return {
    refs: h.refs,
    terms: h.terms,
    raw,
    rawStem: raw.map((r, i) => stems[i] || r),
    postStart,
    postIds,
    postTf,
    docLen,
    rawStart,
    rawIds,
  };
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * An immutable BM25 keyword index over chunks (one segment, built by lunr's Builder). Build with
 * {@link LexicalIndex.build}; persist with {@link LexicalIndex.toBinary} / {@link LexicalIndex.fromBinary}
 * (compact, loads without lunr) or {@link LexicalIndex.toJSON} / {@link LexicalIndex.load} (lunr's
 * own JSON plus the segment); query with {@link LexicalIndex.search}. Several segments are searched
 * together with {@link SegmentedLexical}.
 */
export class LexicalIndex implements LexicalSearcher {
  /** lunr's index: present when built with `lunr: true` or loaded from JSON (reference search, toJSON). */
  readonly #index: lunr.Index | undefined;
  /** @internal */
  readonly segment: Segment;
  readonly #scorer: Scorer;

  private constructor(segment: Segment, index: lunr.Index | undefined) {
    this.segment = segment;
    this.#index = index;
    this.#scorer = new Scorer([new View(segment, undefined)]);
  }

  /**
   * Build an index over `docs`.
   * @param options.lunr also build lunr's vector-space index (needed only for {@link toJSON} and
   *   {@link searchWithLunr}; default true). Segments for the live index skip it: it is the slow part.
   * @throws MemoryError `internal` when two docs share a ref (a caller bug, not user content).
   */
  static build(docs: readonly LexicalDoc[], options: { lunr?: boolean } = {}): LexicalIndex {
    const builder = new lunr.Builder();
    builder.pipeline.add(stemLatin);
    builder.searchPipeline.add(stemLatin);
    builder.ref('ref');
    for (const name of FIELD_NAMES) builder.field(name, { boost: FIELDS[name] });
    builder.k1(K1);
    builder.b(B);
    let current: string[] = [];
    const tokenizer = (obj?: unknown): lunr.Token[] => {
      if (obj === null || obj === undefined) return [];
      const out: lunr.Token[] = [];
      for (const t of tokenize(String(obj))) {
        current.push(t);
        out.push(new lunr.Token(t, {}));
      }
      return out;
    };
    builder.tokenizer = tokenizer as unknown as typeof builder.tokenizer;
    const seen = new Set<string>();
    const rawByDoc: string[][] = [];
    for (const d of docs) {
      if (seen.has(d.ref)) throw new MemoryError('internal', `duplicate chunk ref in keyword index: ${d.ref}`);
      seen.add(d.ref);
      current = [];
      builder.add({
        ref: d.ref,
        text: d.text ?? '',
        title: d.title ?? '',
        tags: (d.tags ?? []).join('\n'),
        headings: (d.headings ?? []).join('\n'),
      });
      rawByDoc.push(current);
    }
    const data = segmentFromBuilder(docs, builder, rawByDoc);
    return new LexicalIndex(new Segment(data), options.lunr === false ? undefined : builder.build());
  }

  /**
   * Restore an index saved by {@link LexicalIndex.toJSON} (the parsed JSON value).
   * @throws MemoryError `index.corrupt` when the shape, format version or lunr version is wrong.
   */
  static load(json: unknown): LexicalIndex {
    if (typeof json !== 'object' || json === null) throw corrupt('not an object');
    const j = json as Record<string, unknown>;
    if (j.format !== FORMAT_TAG) throw corrupt('unknown format');
    if (j.version !== LEXICAL_FORMAT_VERSION)
      throw corrupt(`format version ${String(j.version)} is not ${LEXICAL_FORMAT_VERSION}`);
    if (j.lunrVersion !== lunr.version)
      throw corrupt(`built by lunr ${String(j.lunrVersion)}, this is ${lunr.version}`);
    const size = j.size;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw corrupt('bad size');
    if (!isStringArray(j.vocab) || !isStringArray(j.stems) || j.vocab.length !== j.stems.length) {
      throw corrupt('bad vocabulary');
    }
    const idx = j.index as Record<string, unknown> | null;
    if (typeof idx !== 'object' || idx === null) throw corrupt('missing lunr index');
    if (idx.version !== lunr.version) throw corrupt('lunr version mismatch');
    if (!isStringArray(idx.fields) || idx.fields.join() !== FIELD_NAMES.join()) throw corrupt('unexpected fields');
    if (!Array.isArray(idx.fieldVectors) || idx.fieldVectors.length !== size * FIELD_NAMES.length) {
      throw corrupt('field vectors do not match the document count');
    }
    for (const fv of idx.fieldVectors) {
      if (!Array.isArray(fv) || typeof fv[0] !== 'string' || !Array.isArray(fv[1])) throw corrupt('bad field vector');
    }
    if (!Array.isArray(idx.invertedIndex)) throw corrupt('bad inverted index');
    for (const e of idx.invertedIndex) {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'object' || e[1] === null) {
        throw corrupt('bad posting');
      }
      const posting = e[1] as Record<string, unknown>;
      if (typeof posting._index !== 'number') throw corrupt('bad posting');
      for (const f of FIELD_NAMES)
        if (typeof posting[f] !== 'object' || posting[f] === null) throw corrupt('bad posting');
    }
    if (!isStringArray(idx.pipeline)) throw corrupt('bad pipeline');
    if (typeof j.segment !== 'string') throw corrupt('missing segment');
    let index: lunr.Index;
    try {
      index = lunr.Index.load(idx);
    } catch (e) {
      throw corrupt('lunr could not load it', e);
    }
    let data: SegmentData;
    try {
      data = decodeSegment(fromBase64(j.segment));
    } catch (e) {
      throw e instanceof MemoryError ? e : corrupt('bad segment', e);
    }
    if (data.refs.length !== size) throw corrupt('segment does not match the document count');
    const inverted = (index as unknown as { invertedIndex: Record<string, Posting> }).invertedIndex;
    if (data.terms.length !== Object.keys(inverted).length || data.terms.some((t) => inverted[t] === undefined)) {
      throw corrupt('segment terms do not match the lunr index');
    }
    return new LexicalIndex(new Segment(data), index);
  }

  /**
   * Restore a segment saved by {@link LexicalIndex.toBinary}: typed-array views over the bytes
   * (no lunr objects), so loading 50k chunks takes milliseconds.
   * @throws MemoryError `index.corrupt` on a wrong magic, version, byte order or shape.
   */
  static fromBinary(bytes: Uint8Array): LexicalIndex {
    return new LexicalIndex(new Segment(decodeSegment(bytes)), undefined);
  }

  /**
   * A new segment holding the documents of `parts` minus each part's `drop` refs, merged without
   * re-tokenising (milliseconds for a delta: a save costs the changed file's tokens plus this copy).
   * @throws MemoryError `internal` when a ref occurs twice among the kept documents.
   */
  static merge(parts: readonly { readonly index: LexicalIndex; readonly drop?: Iterable<string> }[]): LexicalIndex {
    const data = mergeSegments(parts.map((p) => ({ seg: p.index.segment, drop: new Set(p.drop ?? []) })));
    if (new Set(data.refs).size !== data.refs.length)
      throw new MemoryError('internal', 'duplicate chunk ref in merged keyword segments');
    return new LexicalIndex(new Segment(data), undefined);
  }

  /** The compact binary form (what the live index persists, and what a worker thread transfers). */
  toBinary(): Uint8Array {
    return encodeSegment(this.segment.data);
  }

  /** Number of documents (chunks) in the index. */
  get size(): number {
    return this.segment.n;
  }

  /**
   * Build the per-document term lists that masking needs (done once per segment, lazily otherwise):
   * long-lived hosts call it right after a new base is installed, so the first edit does not pay it.
   */
  prepareMasks(): void {
    this.segment.forward();
  }

  /** Chunk refs in the index, in build order. */
  get refs(): readonly string[] {
    return this.segment.data.refs;
  }

  /** @returns true when a chunk with this ref is in the index. */
  has(ref: string): boolean {
    return this.segment.idOf.has(ref);
  }

  idf(term: string): number {
    return this.#scorer.idf(term);
  }

  /** Same as the module-level {@link parseQuery}; here so callers holding an index need no other import. */
  parseQuery(text: string): ParsedQuery {
    return parseQuery(text);
  }

  /**
   * A JSON-serialisable value for {@link LexicalIndex.load}.
   * @throws MemoryError `internal` when built with `lunr: false` or loaded from binary (use {@link toBinary}).
   */
  toJSON(): object {
    if (!this.#index) throw new MemoryError('internal', 'this keyword index has no lunr form; use toBinary()');
    const d = this.segment.data;
    return {
      format: FORMAT_TAG,
      version: LEXICAL_FORMAT_VERSION,
      lunrVersion: lunr.version,
      size: this.size,
      vocab: d.raw,
      // '' = same as the raw token (most tokens), which keeps the file small.
      stems: d.raw.map((r, i) => (d.rawStem[i] === r ? '' : d.rawStem[i]!)),
      index: this.#index.toJSON(),
      segment: toBase64(this.toBinary()),
    };
  }

  /**
   * Search. Never throws (B01): user text is parsed by {@link parseQuery}, never by lunr's query
   * parser. Scores are lunr's BM25 (its field-vector formula over this segment's term frequencies and
   * field lengths, its query-vector formula; see {@link LexicalIndex.searchWithLunr} for the reference
   * run through `index.query`). Prefix terms expand over the unstemmed and the stemmed vocabulary and
   * always include the exact term, so `word*` ⊇ `word` (B04). Filters in the query are NOT applied
   * here (the caller filters on chunk metadata).
   * @param limit most hits to return; all matches when undefined.
   * @returns hits sorted by score descending, then ref ascending; empty for an empty query.
   */
  search(query: ParsedQuery | string, limit?: number): LexicalHit[] {
    return searchWith(this.#scorer, query, limit);
  }

  /**
   * The same search executed by lunr's own `index.query` (slower: it scores every matching document
   * through lunr's Set/MatchData machinery). Kept as the reference that {@link LexicalIndex.search}
   * is tested against, and for paranoid checks. Empty when the index has no lunr form.
   */
  searchWithLunr(query: ParsedQuery | string, limit?: number): LexicalHit[] {
    const index = this.#index;
    const parsed = typeof query === 'string' ? parseQuery(query) : query;
    if (!index || parsed.empty || this.size === 0) return [];
    const scorer = this.#scorer;
    const plan = scorer.plan(parsed);
    if (!plan) return [];
    const view = scorer.views[0]!;
    const results = index.query((q) => {
      for (const [term, boost] of plan.scoring) {
        q.term(term, {
          usePipeline: false,
          boost,
          presence: lunr.Query.presence.OPTIONAL,
          wildcard: lunr.Query.wildcard.NONE,
        });
      }
    });
    const hits = results
      .filter((r) =>
        plan.constraints.every(
          (c) => scorer.satisfies(view, this.segment.idOf.get(r.ref)!, c.parts) === (c.presence === 'required'),
        ),
      )
      .map((r) => ({ ref: r.ref, score: r.score }));
    hits.sort(compareHits);
    const max = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit) || 0));
    return hits.slice(0, max);
  }
}

/**
 * Several segments searched as one index (docs/DESIGN.md §3): typically a large base and a small delta.
 * `masked` refs of a segment are hidden (their file changed or was deleted; the new version lives in
 * a later segment). Statistics are global over the live documents, so the ranking equals that of
 * one {@link LexicalIndex} built over the same live documents. Immutable; build a new one per update.
 */
export class SegmentedLexical implements LexicalSearcher {
  readonly #scorer: Scorer;
  readonly segments: readonly LexicalIndex[];

  /**
   * @throws MemoryError `internal` when a ref is live in two segments (a caller bug).
   */
  constructor(segments: readonly { readonly index: LexicalIndex; readonly masked?: Iterable<string> }[]) {
    const views = segments.map((s) => new View(s.index.segment, s.masked));
    // Each later segment's refs must not be live in an earlier one (cost: the later, small segments).
    for (let j = 1; j < views.length; j++) {
      const later = views[j]!;
      for (let id = 0; id < later.seg.n; id++) {
        if (!later.live(id)) continue;
        const ref = later.seg.data.refs[id]!;
        for (let i = 0; i < j; i++) {
          const e = views[i]!.seg.idOf.get(ref);
          if (e !== undefined && views[i]!.live(e))
            throw new MemoryError('internal', `chunk ${ref} is live in two keyword segments`);
        }
      }
    }
    this.segments = segments.map((s) => s.index);
    this.#scorer = new Scorer(views);
  }

  get size(): number {
    return this.#scorer.size;
  }

  /** Number of masked (hidden) entries across segments. */
  get masked(): number {
    return this.#scorer.views.reduce((n, v) => n + v.maskedCount, 0);
  }

  has(ref: string): boolean {
    return this.#scorer.has(ref);
  }

  idf(term: string): number {
    return this.#scorer.idf(term);
  }

  parseQuery(text: string): ParsedQuery {
    return parseQuery(text);
  }

  /** Same contract as {@link LexicalIndex.search}, over the live documents of every segment. */
  search(query: ParsedQuery | string, limit?: number): LexicalHit[] {
    return searchWith(this.#scorer, query, limit);
  }
}
