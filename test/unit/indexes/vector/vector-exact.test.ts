// The int8-coded vector table returns exactly the float32 search's hits and scores: its bound is
// checked row by row against the float32 kernel, and topK is compared with scoring every row
// (VectorTable.scores, the float32 kernel) and sorting, on random tables built to be hard for a
// bound (near-ties, duplicates, rows of very different norms, sparse rows, a query equal to a row),
// with a filter, after deletes and replacements, and for a table read from its file at offsets.
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../../src/core/errors.js';
import type { RangedFile } from '../../../../src/core/ports.js';
import { CodeArena } from '../../../../src/indexes/vector/vector-kernel.js';
import {
  QUERY_META,
  quantizeQuery,
  quantizeRow,
  ROW_META,
  upperBounds,
} from '../../../../src/indexes/vector/vector-quant.js';
import { VectorTable, type VectorHit } from '../../../../src/indexes/vector/vector.js';
import { lcg as rng } from '../../../../bench/support/random.js';

function unit(dims: number, next: () => number): Float32Array {
  const v = Float32Array.from({ length: dims }, () => next() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

type Shape = 'unit' | 'clustered' | 'duplicates' | 'norms' | 'sparse';

function rows(shape: Shape, n: number, dims: number, seed: number): Float32Array[] {
  const next = rng(seed);
  const base = unit(dims, next);
  return Array.from({ length: n }, (_, i) => {
    if (shape === 'unit') return unit(dims, next);
    if (shape === 'clustered') return unit(dims, () => 0).map((_, d) => base[d]! + (next() - 0.5) * 1e-4);
    if (shape === 'duplicates') return i % 3 === 0 ? base : unit(dims, next);
    if (shape === 'norms') return unit(dims, next).map((x) => x * 10 ** (next() * 6 - 3));
    const v = new Float32Array(dims);
    v[i % dims] = next() * 2 - 1;
    v[(i * 7) % dims]! += 1e-3;
    return v;
  });
}

function table(vs: Float32Array[], dims: number): VectorTable {
  const t = new VectorTable(dims, 2);
  vs.forEach((v, i) => t.set(`r${String(i).padStart(5, '0')}`, v));
  return t;
}

/** The float32 search: every row scored by the kernel, sorted (score desc, ref asc), filtered. */
function brute(t: VectorTable, q: Float32Array, k: number, accept?: (id: string) => boolean): VectorHit[] {
  const s = t.scores(q);
  return t
    .ids()
    .map((ref, row) => ({ ref, score: s[row]! }))
    .filter((h) => !accept || accept(h.ref))
    .sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : 1))
    .slice(0, k);
}

/** A RangedFile over bytes in memory, counting the bytes read. */
function memoryFile(bytes: Uint8Array): RangedFile & { bytesRead: number } {
  const f = {
    size: bytes.byteLength,
    bytesRead: 0,
    read(target: Uint8Array, position: number) {
      const part = bytes.subarray(position, position + target.length);
      target.set(part);
      f.bytesRead += part.length;
      return part.length;
    },
    close() {},
  };
  return f;
}

describe('int8 codes: the bound', () => {
  it('every row scores at most its bound, and the bound is within 0.05 of the score', () => {
    for (const [shape, dims] of [
      ['unit', 384],
      ['norms', 48],
      ['sparse', 32],
      ['clustered', 384],
    ] as const) {
      const vs = rows(shape, 300, dims, 3);
      const t = table(vs, dims);
      const arena = CodeArena.create(dims, vs.length);
      const meta = new Float64Array(vs.length * ROW_META);
      vs.forEach((v, r) => quantizeRow(v, 0, dims, arena.codes, r * dims, meta, r * ROW_META));
      for (const q of [unit(dims, rng(9)), vs[5]!, vs[5]!.map((x) => -x)]) {
        const ub = new Float64Array(vs.length);
        const qm = new Float64Array(QUERY_META);
        quantizeQuery(q, arena.query, qm);
        upperBounds(qm, arena.dots(vs.length), meta, vs.length, dims, ub);
        const s = t.scores(q);
        const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
        const qn = norm(q);
        const scale = vs.map((v) => norm(v) * qn);
        for (let r = 0; r < vs.length; r++) {
          if (!(s[r]! <= ub[r]!) || !(ub[r]! - s[r]! < 0.05 * scale[r]! + 1e-9))
            expect({ shape, r, score: s[r], bound: ub[r] }).toBe('a score within its bound');
        }
      }
    }
  });

  it('the int8 kernel gives exact integer dot products (WebAssembly and the JS loop)', () => {
    const next = rng(4);
    for (const dims of [384, 12]) {
      const a = CodeArena.create(dims, 20);
      expect(a.accelerated).toBe(dims % 16 === 0);
      for (let i = 0; i < a.codes.length; i++) a.codes[i] = Math.floor(next() * 255) - 127;
      for (let i = 0; i < dims; i++) a.query[i] = i === 0 ? -127 : Math.floor(next() * 255) - 127;
      a.codes[0] = -127;
      const d = a.dots(20);
      for (let r = 0; r < 20; r++) {
        let s = 0;
        for (let i = 0; i < dims; i++) s += a.codes[r * dims + i]! * a.query[i]!;
        expect(d[r]).toBe(s);
      }
    }
  });
});

