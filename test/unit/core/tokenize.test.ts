import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  analyze,
  compoundsOf,
  defaultTokensOf,
  foldAccents,
  MAX_TOKEN_LENGTH,
  STOP_WORDS,
  tokenize,
} from '../../../src/core/tokenize.js';

describe('tokenize', () => {
  it('lowercases and splits on everything that is not a letter or number', () => {
    expect(tokenize('Hello, World! (v2)')).toEqual(['hello', 'world', 'v2']);
  });

  it('B04: / . _ : - separate, so application/json yields json', () => {
    const t = tokenize('application/json');
    expect(t).toContain('application');
    expect(t).toContain('json');
    expect(tokenize('gitmem.config.json')).toEqual(expect.arrayContaining(['gitmem', 'config', 'json']));
    expect(tokenize('a:b')).toEqual(expect.arrayContaining(['b']));
  });

  it('camelCase and PascalCase emit the parts and the joined whole', () => {
    expect(tokenize('getUserName')).toEqual(['get', 'user', 'name', 'getusername']);
    expect(tokenize('HTMLParser')).toEqual(['html', 'parser', 'htmlparser']);
    expect(tokenize('getV2Config')).toEqual(['get', 'v2', 'config', 'getv2config']);
    expect(tokenize('utf8 sha256')).toEqual(['utf8', 'sha256']);
  });

  it('snake_case, kebab-case and paths emit the parts and the joined whole', () => {
    expect(tokenize('get_user_name')).toEqual(['get', 'user', 'name', 'getusername']);
    expect(tokenize('user-name')).toEqual(['user', 'name', 'username']);
    expect(tokenize('src/db/pool.ts')).toEqual(['src', 'db', 'pool', 'ts', 'srcdbpoolts']);
  });

  it('camelCase and snake_case of the same identifier share every token', () => {
    expect(new Set(tokenize('getUserName'))).toEqual(new Set(tokenize('get_user_name')));
  });

  it('long chains (URLs) do not get a joined whole', () => {
    const t = tokenize('https://example.com/a/b/c/d/e/f/g');
    expect(t).toContain('example');
    expect(t.some((x) => x.startsWith('httpsexample'))).toBe(false);
  });

  it('B03: keeps accents and adds a folded form', () => {
    const t = tokenize('café über résumé Straße');
    expect(t).toEqual(
      expect.arrayContaining(['café', 'cafe', 'über', 'uber', 'résumé', 'resume', 'straße', 'strasse']),
    );
    expect(tokenize('café', { fold: false })).toEqual(['café']);
    expect(foldAccents('Ελλάδα')).toBe('Ελλάδα'); // only Latin is folded
  });

  it('applies NFC so composed and decomposed input give the same tokens', () => {
    expect(tokenize('cafe\u0301')).toEqual(tokenize('caf\u00e9'));
  });

  it('B03: CJK runs become character bigrams; a single character stays single', () => {
    expect(tokenize('東京でミーティング')).toEqual(['東京', '京で', 'でミ', 'ミー', 'ーテ', 'ティ', 'ィン', 'ング']);
    expect(tokenize('東')).toEqual(['東']);
    expect(tokenize('한국어 회의')).toEqual(['한국', '국어', '회의']);
    expect(tokenize('Node.js入門')).toEqual(expect.arrayContaining(['node', 'js', '入門']));
  });

  it('keeps scripts with combining marks whole (Devanagari)', () => {
    expect(tokenize('हिन्दी')).toEqual(['हिन्दी']);
  });

  it('drops HTML comments', () => {
    expect(tokenize('keep <!-- secret note --> this')).toEqual(['keep']);
    expect(tokenize('<!--\nmulti\nline\n-->after')).toEqual(['after']);
  });

  it('drops English stop words (unless asked not to) and keeps numbers', () => {
    expect(tokenize('The pool is 42 and it works')).toEqual(['pool', '42', 'works']);
    expect(tokenize('the', { stopWords: false })).toEqual(['the']);
    expect(STOP_WORDS.has('not')).toBe(false);
    expect(tokenize('do not use')).toEqual(['do', 'not', 'use']);
  });

  it('cuts very long tokens without splitting a surrogate pair', () => {
    const long = 'x'.repeat(200);
    expect(tokenize(long)).toEqual(['x'.repeat(MAX_TOKEN_LENGTH)]);
    const astral = '𠀀'.repeat(100); // Han, astral: bigrams of 4 code units
    for (const t of tokenize(astral)) expect(t).toBe('𠀀𠀀');
  });

  it('never throws and returns [] for empty or operator-only input', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('~^+-*:"\\()[]{}')).toEqual([]);
    expect(tokenize(undefined as unknown as string)).toEqual([]);
  });

  it('analyze groups parts per compound', () => {
    const [c] = analyze('getUserName');
    expect(c!.parts.map((p) => p.token)).toEqual(['get', 'user', 'name']);
    expect(c!.joined).toEqual(['getusername']);
  });
});

describe('tokenize: the per-compound memo of the default options', () => {
  /** Every token of `analyze`, flattened as tokenize documents it. */
  const viaAnalyze = (text: string): string[] =>
    analyze(text).flatMap((c) => [...c.parts.flatMap((p) => [p.token, ...p.variants]), ...c.joined]);

  it('gives analyze’s tokens, twice in a row (memo cold, then warm), over every vendored corpus file', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/corpora');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      const expected = viaAnalyze(text);
      expect(tokenize(text), f).toEqual(expected);
      expect(tokenize(text), f).toEqual(expected);
      // The keyword accumulator's path (indexes/lexical/lexical-accumulate.ts): compound by compound.
      expect(
        compoundsOf(text).flatMap((c) => defaultTokensOf(c)),
        f,
      ).toEqual(expected);
    }
  });

  it('a caller mutating its token list does not change a later answer', () => {
    const first = tokenize('getUserName café');
    first.push('x');
    first[0] = 'changed';
    expect(tokenize('getUserName café')).toEqual(['get', 'user', 'name', 'getusername', 'café', 'cafe']);
  });

  it('other options still take the uncached path', () => {
    expect(tokenize('The café', { stopWords: false, fold: false })).toEqual(['the', 'café']);
    expect(tokenize('The café')).toEqual(['café', 'cafe']);
  });
});
