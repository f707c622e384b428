// Keyword (BM25) index over chunks: the ONLY importer of lunr. Our tokenizer, no ASCII trimmer (B03),
// English stemming for Latin tokens only, user text never reaches lunr's query parser (B01), prefix
// matching over the unstemmed vocabulary (B04). Imports only core, ./tokenize, ./query and lunr.
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
export const LEXICAL_FORMAT_VERSION = 1;

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

/** Porter-stem a Latin-script token; every other script is indexed as is. */
function stemOf(token: string): string {
  return isLatinToken(token) ? lunr.stemmer(new lunr.Token(token, {})).toString() : token;
}

const stemLatin: lunr.PipelineFunction = (token) =>
  isLatinToken(token.toString()) ? lunr.stemmer(token) : token;

// Registered at module load, i.e. always before any lunr.Index.load in this process.
lunr.Pipeline.registerFunction(stemLatin, STEM_LABEL);

type Posting = Record<string, Record<string, unknown>> & { _index: number };
const EMPTY_POSTING = { ids: new Int32Array(0), weights: new Float64Array(0) };
type Constraint = { presence: 'required' | 'prohibited'; parts: string[][] };

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

/**
 * An immutable BM25 keyword index over chunks (one lunr segment). Build with {@link LexicalIndex.build},
 * persist with {@link LexicalIndex.toJSON} / {@link LexicalIndex.load}, query with {@link LexicalIndex.search}.
 */
export class LexicalIndex {
  readonly #index: lunr.Index;
  readonly #inverted: Record<string, Posting>;
  /** Unstemmed vocabulary, sorted, and the stemmed index term of each entry. */
  readonly #raw: readonly string[];
  readonly #rawStem: readonly string[];
  /** Stemmed index terms, sorted (prefix over stems catches `happi*` → happy). */
  readonly #terms: readonly string[];
  readonly #size: number;
  /** Dense document ids: ref ↔ id. */
  readonly #refs: string[] = [];
  readonly #ids = new Map<string, number>();
  /**
   * Term index (lunr's `posting._index`) → doc ids ascending, with the doc's BM25 weight for the
   * term summed over fields: `[#postStart[t], #postEnd[t])` in `#postIds` / `#postWeights`.
   */
  readonly #postStart: Int32Array;
  readonly #postEnd: Int32Array;
  readonly #postIds: Int32Array;
  readonly #postWeights: Float64Array;
  /** Scratch buffers for scoring, reused across searches (search is synchronous). */
  readonly #scores: Float64Array;
  readonly #seen: Uint8Array;

