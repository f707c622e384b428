// Build one keyword segment document by document in bounded memory: the same SegmentData as
// ./lexical-build (lunr's Builder counting: our tokenizer, Latin stemming, per-field term
// frequencies and lengths), without lunr's inverted-index object graph or every raw token of every
// document. Postings are kept in growable typed arrays under provisional term ids and renumbered
// to the sorted vocabulary once at the end. test/unit/indexes/lexical-accumulate.test.ts proves the
// data equals buildSegment's. Imports only core and the lexical-* files it shares constants with.
import { MemoryError } from '../../core/errors.js';
import { compoundsOf, defaultTokensOf } from '../../core/tokenize.js';
import { fieldValues, type AnalysisMemo } from './lexical-analysis.js';
import { NF, type LexicalDoc, type SegmentData } from './lexical-segment.js';
import { stemOf } from './lexical-stem.js';
import { ArrayStrings } from './lexical-strings.js';

/** Most compounds whose raw ids one accumulator remembers. */
const MAX_COMPOUNDS = 1 << 17;

class IntList {
  a: Int32Array;
  n = 0;
  constructor(cap = 1024) {
    this.a = new Int32Array(cap);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  view(): Int32Array {
    return this.a.subarray(0, this.n);
  }
}

/** Feeds documents one at a time; {@link finish} returns the segment data. */
export class SegmentAccumulator {
  readonly #refs: string[] = [];
  readonly #seen = new Set<string>();
  /** Index term → provisional id (first-seen order). */
  readonly #termIds = new Map<string, number>();
  readonly #terms: string[] = [];
  /** Raw token → provisional id, and its stem's provisional term id. */
  readonly #rawIds = new Map<string, number>();
  readonly #raw: string[] = [];
  readonly #rawTerm: number[] = [];
  /** Per document d: postings `[docPost[d], docPost[d + 1])` of (provisional term, NF tfs). */
  readonly #docPost = new IntList();
  readonly #postTerm = new IntList(4096);
  #postTf = new Uint16Array(4096 * NF);
  readonly #docLen = new IntList(1024);
  /** Per document: unique raw ids `[docRaw[d], docRaw[d + 1])`. */
  readonly #docRaw = new IntList();
  readonly #rawList = new IntList(4096);
  /** Compound → raw ids of its tokens (core/tokenize.ts defaultTokensOf), bounded: cleared when full. */
  readonly #compoundIds = new Map<string, Int32Array>();
  // Scratch per document.
  readonly #rowOf = new Map<number, number>();
  readonly #rawSeen = new Set<number>();

  constructor() {
    this.#docPost.push(0);
    this.#docRaw.push(0);
  }

  get size(): number {
    return this.#refs.length;
  }

  /**
   * Add one document. With `memo`, its fields' analysis (indexes/lexical/lexical-analysis.ts) is taken from
   * the memo when the same field values were analysed before; the data is the same either way.
   * @throws MemoryError `internal` when two docs share a ref (a caller bug, not user content).
   */
  add(d: LexicalDoc, memo?: AnalysisMemo): void {
    if (this.#seen.has(d.ref)) throw new MemoryError('internal', `duplicate chunk ref in keyword index: ${d.ref}`);
    this.#seen.add(d.ref);
    this.#refs.push(d.ref);
    const fields = fieldValues(d);
    this.#rowOf.clear();
    this.#rawSeen.clear();
    if (memo) {
      const a = memo.of(fields);
      let i = 0;
      for (let f = 0; f < NF; f++) {
        for (const end = a.ends[f]!; i < end; i++) this.#count(a.tokens[i]!, f, a.counts[i]!);
        this.#docLen.push(a.lens[f]!);
      }
    } else {
      for (let f = 0; f < NF; f++) {
        let len = 0;
        for (const source of compoundsOf(fields[f]!)) {
          const ids = this.#idsOf(source);
          for (let i = 0; i < ids.length; i++) this.#countRaw(ids[i]!, f, 1);
          len += ids.length;
        }
        this.#docLen.push(len);
      }
    }
    this.#docPost.push(this.#postTerm.n);
    this.#docRaw.push(this.#rawList.n);
  }

  /** The raw ids of one compound's tokens, in token order (repeats kept). */
  #idsOf(source: string): Int32Array {
    let ids = this.#compoundIds.get(source);
    if (ids === undefined) {
      const tokens = defaultTokensOf(source);
      ids = new Int32Array(tokens.length);
      for (let i = 0; i < tokens.length; i++) ids[i] = this.#rawId(tokens[i]!);
      if (this.#compoundIds.size >= MAX_COMPOUNDS) this.#compoundIds.clear();
      this.#compoundIds.set(source, ids);
    }
    return ids;
  }

  /** `times` occurrences of `token` in field `f` of the document being added. */
  #count(token: string, f: number, times: number): void {
    this.#countRaw(this.#rawId(token), f, times);
  }

