// VectorTable: embedding cache semantics, exact top-k against brute force, removal, and
// (de)serialisation including every corruption the loader must catch.
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../../src/core/errors.js';
import { VectorTable } from '../../../../src/indexes/vector/vector.js';
import { lcg as rng } from '../../../../bench/support/random.js';

function unit(dims: number, next: () => number): Float32Array {
  const v = new Float32Array(dims);
  let n = 0;
  for (let i = 0; i < dims; i++) {
    v[i] = next() * 2 - 1;
    n += v[i]! * v[i]!;
  }
  for (let i = 0; i < dims; i++) v[i]! /= Math.sqrt(n);
  return v;
}

function randomTable(n: number, dims: number, seed = 1): VectorTable {
  const next = rng(seed);
  const t = new VectorTable(dims, 2);
  for (let i = 0; i < n; i++) t.set(`h${String(i).padStart(4, '0')}`, unit(dims, next));
  return t;
}

function expectCorrupt(f: () => unknown): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(isMemoryError(err, 'index.corrupt'), String(err)).toBe(true);
}

describe('VectorTable', () => {
  it('set/get/has/size; set replaces; the vector is copied in', () => {
    const t = new VectorTable(3);
    const v = new Float32Array([1, 0, 0]);
    t.set('a', v);
    v[0] = 5;
    expect(t.get('a')).toEqual(new Float32Array([1, 0, 0]));
    t.set('a', [0, 1, 0]);
    expect(t.size).toBe(1);
    expect(t.get('a')).toEqual(new Float32Array([0, 1, 0]));
    expect(t.has('b')).toBe(false);
    expect(t.get('b')).toBeUndefined();
  });

  it('rejects vectors of the wrong width and invalid dims', () => {
    const t = new VectorTable(3);
    expect(() => t.set('a', [1, 2])).toThrow();
    expect(() => t.scores(new Float32Array(2))).toThrow();
    expect(() => new VectorTable(0)).toThrow();
  });

  it('missing() lists only unseen hashes, de-duplicated, in order — the embedding cache', () => {
    const t = new VectorTable(2);
    t.set('a', [1, 0]);
    t.set('c', [0, 1]);
    expect(t.missing(['a', 'b', 'c', 'd', 'b'])).toEqual(['b', 'd']);
    expect(t.missing([])).toEqual([]);
  });

  it('delete moves the last row into the hole and keeps every other vector intact', () => {
    const t = randomTable(50, 8);
    const before = new Map(t.ids().map((id) => [id, t.get(id)!]));
    for (const id of ['h0000', 'h0025', 'h0049', 'h0010']) expect(t.delete(id)).toBe(true);
    expect(t.delete('h0000')).toBe(false);
    expect(t.size).toBe(46);
    for (const id of t.ids()) expect(t.get(id)).toEqual(before.get(id));
  });

  it('retain() drops every id not kept', () => {
    const t = randomTable(10, 4);
    expect(t.retain(new Set(['h0001', 'h0005', 'zzz']))).toBe(8);
    expect([...t.ids()].sort()).toEqual(['h0001', 'h0005']);
  });

  it('topK equals a brute-force sort (score desc, ref asc) and respects k and the filter', () => {
    const dims = 384;
    const t = randomTable(2000, dims, 7);
    const q = unit(dims, rng(99));
    const brute = t
      .ids()
      .map((id) => {
        const v = t.get(id)!;
        let s = 0;
        for (let i = 0; i < dims; i++) s += v[i]! * q[i]!;
        return { ref: id, score: s };
      })
      .sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : 1));
    const top = t.topK(q, 10);
    expect(top.map((h) => h.ref)).toEqual(brute.slice(0, 10).map((h) => h.ref));
    top.forEach((h, i) => expect(h.score).toBeCloseTo(brute[i]!.score, 5));
    const even = (id: string) => Number(id.slice(1)) % 2 === 0;
    expect(t.topK(q, 5, even).map((h) => h.ref)).toEqual(
      brute
        .filter((h) => even(h.ref))
        .slice(0, 5)
        .map((h) => h.ref),
    );
    expect(t.topK(q, 0)).toEqual([]);
    expect(t.topK(q, 5000)).toHaveLength(2000);
    expect(new VectorTable(dims).topK(q, 3)).toEqual([]);
  });

  it('topK asks the filter about rows best first only, and widens past rejected rows (same hits as a filtered sort)', () => {
    const dims = 16;
    const t = randomTable(1500, dims, 5);
    for (const id of ['t2', 't1', 't3']) t.set(id, t.get('h0007')!); // ties with h0007
    const q = unit(dims, rng(3));
    const scores = t.scores(q);
    const ranked = t
      .ids()
      .map((id, row) => ({ id, score: scores[row]! }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .map((h) => h.id);
    const asked: string[] = [];
    const all = (id: string) => (asked.push(id), true);
    expect(t.topK(q, 20, all).map((h) => h.ref)).toEqual(ranked.slice(0, 20));
    expect(asked).toEqual(ranked.slice(0, 20));
    // One row in 97 passes: the window widens until 12 are found (or the table ends).
    const rare = (id: string) => id.startsWith('t') || Number(id.slice(1)) % 97 === 0;
    expect(t.topK(q, 12, rare).map((h) => h.ref)).toEqual(ranked.filter(rare).slice(0, 12));
    expect(t.topK(q, 100, rare).map((h) => h.ref)).toEqual(ranked.filter(rare));
    expect(t.topK(q, 5, () => false)).toEqual([]);
  });

  it('the SIMD kernel runs for dims % 8 === 0 and matches the JS loop used otherwise', () => {
    expect(new VectorTable(384).accelerated).toBe(true);
    expect(new VectorTable(12).accelerated).toBe(false);
    // Same 12 values padded with zeros to 16 dims: accelerated and plain scores must agree.
    const next = rng(11);
    const plain = new VectorTable(12, 1);
    const simd = new VectorTable(16, 1);
    for (let i = 0; i < 300; i++) {
      const v = unit(12, next);
      plain.set(`r${i}`, v);
      simd.set(`r${i}`, [...v, 0, 0, 0, 0]);
    }
    const q = unit(12, next);
    const a = plain.scores(q);
    const b = simd.scores(new Float32Array([...q, 0, 0, 0, 0]));
    expect(b.length).toBe(300);
    for (let i = 0; i < 300; i++) expect(b[i]).toBeCloseTo(a[i]!, 5);
    expect(simd.topK(new Float32Array([...q, 0, 0, 0, 0]), 7).map((h) => h.ref)).toEqual(
      plain.topK(q, 7).map((h) => h.ref),
    );
  });

  it('ties are broken by ref ascending', () => {
    const t = new VectorTable(2);
    for (const id of ['c', 'a', 'b']) t.set(id, [1, 0]);
    t.set('d', [0, 1]);
    expect(t.topK(new Float32Array([1, 0]), 3).map((h) => h.ref)).toEqual(['a', 'b', 'c']);
    expect(t.topK(new Float32Array([1, 0]), 2).map((h) => h.ref)).toEqual(['a', 'b']);
  });

  it('a vector scores cosine 1 with itself (normalised inputs)', () => {
    const t = randomTable(20, 16, 3);
    const v = t.get('h0007')!;
    const [best] = t.topK(v, 1);
    expect(best?.ref).toBe('h0007');
    expect(best?.score).toBeCloseTo(1, 5);
  });

  it('serialize → deserialize round-trips; equal contents give equal bytes whatever the history', () => {
    const a = randomTable(30, 8, 5);
    const b = new VectorTable(8);
    for (const id of [...a.ids()].reverse()) b.set(id, a.get(id)!);
    b.set('extra', new Float32Array(8).fill(0.5));
    b.delete('extra');
    const sa = a.serialize();
    const sb = b.serialize();
    expect(sa.ids).toEqual([...a.ids()].sort());
    expect(Buffer.from(sa.vectors).equals(Buffer.from(sb.vectors))).toBe(true);
    expect(sa.vectors.byteLength).toBe(30 * 8 * 4);
    const c = VectorTable.deserialize(sa, 8);
    expect(c.size).toBe(30);
    for (const id of a.ids()) expect(c.get(id)).toEqual(a.get(id));
    c.set('new', new Float32Array(8)); // grows after load
    expect(c.size).toBe(31);
  });

  it('serialized bytes are float32 little-endian and a copy', () => {
    const t = new VectorTable(2);
    t.set('a', [1, -2]);
    const s = t.serialize();
    const dv = new DataView(s.vectors.buffer, s.vectors.byteOffset, s.vectors.byteLength);
    expect([dv.getFloat32(0, true), dv.getFloat32(4, true)]).toEqual([1, -2]);
    t.set('a', [3, 3]);
    expect(dv.getFloat32(0, true)).toBe(1);
  });

  it('deserialize accepts an unaligned buffer', () => {
    const s = randomTable(3, 4).serialize();
    const shifted = new Uint8Array(s.vectors.byteLength + 1).subarray(1);
    shifted.set(s.vectors);
    expect(VectorTable.deserialize({ vectors: shifted, ids: s.ids }, 4).get('h0001')).toEqual(
      randomTable(3, 4).get('h0001'),
    );
  });

  it('deserialize detects truncated, odd-sized, count-mismatched, non-finite and bad-id data', () => {
    const s = randomTable(4, 4).serialize();
    expectCorrupt(() =>
      VectorTable.deserialize({ vectors: s.vectors.subarray(0, s.vectors.byteLength - 16), ids: s.ids }, 4),
    );
    expectCorrupt(() =>
      VectorTable.deserialize({ vectors: s.vectors.subarray(0, s.vectors.byteLength - 3), ids: s.ids }, 4),
    );
    expectCorrupt(() => VectorTable.deserialize({ vectors: s.vectors, ids: s.ids.slice(1) }, 4));
    expectCorrupt(() => VectorTable.deserialize({ vectors: s.vectors, ids: s.ids }, 8));
    expectCorrupt(() => VectorTable.deserialize({ vectors: s.vectors, ids: ['a', 'a', 'b', 'c'] }, 4));
    expectCorrupt(() => VectorTable.deserialize({ vectors: s.vectors, ids: ['a', 2, 'b', 'c'] }, 4));
    expectCorrupt(() => VectorTable.deserialize({ vectors: s.vectors, ids: 'abcd' as unknown as string[] }, 4));
    const nan = s.vectors.slice();
    new DataView(nan.buffer).setFloat32(8, Number.NaN, true);
    expectCorrupt(() => VectorTable.deserialize({ vectors: nan, ids: s.ids }, 4));
    expect(VectorTable.deserialize({ vectors: new Uint8Array(0), ids: [] }, 4).size).toBe(0);
  });
});