  private constructor(index: lunr.Index, raw: readonly string[], rawStem: readonly string[], size: number) {
    this.#index = index;
    this.#inverted = (index as unknown as { invertedIndex: Record<string, Posting> }).invertedIndex;
    this.#raw = raw;
    this.#rawStem = rawStem;
    this.#terms = Object.keys(this.#inverted).sort();
    this.#size = size;
    const vectors: (readonly number[] | undefined)[][] = FIELD_NAMES.map(() => []);
    const fieldVectors = (index as unknown as { fieldVectors: Record<string, { elements: number[] }> }).fieldVectors;
    for (const key of Object.keys(fieldVectors)) {
      const slash = key.indexOf('/'); // lunr FieldRef: `<field>/<ref>`; refs may contain '/'
      const f = FIELD_NAMES.indexOf(key.slice(0, slash) as (typeof FIELD_NAMES)[number]);
      const ref = key.slice(slash + 1);
      let id = this.#ids.get(ref);
      if (id === undefined) {
        id = this.#refs.length;
        this.#refs.push(ref);
        this.#ids.set(ref, id);
      }
      if (f >= 0) vectors[f]![id] = fieldVectors[key]!.elements;
    }
    // Invert lunr's per-document vectors into dense postings in two passes (count, then fill), so a
    // query touches flat typed arrays instead of lunr's per-query Sets and MatchData objects.
    let termCount = 0;
    for (const t of this.#terms) termCount = Math.max(termCount, this.#inverted[t]!._index + 1);
    const counts = new Int32Array(termCount + 1);
    const each = (fn: (id: number, ti: number, w: number) => void) => {
      for (let id = 0; id < this.#refs.length; id++) {
        for (const perField of vectors) {
          const el = perField[id];
          if (!el) continue;
          for (let k = 0; k + 1 < el.length; k += 2) {
            const ti = el[k]!;
            if (ti >= 0 && ti < termCount && Number.isInteger(ti)) fn(id, ti, el[k + 1]!);
          }
        }
      }
    };
    each((_id, ti) => counts[ti + 1]!++);
    for (let t = 0; t < termCount; t++) counts[t + 1]! += counts[t]!;
    this.#postStart = counts.subarray(0, termCount);
    this.#postEnd = counts.slice(0, termCount);
    this.#postIds = new Int32Array(counts[termCount]!);
    this.#postWeights = new Float64Array(counts[termCount]!);
    const start = this.#postStart;
    const end = this.#postEnd;
    const ids = this.#postIds;
    const weights = this.#postWeights;
    each((id, ti, w) => {
      const pos = end[ti]!;
      if (pos > start[ti]! && ids[pos - 1] === id) weights[pos - 1]! += w; // same doc, another field
      else {
        ids[pos] = id;
        weights[pos] = w;
        end[ti] = pos + 1;
      }
    });
    this.#scores = new Float64Array(this.#refs.length);
    this.#seen = new Uint8Array(this.#refs.length);
  }

  /**
   * Build an index over `docs`.
   * @throws MemoryError `internal` when two docs share a ref (a caller bug, not user content).
   */
  static build(docs: readonly LexicalDoc[]): LexicalIndex {
    const vocab = new Set<string>();
    const builder = new lunr.Builder();
    builder.pipeline.add(stemLatin);
    builder.searchPipeline.add(stemLatin);
    builder.ref('ref');
    for (const name of FIELD_NAMES) builder.field(name, { boost: FIELDS[name] });
    builder.k1(1.2);
    builder.b(0.75);
    const tokenizer = (obj?: unknown): lunr.Token[] => {
      if (obj === null || obj === undefined) return [];
      const out: lunr.Token[] = [];
      for (const t of tokenize(String(obj))) {
        vocab.add(t);
        out.push(new lunr.Token(t, {}));
      }
      return out;
    };
    builder.tokenizer = tokenizer as unknown as typeof builder.tokenizer;
    const seen = new Set<string>();
    for (const d of docs) {
      if (seen.has(d.ref)) throw new MemoryError('internal', `duplicate chunk ref in keyword index: ${d.ref}`);
      seen.add(d.ref);
      builder.add({
        ref: d.ref,
        text: d.text ?? '',
        title: d.title ?? '',
        tags: (d.tags ?? []).join('\n'),
        headings: (d.headings ?? []).join('\n'),
      });
    }
    const raw = [...vocab].sort();
    return new LexicalIndex(builder.build(), raw, raw.map(stemOf), docs.length);
  }

  /**
   * Restore an index saved by {@link LexicalIndex.toJSON} (the parsed JSON value).
   * @throws MemoryError `index.corrupt` when the shape, format version or lunr version is wrong.
   */
  static load(json: unknown): LexicalIndex {
    if (typeof json !== 'object' || json === null) throw corrupt('not an object');
    const j = json as Record<string, unknown>;
    if (j.format !== FORMAT_TAG) throw corrupt('unknown format');
    if (j.version !== LEXICAL_FORMAT_VERSION) throw corrupt(`format version ${String(j.version)} is not ${LEXICAL_FORMAT_VERSION}`);
    if (j.lunrVersion !== lunr.version) throw corrupt(`built by lunr ${String(j.lunrVersion)}, this is ${lunr.version}`);
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
      for (const f of FIELD_NAMES) if (typeof posting[f] !== 'object' || posting[f] === null) throw corrupt('bad posting');
    }
    if (!isStringArray(idx.pipeline)) throw corrupt('bad pipeline');
    let index: lunr.Index;
    try {
      index = lunr.Index.load(idx);
    } catch (e) {
      throw corrupt('lunr could not load it', e);
    }
    const raw = j.vocab;
    const rawStem = raw.map((r, i) => (j.stems as string[])[i] || r);
    return new LexicalIndex(index, raw, rawStem, size);
  }

  /** Number of documents (chunks) in the index. */
  get size(): number {
    return this.#size;
  }

