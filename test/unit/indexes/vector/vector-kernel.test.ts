// The WebAssembly kernels of the vector table compute what their WAT sources
// (src/indexes/vector/scores.wat, idots.wat) say, to the bit: the f32 kernel's two 4-lane
// accumulators over 8-float steps, their lane sums added left to right, each step rounded to f32;
// the int8 kernel's exact i32 sums, codes at both ends of the int8 range included. The embedded
// bytes are checked against the assembled WAT by `node scripts/build-kernels.mjs` (wabt).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Arena, CodeArena } from '../../../../src/indexes/vector/vector-kernel.js';
import { rng } from '../../../../bench/support/random.js';

const f = Math.fround;

/** out[r] as scores.wat computes it (every f32 operation rounded to f32, in the WAT's order). */
function scoresAsWat(data: Float32Array, q: Float32Array, n: number, dims: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < n; r++) {
    const acc0 = [0, 0, 0, 0];
    const acc1 = [0, 0, 0, 0];
    for (let d = 0; d < dims; d += 8)
      for (let j = 0; j < 4; j++) {
        acc0[j] = f(acc0[j]! + f(data[r * dims + d + j]! * q[d + j]!));
        acc1[j] = f(acc1[j]! + f(data[r * dims + d + 4 + j]! * q[d + 4 + j]!));
      }
    const s = acc0.map((a, j) => f(a + acc1[j]!));
    out.push(f(f(f(s[0]! + s[1]!) + s[2]!) + s[3]!));
  }
  return out;
}

describe('vector kernels (WebAssembly SIMD)', () => {
  it('the f32 kernel scores every row as scores.wat computes it, to the bit', () => {
    const next = rng(44);
    for (const dims of [8, 16, 384]) {
      const n = 37;
      const arena = Arena.tryCreate(dims, n);
      expect(arena, 'this runtime has WebAssembly SIMD').toBeDefined();
      // Values of mixed magnitudes so that the order of the additions changes the rounded result.
      for (let i = 0; i < n * dims; i++) arena!.data[i] = (next() * 2 - 1) * 10 ** Math.floor(next() * 6 - 3);
      const q = Float32Array.from({ length: dims }, () => (next() * 2 - 1) * 10 ** Math.floor(next() * 6 - 3));
      const got = [...arena!.scores(q, n, dims)];
      expect(got).toEqual(scoresAsWat(arena!.data, q, n, dims));
      // A prefix of the rows: the kernel writes only those.
      expect([...arena!.scores(q, 5, dims)]).toEqual(got.slice(0, 5));
    }
  });

  it('the f32 kernel is refused where its WAT does not apply (dims not a multiple of 8)', () => {
    expect(Arena.tryCreate(12, 4)).toBeUndefined();
  });

  it('the int8 kernel gives exact sums at the ends of the int8 range', () => {
    const dims = 32;
    const a = CodeArena.create(dims, 3);
    expect(a.accelerated).toBe(true);
    a.query.fill(-128);
    a.codes.subarray(0, dims).fill(-128); // 32 × 16384: every i16 pair sum 32768 still exact in i32
    a.codes.subarray(dims, 2 * dims).fill(127);
    for (let i = 0; i < dims; i++) a.codes[2 * dims + i] = i % 2 ? 127 : -128;
    expect([...a.dots(3)]).toEqual([dims * 16384, dims * -16256, (dims / 2) * (16384 - 16256)]);
  });

  it('each WAT source exports the function the code instantiates and imports its memory as e.m', () => {
    const kernel = readFileSync('src/indexes/vector/vector-kernel.ts', 'utf8');
    for (const [wat, name] of [
      ['src/indexes/vector/scores.wat', 'scores'],
      ['src/indexes/vector/idots.wat', 'idots'],
    ] as const) {
      const text = readFileSync(wat, 'utf8');
      expect(text).toContain(`(export "${name}" (func $${name}))`);
      expect(text).toContain('(import "e" "m" (memory 1))');
      expect(kernel).toContain(`inst.exports.${name}`);
    }
  });
});

describe('the embedded kernel bytes', () => {
  it('are exactly what wabt assembles from the WAT sources (scripts/build-kernels.mjs)', () => {
    const script = fileURLToPath(new URL('../../../../scripts/build-kernels.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/SCORES_WASM: \d+ bytes, as assembled/);
    expect(run.stdout).toMatch(/DOTS_WASM: \d+ bytes, as assembled/);
  });
});
