// core/glob-match.ts against picomatch (dot: true) as the oracle, over random small globs and paths,
// plus the cases where the two differ on purpose, and the U48 pathological glob.
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../../src/core/glob-match.js';

function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

describe('core/glob-match', () => {
  it('gives picomatch’s answers on 60,000 random globs × paths (classes, braces, escapes, globstars)', () => {
    const rnd = lcg(7);
    // `[!a]` is left out: picomatch reads it as the literal text `[!a]` or the class [!a]; POSIX reads it as "not a" (below).
    const globParts = [
      'a',
      'b',
      '.',
      '*',
      '?',
      '**',
      '/',
      '[ab]',
      '[^a]',
      '{a,b}',
      '{a,}',
      '\\*',
      '-',
      '[a-b]',
      '{1..2}',
      '1',
    ];
    const pathParts = ['a', 'b', '.', '/', '-', '*', '1', '2'];
    const differ: string[] = [];
    let compared = 0;
    for (let k = 0; k < 60_000; k++) {
      let g = '';
      for (let i = 1 + rnd(6); i > 0; i--) g += globParts[rnd(globParts.length)];
      let p = '';
      for (let i = rnd(7); i > 0; i--) p += pathParts[rnd(pathParts.length)];
      // picomatch lets a trailing slash follow a one-segment glob (`*` matches `a/`); memory paths are files.
      if (p.endsWith('/') && !g.includes('/')) continue;
      const want = picomatch.makeRe(g, { dot: true }).test(p);
      compared++;
      if (compileGlob(g).test(p) !== want) differ.push(`${g} vs ${p}: picomatch ${want}`);
      if (compileGlob(g, { scan: true }).test(p) !== want) differ.push(`${g} vs ${p} (scan): picomatch ${want}`);
    }
    expect(compared).toBeGreaterThan(50_000);
    expect(differ.slice(0, 10)).toEqual([]);
  });

  it.each([
    ['[!a].md', 'b.md', true],
    ['[!a].md', 'a.md', false],
    ['notes (1).md', 'notes (1).md', true],
    ['[[:digit:]][[:digit:]].md', '42.md', true],
    ['!**/*.md', 'a/b.md', false],
    ['!**/*.md', 'a/b.txt', true],
    ['a/**', 'a', true],
    ['**/node_modules/**', 'x/node_modules/', true],
    ['a/[/]b', 'a//b', false],
    ['a//b', 'a//b', true],
    ['*', '', false],
    ['**', 'a/b/c', true],
  ])('%s vs %s → %s (POSIX class negation, parentheses are text)', (glob, path, want) => {
    expect(compileGlob(glob).test(path)).toBe(want);
    expect(compileGlob(glob, { scan: true }).test(path)).toBe(want);
  });

  it('U48: a glob that makes a RegExp backtrack for minutes is answered (it fails by timing out before)', () => {
    const path = `${'a/'.repeat(40)}${'a'.repeat(60)}.ts`;
    expect(compileGlob(`${'**/'.repeat(20)}${'*a'.repeat(25)}b`).test(path)).toBe(false);
    expect(compileGlob(`${'**/'.repeat(20)}${'*a'.repeat(25)}*.ts`).test(path)).toBe(true);
    expect(compileGlob('**/*a*a*a/**/*a*a*a/b').test(`${'a/'.repeat(60)}c`)).toBe(false);
  });

  it('refuses extglobs and brace sets past 256 alternatives with a usage error', () => {
    expect(() => compileGlob('@(a|b).md')).toThrow(/extglob/);
    expect(() => compileGlob('x/+(a).md')).toThrow(/extglob/);
    expect(() => compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}.md')).toThrow(/more than 256 alternatives/);
    expect(compileGlob('{a,b}{a,b}.md').test('ba.md')).toBe(true);
    expect(compileGlob('\\@(a).md').test('@(a).md')).toBe(true);
  });
});
