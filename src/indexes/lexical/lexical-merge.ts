// Merge segments at the data level (no re-tokenising), with term and vocabulary ids remapped.
import { MemoryError } from '../../core/errors.js';
import { NF, type Segment, type SegmentData } from './lexical-segment.js';
import { ArrayStrings } from './lexical-strings.js';

/**
 * Every posting of a kept document (the count and the fill pass of the merged CSR postings), parts
 * in order, ids ascending within a part: `fn(new term id, new doc id, the part's data, posting index)`.
 */
function eachKeptPosting(
  parts: readonly { seg: Segment }[],
  keep: readonly Int32Array[],
  termId: ReadonlyMap<string, number>,
  fn: (nt: number, nid: number, d: SegmentData, p: number) => void,
): void {
  parts.forEach(({ seg }, k) => {
    const d = seg.data;
    const map = keep[k]!;
    for (let t = 0; t < d.terms.length; t++) {
      const nt = termId.get(d.terms.at(t));
      if (nt === undefined) continue;
      for (let p = d.postStart[t]!; p < d.postStart[t + 1]!; p++) {
        const nid = map[d.postIds[p]!]!;
        if (nid >= 0) fn(nt, nid, d, p);
      }
    }
  });
}

/**
 * Merge segments at the data level (no re-tokenising): the live documents of each part, in part
 * order, with term and vocabulary ids remapped. Searching the result equals searching a segment built
 * by lunr over the same documents (search depends only on per-document term frequencies, field
 * lengths and vocabularies, never on document ids).
 */
export function mergeSegments(
  parts: readonly { seg: Segment; drop: ReadonlySet<string> }[],
  order?: readonly string[],
): SegmentData {
  for (const { seg } of parts) seg.presentAll();
  let refs: string[] = [];
  const keep: Int32Array[] = []; // per part: old doc id → new doc id, or -1
  for (const { seg, drop } of parts) {
    const map = new Int32Array(seg.n).fill(-1);
    for (let i = 0; i < seg.n; i++) {
      const r = seg.data.refs.at(i);
      if (drop.has(r)) continue;
      map[i] = refs.length;
      refs.push(r);
    }
    keep.push(map);
  }
  // An explicit order of the kept documents (the chunk order the caller stores them in).
  if (order) refs = reorder(parts, keep, refs, order);
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
          termSet.add(d.terms.at(t));
          break;
        }
      }
    }
    for (let id = 0; id < seg.n; id++) {
      if (map[id]! < 0) continue;
      for (let q = d.rawStart[id]!; q < d.rawStart[id + 1]!; q++)
        rawSet.set(d.raw.at(d.rawIds[q]!), d.rawStem.at(d.rawIds[q]!));
    }
  });
  const terms = [...termSet].sort();
  const termId = new Map(terms.map((t, i) => [t, i]));
  const raw = [...rawSet.keys()].sort();
  const rawId = new Map(raw.map((r, i) => [r, i]));
  const counts = new Int32Array(terms.length + 1);
  eachKeptPosting(parts, keep, termId, (nt) => counts[nt + 1]!++);
  for (let t = 0; t < terms.length; t++) counts[t + 1]! += counts[t]!;
  const P = counts[terms.length]!;
  const postIds = new Int32Array(P);
  const postTf = new Uint16Array(P * NF);
  const fill = counts.slice(0, terms.length);
  // Parts in order and ids ascending within a part: new ids stay ascending per term (with an
  // explicit order they are sorted per term afterwards).
  eachKeptPosting(parts, keep, termId, (nt, nid, d, p) => {
    const pos = fill[nt]!++;
    postIds[pos] = nid;
    postTf.set(d.postTf.subarray(p * NF, p * NF + NF), pos * NF);
  });
  if (order) for (let t = 0; t < terms.length; t++) sortPostings(postIds, postTf, counts[t]!, counts[t + 1]!);
  const docLen = new Uint32Array(n * NF);
  const perDoc: number[][] = new Array(n);
  parts.forEach(({ seg }, k) => {
    const d = seg.data;
    const map = keep[k]!;
    for (let id = 0; id < seg.n; id++) {
      const nid = map[id]!;
      if (nid < 0) continue;
      docLen.set(d.docLen.subarray(id * NF, id * NF + NF), nid * NF);
      const ids: number[] = [];
      for (let q = d.rawStart[id]!; q < d.rawStart[id + 1]!; q++) ids.push(rawId.get(d.raw.at(d.rawIds[q]!))!);
      ids.sort((a, b) => a - b);
      perDoc[nid] = ids;
    }
  });
  const rawStart = new Int32Array(n + 1);
  const rawIds: number[] = [];
  for (let nid = 0; nid < n; nid++) {
    for (const x of perDoc[nid]!) rawIds.push(x);
    rawStart[nid + 1] = rawIds.length;
  }
  return {
    refs: new ArrayStrings(refs),
    terms: new ArrayStrings(terms),
    raw: new ArrayStrings(raw),
    rawStem: new ArrayStrings(raw.map((r) => rawSet.get(r)!)),
    postStart: counts,
    postIds,
    postTf,
    docLen,
    rawStart,
    rawIds: Int32Array.from(rawIds),
  };
}

/** Renumber the kept documents of `keep` to their positions in `order` (which must list exactly them). */
function reorder(
  parts: readonly { seg: Segment }[],
  keep: Int32Array[],
  refs: readonly string[],
  order: readonly string[],
): string[] {
  const at = new Map(order.map((r, i) => [r, i]));
  if (at.size !== order.length || order.length !== refs.length || refs.some((r) => !at.has(r)))
    throw new MemoryError('internal', 'merge order does not list the kept keyword documents');
  parts.forEach(({ seg }, k) => {
    const map = keep[k]!;
    for (let i = 0; i < map.length; i++) if (map[i]! >= 0) map[i] = at.get(seg.data.refs.at(i))!;
  });
  return [...order];
}

/** Sort postings `[a, b)` by document id (their term frequencies move with them). */
function sortPostings(ids: Int32Array, tf: Uint16Array, a: number, b: number): void {
  let sorted = true;
  for (let i = a + 1; i < b && sorted; i++) if (ids[i - 1]! > ids[i]!) sorted = false;
  if (sorted) return;
  const idx = Array.from({ length: b - a }, (_, i) => a + i).sort((x, y) => ids[x]! - ids[y]!);
  const sid = idx.map((i) => ids[i]!);
  const stf = new Uint16Array((b - a) * NF);
  idx.forEach((i, j) => stf.set(tf.subarray(i * NF, i * NF + NF), j * NF));
  ids.set(sid, a);
  tf.set(stf, a * NF);
}
