// Build one segment from chunks with lunr's Builder (tokenised by our tokenizer, stemmed by
// ./lexical-stem): per-document term frequencies and field lengths exactly as lunr counts them.
// One of the two owners of lunr (with ./lexical-stem).
import lunr from 'lunr';
import { MemoryError } from '../../core/errors.js';
import { tokenize } from '../../core/tokenize.js';
import { B, FIELD_NAMES, FIELDS, K1, NF, type LexicalDoc, type SegmentData } from './lexical-segment.js';
import { stemLatin, stemOf } from './lexical-stem.js';
import { ArrayStrings } from './lexical-strings.js';

/**
 * A configured lunr Builder fed with `docs`, and the segment data collected from it. The builder is
 * returned so a caller that needs lunr's own index (a reference in tests) can call `builder.build()`.
 * @throws MemoryError `internal` when two docs share a ref (a caller bug, not user content).
 */
export function buildSegment(docs: readonly LexicalDoc[]): { data: SegmentData; builder: lunr.Builder } {
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
  return { data: segmentFromBuilder(docs, builder, rawByDoc), builder };
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
    refs: new ArrayStrings(docs.map((d) => d.ref)),
    terms: new ArrayStrings(terms),
    raw: new ArrayStrings(raw),
    rawStem: new ArrayStrings(raw.map(stemOf)),
    postStart,
    postIds,
    postTf,
    docLen,
    rawStart,
    rawIds: Int32Array.from(ids),
  };
}