describe('int8 codes: topK equals the float32 search', () => {
  const shapes: Shape[] = ['unit', 'clustered', 'duplicates', 'norms', 'sparse'];
  for (const dims of [384, 12]) {
    for (const shape of shapes) {
      it(`${shape} rows, ${dims} dims: same hits and scores, with and without a filter`, () => {
        const vs = rows(shape, 600, dims, dims + shape.length);
        const t = table(vs, dims);
        const odd = (id: string) => Number(id.slice(1)) % 2 === 1;
        const rare = (id: string) => Number(id.slice(1)) % 53 === 0;
        for (const q of [unit(dims, rng(17)), vs[7]!, vs[0]!]) {
          expect(t.topK(q, 1)).toEqual(brute(t, q, 1));
          expect(t.topK(q, 100)).toEqual(brute(t, q, 100));
          expect(t.topK(q, 25, odd)).toEqual(brute(t, q, 25, odd));
          expect(t.topK(q, 30, rare)).toEqual(brute(t, q, 30, rare));
        }
      });
    }
  }

  it('after deletes and replacements (rows moved, slots reused) the hits stay exact', () => {
    const dims = 384;
    const vs = rows('unit', 800, dims, 21);
    const t = table(vs, dims);
    const next = rng(22);
    for (let i = 0; i < 300; i++) t.delete(`r${String(Math.floor(next() * 800)).padStart(5, '0')}`);
    for (let i = 0; i < 200; i++) t.set(`r${String(Math.floor(next() * 900)).padStart(5, '0')}`, unit(dims, next));
    const q = unit(dims, rng(23));
    expect(t.topK(q, 50)).toEqual(brute(t, q, 50));
  });

  it('a table read from its file holds no float32 row and re-reads only a few per query', () => {
    const dims = 384;
    const src = table(rows('unit', 2000, dims, 31), dims);
    const ser = src.serialize();
    const file = memoryFile(ser.vectors);
    const t = VectorTable.fromFile(file, ser.ids, dims);
    expect(t.size).toBe(2000);
    expect(t.inMemory).toBe(0);
    expect(file.bytesRead).toBe(ser.vectors.byteLength); // read once, to make the codes
    const q = unit(dims, rng(32));
    file.bytesRead = 0;
    const hits = t.topK(q, 10);
    const reread = file.bytesRead / (dims * 4);
    expect(hits).toEqual(brute(src, q, 10));
    expect(reread).toBeGreaterThanOrEqual(10);
    expect(reread).toBeLessThan(2000 / 4);
    // Rows set afterwards live in memory; the file rows stay where they are; serialize merges both.
    t.set('zz-new', unit(dims, rng(33)));
    t.delete(ser.ids[0]!);
    expect(t.inMemory).toBe(1);
    expect(t.topK(q, 40)).toEqual(brute(t, q, 40));
    const again = VectorTable.deserialize(t.serialize(), dims);
    expect(again.topK(q, 40)).toEqual(t.topK(q, 40));
  });

  it('a file of the wrong length, a short read or a non-finite value is index.corrupt', () => {
    const dims = 16;
    const ser = table(rows('unit', 10, dims, 41), dims).serialize();
    const corrupt = (f: () => unknown) => {
      let err: unknown;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(isMemoryError(err, 'index.corrupt'), String(err)).toBe(true);
    };
    corrupt(() => VectorTable.fromFile(memoryFile(ser.vectors.subarray(4)), ser.ids, dims));
    const short = { ...memoryFile(ser.vectors), read: () => 0 };
    corrupt(() => VectorTable.fromFile(short, ser.ids, dims));
    const bad = ser.vectors.slice();
    new DataView(bad.buffer).setFloat32(5 * dims * 4, NaN, true);
    corrupt(() => VectorTable.fromFile(memoryFile(bad), ser.ids, dims));
    corrupt(() => VectorTable.fromFile(memoryFile(ser.vectors), [...ser.ids.slice(1), ser.ids[1]], dims));
  });
});