  /** @returns true when a chunk with this ref is in the index. */
  has(ref: string): boolean {
    return this.#ids.has(ref);
  }

  /** Same as the module-level {@link parseQuery}; here so callers holding an index need no other import. */
  parseQuery(text: string): ParsedQuery {
    return parseQuery(text);
  }

  /** A JSON-serialisable value for {@link LexicalIndex.load}. */
  toJSON(): object {
    return {
      format: FORMAT_TAG,
      version: LEXICAL_FORMAT_VERSION,
      lunrVersion: lunr.version,
      size: this.#size,
      vocab: this.#raw,
      // '' = same as the raw token (most tokens), which keeps the file small.
      stems: this.#raw.map((r, i) => (this.#rawStem[i] === r ? '' : this.#rawStem[i]!)),
      index: this.#index.toJSON(),
    };
  }

  /**
   * Search. Never throws (B01): user text is parsed by {@link parseQuery}, never by lunr's query
   * parser. Scores are lunr's BM25 (its stored field vectors, its query-vector formula; see
   * {@link LexicalIndex.searchWithLunr} for the reference run through `index.query`). Prefix terms expand over the unstemmed and the stemmed vocabulary and
   * always include the exact term, so `word*` ⊇ `word` (B04). Filters in the query are NOT applied
   * here (the caller filters on chunk metadata).
   * @param limit most hits to return; all matches when undefined.
   * @returns hits sorted by score descending, then ref ascending; empty for an empty query.
   */
  search(query: ParsedQuery | string, limit?: number): LexicalHit[] {
    try {
      const parsed = typeof query === 'string' ? parseQuery(query) : query;
      if (parsed.empty || this.#size === 0) return [];
      const max = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit) || 0));
      if (max === 0) return [];
      return this.#run(parsed, max);
    } catch {
      // Defensive only: a loaded index is checksum-verified and shape-checked, so this is not
      // expected; an empty answer is still better than a crashed server.
      return [];
    }
  }

  /**
   * The same search executed by lunr's own `index.query` (slower: it scores every matching document
   * through lunr's Set/MatchData machinery). Kept as the reference that {@link LexicalIndex.search}
   * is tested against, and for paranoid checks. Never throws.
   */
  searchWithLunr(query: ParsedQuery | string, limit?: number): LexicalHit[] {
    try {
      const parsed = typeof query === 'string' ? parseQuery(query) : query;
      if (parsed.empty || this.#size === 0) return [];
      const plan = this.#plan(parsed);
      if (!plan) return [];
      const results = this.#index.query((q) => {
        for (const [term, boost] of plan.scoring) {
          q.term(term, { usePipeline: false, boost, presence: lunr.Query.presence.OPTIONAL, wildcard: lunr.Query.wildcard.NONE });
        }
      });
      const hits = results
        .filter((r) => plan.constraints.every((c) => this.#satisfies(this.#ids.get(r.ref)!, c.parts) === (c.presence === 'required')))
        .map((r) => ({ ref: r.ref, score: r.score }));
      hits.sort(compareHits);
      const max = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit) || 0));
      return hits.slice(0, max);
    } catch {
      return [];
    }
  }

  /** Query terms → index terms with boosts, plus required/prohibited constraints; undefined = no match possible. */
  #plan(parsed: ParsedQuery): { scoring: Map<string, number>; constraints: Constraint[] } | undefined {
    const scoring = new Map<string, number>(); // index term → boost
    const constraints: Constraint[] = [];
    for (const term of parsed.terms) {
      if (term.presence !== 'prohibited') {
        for (const tok of term.tokens) {
          for (const [t, boost] of this.#expand(tok, term.prefix)) {
            if ((scoring.get(t) ?? 0) < boost) scoring.set(t, boost);
          }
        }
      }
      if (term.presence !== 'optional') {
        constraints.push({
          presence: term.presence,
          parts: term.parts.map((alts) => [...new Set(alts.flatMap((a) => [...this.#expand(a, term.prefix).keys()]))]),
        });
      }
    }
    if (scoring.size === 0) return undefined;
    // A required part with no term in the vocabulary can match nothing.
    if (constraints.some((c) => c.presence === 'required' && c.parts.some((alts) => alts.length === 0))) return undefined;
    return { scoring, constraints };
  }

  /**
   * Score exactly as lunr's `index.query` does for all-optional clauses over all fields: the query
   * vector q (one entry per index term, value = boost) against lunr's stored per-field BM25 vectors,
   * score = Σ_fields q·d_field / |q|. Instead of lunr's per-query Sets and MatchData, postings are
   * dense arrays built once when the index is constructed, and only the top `max` hits are sorted.
   */
  #run(parsed: ParsedQuery, max: number): LexicalHit[] {
    const plan = this.#plan(parsed);
    if (!plan) return [];
    let norm = 0;
    for (const boost of plan.scoring.values()) norm += boost * boost;
    norm = Math.sqrt(norm);
    const scores = this.#scores;
    const seen = this.#seen;
    const touched: number[] = [];
    for (const [term, boost] of plan.scoring) {
      const p = this.#posting(term);
      for (let i = 0; i < p.ids.length; i++) {
        const id = p.ids[i]!;
        if (seen[id] === 0) {
          seen[id] = 1;
          touched.push(id);
        }
        scores[id]! += boost * p.weights[i]!;
      }
    }
    try {
      const refs = this.#refs;
      // Resolve each constraint's terms to posting arrays once, not once per candidate.
      const resolved = plan.constraints.map((c) => ({
        required: c.presence === 'required',
        parts: c.parts.map((alts) => alts.map((t) => this.#posting(t).ids)),
      }));
      const ok = (id: number) =>
        resolved.every((c) => (c.parts.length > 0 && c.parts.every((alts) => alts.some((ids) => hasId(ids, id)))) === c.required);
      const candidates = resolved.length === 0 ? touched : touched.filter(ok);
      // Rank ids first; materialise objects only for the hits returned.
      const best = topK(candidates, max, (a, b) => scores[b]! - scores[a]! || (refs[a]! < refs[b]! ? -1 : refs[a]! > refs[b]! ? 1 : 0));
      return best.map((id) => ({ ref: refs[id]!, score: scores[id]! / norm || 0 }));
    } finally {
      for (const id of touched) {
        scores[id] = 0;
        seen[id] = 0;
      }
    }
  }

  /** Doc ids (ascending) and field-summed BM25 weights of one index term; empty when unknown. */
  #posting(term: string): { ids: Int32Array; weights: Float64Array } {
    const ti = this.#inverted[term]?._index;
    if (ti === undefined || ti < 0 || ti >= this.#postStart.length) return EMPTY_POSTING;
    const a = this.#postStart[ti]!;
    const b = this.#postEnd[ti]!;
    return { ids: this.#postIds.subarray(a, b), weights: this.#postWeights.subarray(a, b) };
  }

  /** Does doc `id` contain, in any field, at least one alternative of every part? */
  #satisfies(id: number, parts: readonly (readonly string[])[]): boolean {
    if (parts.length === 0) return false;
    return parts.every((alts) => alts.some((t) => hasId(this.#posting(t).ids, id)));
  }

  /** Index terms a query token stands for, with their boost; only terms present in the index. */
  #expand(token: string, prefix: boolean): Map<string, number> {
    const out = new Map<string, number>();
    const exact = stemOf(token);
    if (this.#inverted[exact] !== undefined) out.set(exact, 1);
    if (!prefix && !isSingleCjk(token)) return out;
    const found: { term: string; len: number }[] = [];
    const collect = (sorted: readonly string[], map: (i: number) => string, key: string): void => {
      for (let i = lowerBound(sorted, key); i < sorted.length && sorted[i]!.startsWith(key); i++) {
        found.push({ term: map(i), len: sorted[i]!.length });
        if (found.length > 4 * MAX_PREFIX_EXPANSIONS) break;
      }
    };
    collect(this.#raw, (i) => this.#rawStem[i]!, token); // unstemmed: genera* → general → gener
    collect(this.#terms, (i) => this.#terms[i]!, exact); // stemmed: happi* → happi
    found.sort((a, b) => a.len - b.len || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    for (const { term } of found) {
      if (out.size >= MAX_PREFIX_EXPANSIONS) break;
      if (!out.has(term) && this.#inverted[term] !== undefined) out.set(term, PREFIX_BOOST);
    }
    return out;
  }
}
