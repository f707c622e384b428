// WordPiece tokenizer over a tiny inline vocabulary: normalisation, pre-tokenisation, greedy
// longest-match pieces, [UNK], specials and truncation. Reference ids against the real vocabulary
// and @huggingface/tokenizers are checked in test/integration/embed/embedder.test.ts.
import { growthRatio } from '../../../support/scaling.js';
import { describe, expect, it } from 'vitest';
import { bertNormalize, bertPreTokenize, WordPieceTokenizer } from '../../../../src/indexes/embed/wordpiece.js';

const VOCAB =
  [
    '[PAD]',
    '[UNK]',
    '[CLS]',
    '[SEP]',
    '[MASK]',
    'the',
    'data',
    '##base',
    'pool',
    'is',
    'ex',
    '##haus',
    '##ted',
    'un',
    '##aff',
    '##able',
    ',',
    '.',
    '!',
    '(',
    ')',
    '_',
    '$',
    'cafe',
    'naive',
    '中',
    '文',
    'get',
    '##user',
    'a',
    '##b',
    '##c',
  ].join('\n') + '\n';
const tok = WordPieceTokenizer.fromVocabText(VOCAB);
const id = (t: string) => tok.tokenToId(t)!;

describe('bertNormalize', () => {
  it('lowercases, strips accents and maps whitespace to spaces', () => {
    expect(bertNormalize('Café\tNAÏVE\nRésumé')).toBe('cafe naive resume');
  });
  it('drops control characters (\\v, \\f, NUL, zero-width) and U+FFFD, keeps \\t\\n\\r as spaces', () => {
    expect(bertNormalize('a\u000bb\u000cc\u0000d\u200be\ufffdf')).toBe('abcdef');
    expect(bertNormalize('a\r\nb')).toBe('a  b');
  });
  it('pads CJK ideographs with spaces', () => {
    expect(bertNormalize('中文x')).toBe(' 中  文 x');
  });
});

describe('bertPreTokenize', () => {
  it('splits on whitespace and isolates every punctuation character, ASCII symbols included', () => {
    expect(bertPreTokenize('get_user(id), $5!')).toEqual(['get', '_', 'user', '(', 'id', ')', ',', '$', '5', '!']);
    expect(bertPreTokenize('a+b=c<d>e^f`g|h~i')).toEqual([
      'a',
      '+',
      'b',
      '=',
      'c',
      '<',
      'd',
      '>',
      'e',
      '^',
      'f',
      '`',
      'g',
      '|',
      'h',
      '~',
      'i',
    ]);
    expect(bertPreTokenize('  x   y ')).toEqual(['x', 'y']);
  });
});

describe('WordPieceTokenizer', () => {
  it('ids are 0-based line numbers; the specials are found', () => {
    expect([tok.padId, tok.unkId, tok.clsId, tok.sepId]).toEqual([0, 1, 2, 3]);
    expect(tok.vocabSize).toBe(32);
  });

  it('greedy longest-match-first with ## continuations', () => {
    expect(tok.tokenizeToIds('Database pool is exhausted.')).toEqual([
      id('data'),
      id('##base'),
      id('pool'),
      id('is'),
      id('ex'),
      id('##haus'),
      id('##ted'),
      id('.'),
    ]);
    expect(tok.tokenizeToIds('unaffable')).toEqual([id('un'), id('##aff'), id('##able')]);
  });

  it('a word that cannot be fully split becomes a single [UNK]', () => {
    expect(tok.tokenizeToIds('the databasex pool')).toEqual([id('the'), tok.unkId, id('pool')]);
    expect(tok.tokenizeToIds('zzz')).toEqual([tok.unkId]);
  });

  it('words longer than maxInputCharsPerWord are [UNK]', () => {
    const small = WordPieceTokenizer.fromVocabText(VOCAB, { maxInputCharsPerWord: 3 });
    expect(small.tokenizeToIds('abc abcc')).toEqual([id('a'), id('##b'), id('##c'), small.unkId]);
  });

  it('CJK characters are single tokens; accents fold (café → cafe)', () => {
    expect(tok.tokenizeToIds('中文')).toEqual([id('中'), id('文')]);
    expect(tok.tokenizeToIds('CAFÉ naïve')).toEqual([id('cafe'), id('naive')]);
  });

  it('literal special tokens map to their ids, as HF added tokens do', () => {
    expect(tok.tokenizeToIds('the [SEP] pool[MASK]')).toEqual([id('the'), tok.sepId, id('pool'), id('[MASK]')]);
  });

  it('encode wraps in [CLS] … [SEP] and truncates to maxLength in all', () => {
    expect(tok.encode('the pool')).toEqual({ ids: [tok.clsId, id('the'), id('pool'), tok.sepId], truncated: false });
    const long = 'the pool '.repeat(300);
    const e = tok.encode(long);
    expect(e.ids).toHaveLength(256);
    expect(e.truncated).toBe(true);
    expect(e.ids[0]).toBe(tok.clsId);
    expect(e.ids[255]).toBe(tok.sepId);
    expect(tok.encode(long, 10).ids).toHaveLength(10);
    expect(tok.encode('the pool', 4)).toEqual({ ids: [tok.clsId, id('the'), id('pool'), tok.sepId], truncated: false });
  });

  it('empty or whitespace-only text gives [CLS] [SEP]; huge text does not throw and is bounded', () => {
    expect(tok.encode('').ids).toEqual([tok.clsId, tok.sepId]);
    expect(tok.encode(' \n\t ').ids).toEqual([tok.clsId, tok.sepId]);
    const huge = 'the data pool '.repeat(200_000);
    expect(tok.encode(huge).ids).toHaveLength(256);
    // Cost grows linearly with the text, never quadratically (8× the text, far less than 64× the time).
    expect(
      growthRatio(
        (n) => 'the data pool '.repeat(n),
        (t) => tok.encode(t),
        25_000,
      ),
    ).toBeLessThan(24);
    expect(tok.encode('x'.repeat(100_000)).ids).toEqual([tok.clsId, tok.unkId, tok.sepId]);
  });

  it('slicing long text never changes the pieces (same ids as small pieces tokenised one by one)', () => {
    const words = Array.from({ length: 3000 }, (_, i) => ['the', 'database', 'pool', 'unaffable', 'café'][i % 5]!);
    const whole = tok.tokenizeToIds(words.join(' '));
    const oneByOne = words.flatMap((w) => tok.tokenizeToIds(w));
    expect(whole).toEqual(oneByOne);
  });

  it('a vocabulary without the specials is refused', () => {
    expect(() => WordPieceTokenizer.fromVocabText('a\nb\n')).toThrow(/\[CLS\]/);
  });

  it('handles CRLF vocabularies and a BOM', () => {
    const crlf = WordPieceTokenizer.fromVocabText('\uFEFF' + VOCAB.replace(/\n/g, '\r\n'));
    expect(crlf.tokenizeToIds('the pool')).toEqual(tok.tokenizeToIds('the pool'));
  });
});
