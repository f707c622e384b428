// Keyword (BM25) index over chunks: the public face of the lexical-* files. Our tokenizer, no ASCII
// trimmer (B03), English stemming for Latin tokens only, user text never reaches lunr's query parser
// (B01), prefix matching over the unstemmed vocabulary (B04). Segments (docs/DESIGN.md §3): lunr cannot
// update an index in place, so the live index is a large base segment plus a small delta, merged at
// query time with BM25 computed from GLOBAL statistics (document count, per-term document frequency,
// average field lengths over every live document of every segment, masked base entries excluded).
// That is exactly the arithmetic lunr uses when it builds one index over the same documents, so a
// segmented index ranks identically to a full rebuild. The jobs live apart: ./lexical-segment (data
// and statistics), ./lexical-accumulate (the build, document by document), ./lexical-build (lunr's Builder,
// the reference the accumulator is tested against), ./lexical-scorer (BM25), ./lexical-merge,
// ./lexical-codec (binary form), ./lexical-stem. Imports only core, ./query and those files.
import { MemoryError } from '../../core/errors.js';
import { parseQuery, type ParsedQuery } from '../query/query.js';
import { SegmentAccumulator } from './lexical-accumulate.js';
import type { RangedFile } from '../../core/ports.js';
import { decodeSegment, decodeSegmentFrom, encodeSegment } from './lexical-codec.js';
import { mergeSegments } from './lexical-merge.js';
import { searchWith, Scorer } from './lexical-scorer.js';
import {
  Segment,
  View,
  type Bm25Params,
  type LexicalDoc,
  type LexicalHit,
  type SegmentData,
} from './lexical-segment.js';

export { parseQuery, queryTokens, MAX_QUERY_TERMS } from '../query/query.js';
export type { ParsedQuery, QueryTerm, QueryFilters, Presence } from '../query/query.js';
export type { Bm25Params, LexicalDoc, LexicalHit } from './lexical-segment.js';
export { LEXICAL_BINARY_VERSION } from './lexical-codec.js';
export { SegmentAccumulator } from './lexical-accumulate.js';
export type { SegmentData } from './lexical-segment.js';
export { LUNR_VERSION, stemOf } from './lexical-stem.js';

/** What recall needs from a keyword index: one segment ({@link LexicalIndex}) or several ({@link SegmentedLexical}). */
export interface LexicalSearcher {
  /** Number of live documents (chunks). */
  readonly size: number;
  has(ref: string): boolean;
  parseQuery(text: string): ParsedQuery;
  /** `bm25`: BM25 k1 and b for this search (default lunr's 1.2 and 0.75). */
  search(query: ParsedQuery | string, limit?: number, bm25?: Bm25Params): LexicalHit[];
  /** BM25 idf of an index term (a {@link stemOf} token) over the live documents; optional. */
  idf?(term: string): number;
}

/**
 * An immutable BM25 keyword index over chunks (one segment, built by lunr's Builder). Build with
 * {@link LexicalIndex.build}; persist with {@link LexicalIndex.toBinary} / {@link LexicalIndex.fromBinary}
 * (compact, loads without lunr); query with {@link LexicalIndex.search}. Several segments are searched
 * together with {@link SegmentedLexical}. (lunr's own JSON form and `index.query`, the reference the
 * scorer is tested against, live in test support.)
 */
export class LexicalIndex implements LexicalSearcher {
  /** @internal */
  readonly segment: Segment;
  readonly #scorer: Scorer;

