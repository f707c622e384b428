import { describe, expect, it } from 'vitest';
import { MAX_QUERY_TERMS, parseQuery, QUESTION_WORDS, queryTokens } from '../../../../src/indexes/query/query.js';

describe('parseQuery', () => {
  it('plain words are optional terms with tokenizer tokens', () => {
    const q = parseQuery('Postgres pool');
    expect(q.empty).toBe(false);
    expect(q.terms.map((t) => [t.text, t.presence, t.prefix])).toEqual([
      ['Postgres', 'optional', false],
      ['pool', 'optional', false],
    ]);
    expect(q.terms[0]!.tokens).toEqual(['postgres']);
  });

  it('+word is required and -word prohibited only when well formed', () => {
    const q = parseQuery('+lunr -fuse --hard + -');
    expect(q.terms.map((t) => [t.text, t.presence])).toEqual([
      ['lunr', 'required'],
      ['fuse', 'prohibited'],
      ['--hard', 'optional'],
    ]);
    expect(q.terms[2]!.tokens).toEqual(['hard']);
  });

  it('word* is a trailing prefix; a lone or leading * is dropped', () => {
    const q = parseQuery('genera* * *lead');
    expect(q.terms.map((t) => [t.text, t.prefix])).toEqual([
      ['genera', true],
      ['*lead', false],
    ]);
  });

  it('type:decision is a filter and foo:bar is text', () => {
    const q = parseQuery('type:decision tag:Storage,postgres kind:entry foo:bar');
    expect(q.filters).toEqual({ type: ['decision'], tag: ['storage', 'postgres'], kind: ['entry'] });
    expect(q.terms).toHaveLength(1);
    expect(q.terms[0]!.tokens).toEqual(expect.arrayContaining(['foo', 'bar']));
    expect(q.empty).toBe(false);
  });

  it('filters alone give an empty keyword query with a hint', () => {
    const q = parseQuery('type:decision');
    expect(q.empty).toBe(true);
    expect(q.hint).toBeTruthy();
    expect(parseQuery('type:').filters.type).toEqual([]);
  });

  it('B01: operator-only queries are empty with a hint', () => {
    for (const s of ['~', '^', '+', '-', '"', ':', '*', 'type:', '', '   ', '~^+-*:"\\()[]{}']) {
      const q = parseQuery(s);
      expect(q.empty, s).toBe(true);
      expect(q.hint, s).toBeTruthy();
    }
  });

  it('a query of only prohibited words or stop words is empty', () => {
    expect(parseQuery('-lunr').empty).toBe(true);
    expect(parseQuery('the of and').empty).toBe(true);
  });

  it('a required identifier needs every part', () => {
    const [t] = parseQuery('+getUserName').terms;
    expect(t!.parts).toEqual([['get'], ['user'], ['name']]);
    expect(t!.tokens).toContain('getusername');
    const [c] = parseQuery('+café').terms;
    expect(c!.parts).toEqual([['café', 'cafe']]);
  });

  it('caps the number of words', () => {
    const q = parseQuery(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '));
    expect(q.terms.length).toBe(MAX_QUERY_TERMS);
  });

  it('queryTokens lists positive tokens only', () => {
    expect(queryTokens(parseQuery('alpha -beta +gamma'))).toEqual(['alpha', 'gamma']);
  });
});

describe('question words', () => {
  const texts = (q: string) => parseQuery(q).terms.map((t) => t.text);
  it('are dropped when the query has other words to search for', () => {
    expect(texts('which database do we use')).toEqual(['database', 'use']);
    expect(texts('When did Melanie paint a sunrise?')).toEqual(['Melanie', 'paint', 'sunrise?']);
    expect(texts("what's the frontend framework")).toEqual(['frontend', 'framework']);
    expect(QUESTION_WORDS.has('which')).toBe(true);
  });
  it('are kept when nothing else remains, when required, and inside identifiers', () => {
    expect(texts('what do you do')).toEqual(['what', 'do', 'you', 'do']);
    expect(parseQuery('what do you do').empty).toBe(false);
    expect(texts('+what database')).toEqual(['what', 'database']);
    expect(texts('doWork database')).toEqual(['doWork', 'database']);
  });
});
