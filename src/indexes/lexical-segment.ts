// One immutable keyword segment: its plain data (typed arrays + strings) and the statistics derived
// from it on first use, plus the masked view one search takes of it. The field layout and BM25
// constants every lexical-* file shares live here. Imports only core.
import { MemoryError } from '../core/errors.js';

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

/** Field name → boost. Title and tags weigh double; headings are context, not content. */
export const FIELDS = { text: 1, title: 2, tags: 2, headings: 0.5 } as const;
export const FIELD_NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];
export const NF = FIELD_NAMES.length;
export const BOOSTS = FIELD_NAMES.map((f) => FIELDS[f]);
export const K1 = 1.2;
export const B = 0.75;

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export function corrupt(message: string, cause?: unknown): MemoryError {
  return new MemoryError('index.corrupt', `keyword index: ${message}`, {
    hint: 'the index is rebuilt from the markdown files (gitmem index --rebuild)',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** What search needs from one segment: plain data (typed arrays + strings), transferable between threads. */
export interface SegmentData {
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
export class Segment {
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
export class View {
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