  private constructor(segment: Segment) {
    this.segment = segment;
    this.#scorer = new Scorer([new View(segment, undefined)]);
    this.search = searchWith.bind(undefined, this.#scorer);
  }

  /**
   * Build an index over `docs`.
   * @param _options accepted for older callers (`lunr: false`); lunr's vector-space index is never
   *   built here (the reference built with it lives in test support).
   * @throws MemoryError `internal` when two docs share a ref (a caller bug, not user content).
   */
  static build(docs: readonly LexicalDoc[], _options: { lunr?: boolean } = {}): LexicalIndex {
    const acc = new SegmentAccumulator();
    for (const d of docs) acc.add(d);
    return new LexicalIndex(new Segment(acc.finish()));
  }

  /** An index over segment data built elsewhere (a {@link SegmentAccumulator} fed document by document). */
  static fromData(data: SegmentData): LexicalIndex {
    return new LexicalIndex(new Segment(data));
  }

  /**
   * Restore a segment saved by {@link LexicalIndex.toBinary}: typed-array views over the bytes
   * (no lunr objects), so loading 50k chunks takes milliseconds.
   * @throws MemoryError `index.corrupt` on a wrong magic, version, byte order or shape.
   */
  static fromBinary(bytes: Uint8Array): LexicalIndex {
    return new LexicalIndex(new Segment(decodeSegment(bytes)));
  }

  /**
   * Open a segment saved by {@link LexicalIndex.toBinary} from its file (verified by the caller):
   * everything but the postings is read now; a term's postings are read when a query first reaches
   * it, so a one-shot query reads a few hundred KiB of a 40 MB segment. The file is closed once every
   * posting has been read (a merge, an encode) or by {@link close}.
   * @throws MemoryError `index.corrupt` as {@link fromBinary}.
   */
  static fromFile(file: RangedFile): LexicalIndex {
    return new LexicalIndex(new Segment(decodeSegmentFrom(file)));
  }

  /** Release the file a segment opened by {@link fromFile} still reads its postings from (idempotent). */
  close(): void {
    this.segment.data.fetch?.close();
  }

  /**
   * A new segment holding the documents of `parts` minus each part's `drop` refs, merged without
   * re-tokenising (milliseconds for a delta: a save costs the changed file's tokens plus this copy).
   * The kept documents come in part order, or in `order` (their refs, each once) when given.
   * @throws MemoryError `internal` when a ref occurs twice among the kept documents.
   */
  static merge(
    parts: readonly { readonly index: LexicalIndex; readonly drop?: Iterable<string> }[],
    order?: readonly string[],
  ): LexicalIndex {
    const data = mergeSegments(
      parts.map((p) => ({ seg: p.index.segment, drop: new Set(p.drop ?? []) })),
      order,
    );
    if (new Set(data.refs.toArray()).size !== data.refs.length)
      throw new MemoryError('internal', 'duplicate chunk ref in merged keyword segments');
    return new LexicalIndex(new Segment(data));
  }

  /** The compact binary form (what the live index persists, and what a worker thread transfers). */
  toBinary(): Uint8Array {
    this.segment.presentAll();
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
    return this.segment.data.refs.toArray();
  }

  /** Ref of document `i` (0 ≤ i < size), decoding only that one. */
  refAt(i: number): string {
    return this.segment.data.refs.at(i);
  }

  /** @returns true when a chunk with this ref is in the index. */
  has(ref: string): boolean {
    return this.segment.id(ref) !== undefined;
  }

  idf(term: string): number {
    return this.#scorer.idf(term);
  }

  /** Same as the module-level {@link parseQuery}; here so callers holding an index need no other import. */
  parseQuery(text: string): ParsedQuery {
    return parseQuery(text);
  }

  /**
   * Search. Never throws (B01): user text is parsed by {@link parseQuery}, never by lunr's query
   * parser. Scores are lunr's BM25 (its field-vector formula over this segment's term frequencies and
   * field lengths, its query-vector formula; test support runs the same query through lunr's
   * `index.query` as the reference). Prefix terms expand over the unstemmed and the stemmed vocabulary and
   * always include the exact term, so `word*` ⊇ `word` (B04). Filters in the query are NOT applied
   * here (the caller filters on chunk metadata).
   * @param limit most hits to return; all matches when undefined.
   * @returns hits sorted by score descending, then ref ascending; empty for an empty query.
   * (The scorer's own search, ./lexical-scorer searchWith, bound to this segment: no forwarding call.)
   */
  readonly search: LexicalSearcher['search'];
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
   * @param options.disjoint the caller vouches that no ref of a later segment is live in an earlier
   *   one, so that check (a ref lookup in the earlier segments per document of the later ones, which
   *   reads a loaded base's refs whole) is skipped.
   * @throws MemoryError `internal` when a ref is live in two segments (a caller bug).
   */
  constructor(
    segments: readonly {
      readonly index: LexicalIndex;
      /** Refs to mask in this segment. */
      readonly masked?: Iterable<string>;
      /** Document ids to mask (see {@link View}: no ref is looked up). */
      readonly maskedIds?: Iterable<number>;
    }[],
    options: { readonly disjoint?: boolean } = {},
  ) {
    const views = segments.map((s) => new View(s.index.segment, s.masked, s.maskedIds));
    // Each later segment's refs must not be live in an earlier one (cost: the later, small segments).
    for (let j = 1; j < views.length && !options.disjoint; j++) {
      const later = views[j]!;
      for (let id = 0; id < later.seg.n; id++) {
        if (!later.live(id)) continue;
        const ref = later.seg.data.refs.at(id);
        for (let i = 0; i < j; i++) {
          const e = views[i]!.seg.id(ref);
          if (e !== undefined && views[i]!.live(e))
            throw new MemoryError('internal', `chunk ${ref} is live in two keyword segments`);
        }
      }
    }
    this.segments = segments.map((s) => s.index);
    this.#scorer = new Scorer(views);
    this.search = searchWith.bind(undefined, this.#scorer);
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

  /**
   * Same contract as {@link LexicalIndex.search}, over the live documents of every segment (the
   * scorer's search bound to them).
   */
  readonly search: LexicalSearcher['search'];
}
