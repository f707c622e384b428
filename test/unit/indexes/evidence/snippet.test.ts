import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeSnippet } from '../../../../src/indexes/evidence/snippet.js';

const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('makeSnippet', () => {
  it('short text is returned whole with whitespace collapsed', () => {
    expect(makeSnippet('  a\n\n  b\tc  ', ['b'])).toBe('a b c');
  });

  it('long text is centred on the first match with … at cut ends', () => {
    const text = `${filler(100)} the postgres pool is tuned ${filler(100)}`;
    const s = makeSnippet(text, ['postgres'], 80);
    expect(s.length).toBeLessThanOrEqual(80);
    expect(s).toContain('postgres');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
  });

  it('match near the start: no leading ellipsis', () => {
    const s = makeSnippet(`postgres ${filler(100)}`, ['postgres'], 60);
    expect(s.startsWith('postgres')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(60);
  });

  it('match near the end: no trailing ellipsis', () => {
    const s = makeSnippet(`${filler(100)} postgres`, ['postgres'], 60);
    expect(s.endsWith('postgres')).toBe(true);
    expect(s.startsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(60);
  });

  it('no match: starts at the beginning', () => {
    const s = makeSnippet(filler(100), ['absent'], 50);
    expect(s.startsWith('word0')).toBe(true);
  });

  it('matches identifiers, inflections, accents and CJK', () => {
    const pad = filler(80);
    expect(makeSnippet(`${pad} call getUserName now ${pad}`, ['user'], 60)).toContain('getUserName');
    expect(makeSnippet(`${pad} the modules load ${pad}`, ['module'], 60)).toContain('modules');
    expect(makeSnippet(`${pad} café ${pad}`, ['cafe'], 60)).toContain('café');
    expect(makeSnippet(`${'あ'.repeat(300)}東京でミーティング${'い'.repeat(300)}`, ['東京'], 40)).toContain('東京');
  });

  it('accepts raw query words as well as tokens', () => {
    expect(makeSnippet(`${filler(80)} application/json ${filler(80)}`, ['json*'], 60)).toContain('application/json');
  });

  it('drops HTML comments', () => {
    expect(makeSnippet('a <!-- hidden --> b', [])).toBe('a b');
  });

  it('never splits a surrogate pair or an emoji sequence, never exceeds maxChars', () => {
    const emoji = '👍🏽'.repeat(200);
    for (let max = 0; max < 40; max++) {
      const s = makeSnippet(emoji, ['x'], max);
      expect(s.length).toBeLessThanOrEqual(max);
      const body = s.replace(/…/g, '');
      expect(/^(?:👍🏽)*$/u.test(body), `${max}: ${body}`).toBe(true);
    }
  });

  it('property: bounded length and well-formed UTF-16 for any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
        fc.integer({ min: 0, max: 120 }),
        (text, tokens, max) => {
          const s = makeSnippet(text, tokens, max);
          expect(s.length).toBeLessThanOrEqual(max);
          expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });
});
