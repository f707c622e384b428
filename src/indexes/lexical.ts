// Keyword (BM25) index over chunks: the ONLY importer of lunr. Our tokenizer, no ASCII trimmer (B03),
// English stemming for Latin tokens only, queries built with index.query() so user text never reaches
// lunr's parser (B01), prefix matching over the unstemmed vocabulary (B04). Imports only core + lunr.
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

  private constructor(index: lunr.Index, raw: readonly string[], rawStem: readonly string[], size: number) {
    this.#index = index;
    this.#inverted = (index as unknown as { invertedIndex: Record<string, Posting> }).invertedIndex;
    this.#raw = raw;
    this.#rawStem = rawStem;
    this.#terms = Object.keys(this.#inverted).sort();
    this.#size = size;
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
   * Search. Never throws (B01): user text is parsed by {@link parseQuery} and the lunr query is
   * built clause by clause. Prefix terms expand over the unstemmed and the stemmed vocabulary and
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

  #run(parsed: ParsedQuery, max: number): LexicalHit[] {
    const scoring = new Map<string, number>(); // index term → boost
    const constraints: { presence: 'required' | 'prohibited'; parts: string[][] }[] = [];
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
    if (scoring.size === 0) return [];
    // A required part with no term in the vocabulary can match nothing.
    if (constraints.some((c) => c.presence === 'required' && c.parts.some((alts) => alts.length === 0))) return [];
    const results = this.#index.query((q) => {
      for (const [term, boost] of scoring) {
        q.term(term, { usePipeline: false, boost, presence: lunr.Query.presence.OPTIONAL, wildcard: lunr.Query.wildcard.NONE });
      }
    });
    const hits: LexicalHit[] = [];
    for (const r of results) {
      if (constraints.every((c) => this.#satisfies(r.ref, c.parts) === (c.presence === 'required'))) {
        hits.push({ ref: r.ref, score: r.score });
      }
    }
    hits.sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
    return hits.length > max ? hits.slice(0, max) : hits;
  }

  /** Does `ref` contain, in any field, at least one alternative of every part? */
  #satisfies(ref: string, parts: readonly (readonly string[])[]): boolean {
    if (parts.length === 0) return false;
    return parts.every((alts) =>
      alts.some((t) => {
        const posting = this.#inverted[t];
        return posting !== undefined && FIELD_NAMES.some((f) => posting[f] !== undefined && Object.hasOwn(posting[f], ref));
      }),
    );
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
