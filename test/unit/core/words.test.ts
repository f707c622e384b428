// The shared text helpers (core/words.ts): the one slug, normal form, word split, stemmer and the
// cut that never leaves half a surrogate pair.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wordTokens as words } from '../../../src/core/tokenize.js';
import { cutUnits, normalise, slug, stemWord as stem } from '../../../src/core/words.js';

describe('core/words', () => {
  it('slug: letters and digits kept, NFC and lowercase, at most 60 code points, never empty', () => {
    expect(slug('Use lunr: NOT elasticlunr!')).toBe('use-lunr-not-elasticlunr');
    expect(slug('Cafe\u0301 au lait')).toBe('café-au-lait');
    expect(slug('???')).toBe('memory');
    expect([...slug('𝒜'.repeat(80))]).toHaveLength(60);
  });

  it('normalise, words and stem', () => {
    expect(normalise('  Use   LUNR.  ')).toBe('use lunr');
    expect(words('findWithEvents in src/a_b.ts')).toEqual(['find', 'with', 'events', 'in', 'src', 'a', 'b', 'ts']);
    expect(words('東京で')).toEqual(['東京', '京で']);
    expect(['retries', 'retried', 'timers', 'parsing'].map(stem)).toEqual(['retry', 'retry', 'timer', 'pars']);
  });

  it('cutUnits never ends in half a surrogate pair and keeps a text that fits', () => {
    expect(cutUnits('ab😀c', 3)).toBe('ab');
    expect(cutUnits('ab😀c', 4)).toBe('ab😀');
    expect(cutUnits('abc', 5)).toBe('abc');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(40), (s, n) => {
        const out = cutUnits(s, n);
        expect(out.length).toBeLessThanOrEqual(Math.max(n, 0));
        expect(s.startsWith(out)).toBe(true);
        if (out.length)
          expect(out.charCodeAt(out.length - 1) >= 0xd800 && out.charCodeAt(out.length - 1) <= 0xdbff).toBe(false);
        if (s.length <= n) expect(out).toBe(s);
      }),
    );
  });
});
