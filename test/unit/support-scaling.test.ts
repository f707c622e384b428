// The growth check used by the "grows linearly" guards (test/support/scaling.ts) must be able to
// fail: a quadratic function is caught at the bound those guards use, a linear one passes.
import { describe, expect, it } from 'vitest';
import { growthRatio } from '../support/scaling.js';

const numbers = (n: number) => Float64Array.from({ length: n }, (_, i) => (i * 7919) % 1009);

describe('growthRatio', () => {
  it('flags quadratic work and passes linear work at the bound of 24 (factor 8)', { timeout: 240_000 }, () => {
    const pairs = (xs: Float64Array) => {
      let s = 0;
      for (let i = 0; i < xs.length; i++) for (let j = 0; j < xs.length; j++) s += xs[i]! > xs[j]! ? 1 : 0;
      return s;
    };
    // Linear, and bound by arithmetic rather than memory: each element is read once and worked on
    // in registers (40 passes over an 80 MB array measured 25× for 8× the input on a loaded machine:
    // the large side fell out of the caches, which is not what the guards look for).
    const sum = (xs: Float64Array) => {
      let s = 0;
      for (let i = 0; i < xs.length; i++) {
        const v = xs[i]!;
        for (let k = 0; k < 40; k++) s += v * k;
      }
      return s;
    };
    // One round: the large, quadratic side costs ~64× the small side's 20+ ms of CPU.
    expect(growthRatio(numbers, pairs, 500, 8, 1)).toBeGreaterThan(24);
    expect(growthRatio(numbers, sum, 20_000)).toBeLessThan(24);
  });
});