  /** The provisional raw id of `token`, made (with its stem's term id) on first sight. */
  #rawId(token: string): number {
    let r = this.#rawIds.get(token);
    if (r === undefined) {
      r = this.#raw.length;
      this.#rawIds.set(token, r);
      this.#raw.push(token);
      const stem = stemOf(token);
      let t = this.#termIds.get(stem);
      if (t === undefined) {
        t = this.#terms.length;
        this.#termIds.set(stem, t);
        this.#terms.push(stem);
      }
      this.#rawTerm.push(t);
    }
    return r;
  }

  /** `times` occurrences of raw token `r` in field `f` of the document being added. */
  #countRaw(r: number, f: number, times: number): void {
    if (!this.#rawSeen.has(r)) {
      this.#rawSeen.add(r);
      this.#rawList.push(r);
    }
    const t = this.#rawTerm[r]!;
    const rowOf = this.#rowOf;
    let row = rowOf.get(t);
    if (row === undefined) {
      row = this.#postTerm.n;
      rowOf.set(t, row);
      this.#postTerm.push(t);
      if (this.#postTf.length < this.#postTerm.a.length * NF) {
        const b = new Uint16Array(this.#postTerm.a.length * NF);
        b.set(this.#postTf);
        this.#postTf = b;
      }
      this.#postTf.fill(0, row * NF, row * NF + NF);
    }
    // Term frequencies saturate at 65535 (one occurrence at a time or `times` at once: the same).
    const k = row * NF + f;
    const v = this.#postTf[k]! + times;
    this.#postTf[k] = v > 65535 ? 65535 : v;
  }

  /** The segment data of every document added, in the order added. */
  finish(): SegmentData {
    const n = this.#refs.length;
    // Sorted vocabularies and provisional → final ids.
    const termOrder = this.#terms.map((_, i) => i).sort((a, b) => cmp(this.#terms[a]!, this.#terms[b]!));
    const termFinal = new Int32Array(this.#terms.length);
    termOrder.forEach((p, i) => (termFinal[p] = i));
    const terms = termOrder.map((p) => this.#terms[p]!);
    const rawOrder = this.#raw.map((_, i) => i).sort((a, b) => cmp(this.#raw[a]!, this.#raw[b]!));
    const rawFinal = new Int32Array(this.#raw.length);
    rawOrder.forEach((p, i) => (rawFinal[p] = i));
    const raw = rawOrder.map((p) => this.#raw[p]!);
    const rawStem = rawOrder.map((p) => this.#terms[this.#rawTerm[p]!]!);
    // Postings grouped by final term id, documents ascending within a term.
    const postTerm = this.#postTerm.view();
    const docPost = this.#docPost.view();
    const counts = new Int32Array(terms.length + 1);
    for (let i = 0; i < postTerm.length; i++) counts[termFinal[postTerm[i]!]! + 1]!++;
    for (let t = 0; t < terms.length; t++) counts[t + 1]! += counts[t]!;
    const postStart = counts;
    const P = postTerm.length;
    const postIds = new Int32Array(P);
    const postTf = new Uint16Array(P * NF);
    const fill = postStart.slice(0, terms.length);
    for (let d = 0; d < n; d++) {
      for (let i = docPost[d]!; i < docPost[d + 1]!; i++) {
        const pos = fill[termFinal[postTerm[i]!]!]!++;
        postIds[pos] = d;
        postTf.set(this.#postTf.subarray(i * NF, i * NF + NF), pos * NF);
      }
    }
    const docLen = Uint32Array.from(this.#docLen.view());
    const docRaw = this.#docRaw.view();
    const rawList = this.#rawList.view();
    const rawIds = new Int32Array(rawList.length);
    for (let d = 0; d < n; d++) {
      const a = docRaw[d]!;
      const b = docRaw[d + 1]!;
      for (let i = a; i < b; i++) rawIds[i] = rawFinal[rawList[i]!]!;
      rawIds.subarray(a, b).sort();
    }
    return {
      refs: new ArrayStrings(this.#refs.slice()),
      terms: new ArrayStrings(terms),
      raw: new ArrayStrings(raw),
      rawStem: new ArrayStrings(rawStem),
      postStart,
      postIds,
      postTf,
      docLen,
      rawStart: Int32Array.from(docRaw),
      rawIds,
    };
  }
}

/** UTF-16 code-unit order, as Array.prototype.sort compares strings. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
