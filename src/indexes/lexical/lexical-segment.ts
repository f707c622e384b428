// One immutable keyword segment: its plain data (typed arrays + strings) and the statistics derived
// from it on first use, plus the masked view one search takes of it. The field layout and BM25
// constants every lexical-* file shares live here. Imports only core.
import { MemoryError } from '../../core/errors.js';
import { sortedIndexOf, type StringList } from './lexical-strings.js';

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
/** BM25 term-frequency saturation (lunr's default; the index is built with it). */
export const K1 = 1.2;
/** BM25 length normalisation, 0 (none) … 1 (full); lunr's default. Recall may pass its own ({@link Bm25Params}). */
export const B = 0.75;

/** BM25 parameters of one search (each defaults to {@link K1} / {@link B}). */
export interface Bm25Params {
  readonly k1?: number;
  readonly b?: number;
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export function corrupt(message: string, cause?: unknown): MemoryError {
  return new MemoryError('index.corrupt', `keyword index: ${message}`, {
    hint: 'the index is rebuilt from the markdown files (gitmem index --rebuild)',
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * What search needs from one segment: typed arrays and string lists. A segment just built or merged
 * holds plain arrays; a loaded one holds views over its bytes (lexical-codec), whose strings decode
 * on first use and whose derived statistics were precomputed when it was written.
 */
export interface SegmentData {
  /** Dense document id → chunk ref. */
  readonly refs: StringList;
  /** Index terms (stemmed), sorted; a term's id is its position. */
  readonly terms: StringList;
  /** Unstemmed vocabulary, sorted, and the stem (always an index term) of each entry. */
  readonly raw: StringList;
  readonly rawStem: StringList;
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
  /** Precomputed statistics (a loaded segment has them; otherwise derived on first use). */
  readonly stats?: SegmentStats;
  /** True when the postings come from bytes on disk: each term's postings are range-checked on first use. */
  readonly untrusted?: boolean;
  /**
   * Set when postIds/postTf and rawIds are still on disk (a segment opened from its file,
   * lexical-codec decodeSegmentFrom): `postings(a, b)` reads postings [a, b) into them, `raw(a, b)`
   * rawIds [a, b), `all()` every posting and every raw id. Every reader of postings goes through
   * {@link Segment.present} or {@link Segment.presentAll}, every reader of rawIds through
   * {@link Segment.presentRaw} or presentAll. `close()` releases the file (after `all()` it is closed already).
   */
  readonly fetch?: {
    postings(a: number, b: number): void;
    raw(a: number, b: number): void;
    all(): void;
    close(): void;
  };
}

/** Statistics a segment derives from its data, stored with it so a loaded segment need not recompute them. */
export interface SegmentStats {
  /** Per term: number of (field, document) pairs holding it (lunr's document frequency). */
  readonly termDf: Int32Array;
  /** Per raw token: number of documents holding it. */
  readonly rawDf: Int32Array;
  /** Per field: sum of the field lengths. */
  readonly totalLen: Float64Array;
  /** Document ids sorted by ref (binary search from a ref to its id without a map of every ref). */
  readonly refOrder: Int32Array;
}

/** Compute the {@link SegmentStats} of `data` (one pass over postings, vocabulary ids and refs). */
export function segmentStats(data: SegmentData): SegmentStats {
  const seg = new Segment({ ...data, stats: undefined });
  const termDf = new Int32Array(data.terms.length);
  for (let t = 0; t < termDf.length; t++) termDf[t] = seg.termDf(t);
  const refs = data.refs.toArray();
  const refOrder = Int32Array.from(refs.keys()).sort((a, b) =>
    refs[a]! < refs[b]! ? -1 : refs[a]! > refs[b]! ? 1 : 0,
  );
  return { termDf, rawDf: seg.rawDf, totalLen: seg.totalLen, refOrder };
}

/**
 * One immutable segment with the per-segment statistics derived from its data. Everything derived is
 * computed on first use or read from the stored statistics (a one-shot query touches a handful of
 * terms: it must not pay for a map of every term and ref, or a pass over every posting, of a
 * 50k-chunk segment).
 */
export class Segment {
  readonly data: SegmentData;
  readonly n: number;
  #idOf: Map<string, number> | undefined;
  /** Per term: number of (field, document) pairs holding it — lunr's document frequency (-1 = not computed yet). */
  readonly #termDf: Int32Array;
  #rawDf: Int32Array | undefined;
  /** Per term of an untrusted segment: 1 = postings checked. */
  readonly #checked: Uint8Array | undefined;
  /** Per field: sum of the field lengths. */
  readonly totalLen: Float64Array;
  #scores: Float64Array | undefined;
  #seen: Uint8Array | undefined;
  /** Per term of a segment whose postings are still on disk: 1 = read (undefined once all are). */
  #present: Uint8Array | undefined;
  /** Per document of a segment whose rawIds are still on disk: 1 = read (undefined once all are). */
  #rawPresent: Uint8Array | undefined;

  constructor(data: SegmentData) {
    this.data = data;
    this.n = data.refs.length;
    this.#checked = data.untrusted ? new Uint8Array(data.terms.length) : undefined;
    this.#present = data.fetch ? new Uint8Array(data.terms.length) : undefined;
    this.#rawPresent = data.fetch ? new Uint8Array(this.n) : undefined;
    if (data.stats) {
      this.#termDf = data.stats.termDf;
      this.#rawDf = data.stats.rawDf;
      this.totalLen = data.stats.totalLen;
      return;
    }
    this.#termDf = new Int32Array(data.terms.length).fill(-1);
    this.totalLen = new Float64Array(NF);
    for (let d = 0; d < this.n; d++) for (let f = 0; f < NF; f++) this.totalLen[f]! += data.docLen[d * NF + f]!;
  }

  /** Dense document id of a ref, or undefined. */
  id(ref: string): number | undefined {
    const order = this.data.stats?.refOrder;
    if (order) {
      const refs = this.data.refs;
      let lo = 0;
      let hi = order.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const r = refs.at(order[mid]!);
        if (r === ref) return order[mid];
        if (r < ref) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    }
    if (!this.#idOf) {
      const m = new Map<string, number>();
      const refs = this.data.refs;
      for (let i = 0; i < refs.length; i++) m.set(refs.at(i), i);
      this.#idOf = m;
    }
    return this.#idOf.get(ref);
  }

  /** Make the postings of term `t` readable (read from disk the first time, when still there). */
  present(t: number): void {
    const p = this.#present;
    if (p === undefined || p[t] === 1) return;
    this.data.fetch!.postings(this.data.postStart[t]!, this.data.postStart[t + 1]!);
    p[t] = 1;
  }

  /**
   * Make the raw-vocabulary ids of documents `ids` readable (read from disk the first time, when
   * still there; runs of consecutive documents in one read each).
   */
  presentRaw(ids: readonly number[]): void {
    const seen = this.#rawPresent;
    if (seen === undefined) return;
    const todo = ids.filter((id) => seen[id] === 0).sort((a, b) => a - b);
    const start = this.data.rawStart;
    for (let i = 0; i < todo.length;) {
      let j = i;
      while (j + 1 < todo.length && todo[j + 1]! <= todo[j]! + 1) j++;
      this.data.fetch!.raw(start[todo[i]!]!, start[todo[j]! + 1]!);
      for (let k = i; k <= j; k++) seen[todo[k]!] = 1;
      i = j + 1;
    }
  }

  /** Make every posting and raw id readable (a merge, an encode, the forward lists walk them all). */
  presentAll(): void {
    if (this.#present === undefined) return;
    this.data.fetch!.all();
    this.#present = undefined;
    this.#rawPresent = undefined;
  }

  /**
   * Id of an index term (binary search: terms are sorted), or undefined. The postings of a term read
   * from disk are bound-checked the first time it is looked up.
   * @throws MemoryError `index.corrupt` when those postings are damaged.
   */
  termIndex(term: string): number | undefined {
    const t = sortedIndexOf(this.data.terms, term);
    if (t !== undefined) this.present(t);
    if (t !== undefined && this.#checked && this.#checked[t] === 0) {
      // The artifact is checksummed at load; this O(1) bound check (ends of an ascending list) guards
      // against our own writer bugs without a pass over a common term's 100k postings per query.
      const a = this.data.postStart[t]!;
      const b = this.data.postStart[t + 1]!;
      const ids = this.data.postIds;
      if (b > a && !(ids[a]! >= 0 && ids[b - 1]! < this.n && ids[a]! <= ids[b - 1]!))
        throw corrupt('segment posting out of range');
      this.#checked[t] = 1;
    }
    return t;
  }

  termDf(t: number): number {
    let df = this.#termDf[t]!;
    if (df < 0) {
      this.present(t);
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
      this.presentAll();
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
    this.present(t);
    return this.data.postIds.subarray(this.data.postStart[t]!, this.data.postStart[t + 1]!);
  }

  #forward: { start: Int32Array; term: Int32Array; fields: Uint8Array } | undefined;

  /** Per document: its term ids and in how many fields each occurs (built once, on the first mask). */
  forward(): { start: Int32Array; term: Int32Array; fields: Uint8Array } {
    if (this.#forward) return this.#forward;
    this.presentAll();
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
  readonly maskLen = new Float64Array(NF);
  /** The masked document ids, in the order they were masked. */
  readonly #maskedIds: readonly number[];
  #maskRawDf: Int32Array | undefined;
  /** Term id → (field, document) pairs of masked documents holding it, counted on first use. */
  readonly #maskDf = new Map<number, number>();

  /**
   * @param masked refs of the documents to mask (refs the segment does not hold are ignored)
   * @param maskedIds document ids to mask as well (a loaded base gives them from its chunk artifact,
   *   whose record i is document i: no ref is looked up). @throws MemoryError `internal` on an id out of range.
   */
  constructor(seg: Segment, masked: Iterable<string> | undefined, maskedIds?: Iterable<number>) {
    this.seg = seg;
    let mask: Uint8Array | undefined;
    const ids: number[] = [];
    const add = (id: number) => {
      mask ??= new Uint8Array(seg.n);
      if (mask[id] === 0) {
        mask[id] = 1;
        ids.push(id);
      }
    };
    for (const ref of masked ?? []) {
      const id = seg.id(ref);
      if (id !== undefined) add(id);
    }
    for (const id of maskedIds ?? []) {
      if (!(Number.isInteger(id) && id >= 0 && id < seg.n))
        throw new MemoryError('internal', `masked id ${id} out of range`);
      add(id);
    }
    this.mask = mask;
    this.maskedCount = ids.length;
    this.#maskedIds = ids;
    const d = seg.data;
    for (const id of ids) for (let f = 0; f < NF; f++) this.maskLen[f]! += d.docLen[id * NF + f]!;
  }

  /**
   * Per raw token: masked documents holding it (undefined when nothing is masked). Counted on first
   * use, over the masked documents only: only a prefix query reads it, so a one-shot query after a
   * checkout does not read the vocabulary ids of every masked document.
   * @throws MemoryError `index.corrupt` on a vocabulary id out of range.
   */
  get maskRawDf(): Int32Array | undefined {
    if (!this.mask || this.#maskRawDf) return this.#maskRawDf;
    const d = this.seg.data;
    const ids = this.#maskedIds;
    this.seg.presentRaw(ids);
    const rawDf = new Int32Array(d.raw.length);
    for (const id of ids) {
      for (let k = d.rawStart[id]!; k < d.rawStart[id + 1]!; k++) {
        const r = d.rawIds[k]!;
        if (r < 0 || r >= rawDf.length) throw corrupt('segment vocabulary id out of range');
        rawDf[r]!++;
      }
    }
    return (this.#maskRawDf = rawDf);
  }

  /** (field, document) pairs of masked documents holding term `t` (0 when nothing is masked). */
  maskDf(t: number): number {
    const mask = this.mask;
    if (!mask) return 0;
    let df = this.#maskDf.get(t);
    if (df === undefined) {
      this.seg.present(t);
      const d = this.seg.data;
      df = 0;
      for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) {
        if (mask[d.postIds[p]!] === 0) continue;
        for (let f = 0; f < NF; f++) if (d.postTf[p * NF + f]! > 0) df++;
      }
      this.#maskDf.set(t, df);
    }
    return df;
  }

  live(id: number): boolean {
    return this.mask === undefined || this.mask[id] === 0;
  }
}
