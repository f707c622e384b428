import fc from 'fast-check';
import { growthRatio } from '../../support/scaling.js';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../../src/core/position.js';
import { plainHeadingText, plainInline, scanBlocks } from '../../../src/parse/blocks.js';

const scan = (text: string, startLine = 0) =>
  scanBlocks(new LineIndex(text), { startLine }).map((b) => [
    b.type,
    b.startLine,
    b.endLine,
    ...(b.text !== undefined ? [b.depth, b.text] : []),
    ...(b.list ? [b.list] : []),
  ]);

describe('blocks', () => {
  it('headings (ATX and setext), paragraphs, lists, quotes, code, comments, breaks', () => {
    const text = [
      '# One #', // 0
      'para a', // 1
      'para b', // 2
      '', // 3
      'Two', // 4
      '---', // 5
      '- a', // 6
      '  cont', // 7
      '- b', // 8
      '', // 9
      '> q', // 10
      'lazy', // 11
      '', // 12
      '```', // 13
      '# not heading', // 14
      '```', // 15
      '<!-- c -->', // 16
      '***', // 17
      '1. x', // 18
      '2) y', // 19
    ].join('\n');
    expect(scan(text)).toEqual([
      ['heading', 0, 0, 1, 'One'],
      ['paragraph', 1, 2],
      ['heading', 4, 5, 2, 'Two'],
      ['list-item', 6, 7, 1],
      ['list-item', 8, 8, 1],
      ['blockquote', 10, 11],
      ['code', 13, 15],
      ['comment', 16, 16],
      ['thematic-break', 17, 17],
      ['list-item', 18, 18, 2],
      ['list-item', 19, 19, 3],
    ]);
  });

  it('loose lists stay one list; indented lines after a blank belong to the item', () => {
    expect(scan('- a\n\n  more\n\n- b\n\ntext\n')).toEqual([
      ['list-item', 0, 2, 1],
      ['list-item', 4, 4, 1],
      ['paragraph', 6, 6],
    ]);
  });

  it('a fence inside a list item keeps its blank lines', () => {
    expect(scan('- a\n  ```\n  x\n\n  y\n  ```\n- b\n')).toEqual([
      ['list-item', 0, 5, 1],
      ['list-item', 6, 6, 1],
    ]);
  });

  it('an unclosed fence or comment runs to the end and is kept as content', () => {
    expect(scan('```\ncode\n\nmore')).toEqual([['code', 0, 3]]);
    expect(scan('<!--\nnever closed\n')).toEqual([['html', 0, 2]]);
    expect(scan('<!-- a --> tail')).toEqual([['html', 0, 0]]);
  });

  it('starts after the front-matter', () => {
    expect(scan('---\na: 1\n---\nbody', 3)).toEqual([['paragraph', 3, 3]]);
  });

  it('known headings replace its own detection', () => {
    const idx = new LineIndex('# looks like one\nText\n===\n');
    const blocks = scanBlocks(idx, { headings: [{ startLine: 1, endLine: 2, depth: 1, text: 'Text' }] });
    expect(blocks.map((b) => [b.type, b.startLine, b.endLine])).toEqual([
      ['paragraph', 0, 0],
      ['heading', 1, 2],
    ]);
  });

  it('plain heading text', () => {
    expect(plainHeadingText('Use *lunr* and `onnx` [docs](./d.md) ##')).toBe('Use lunr and onnx docs');
    expect(plainInline('**bold** _it_')).toBe('bold it');
  });

  it('property: blocks are ordered, disjoint and inside the text, for any input', () => {
    const piece = fc.constantFrom(
      '\n',
      '\r\n',
      '\r',
      '- ',
      '1. ',
      '> ',
      '```',
      '~~~',
      '# ',
      '===',
      '---',
      '<!--',
      '-->',
      '  ',
      'word',
      '😀',
      '|',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (parts) => {
        const idx = new LineIndex(parts.join(''));
        let prev = -1;
        for (const b of scanBlocks(idx)) {
          expect(b.startLine).toBeGreaterThan(prev);
          expect(b.endLine).toBeGreaterThanOrEqual(b.startLine);
          expect(b.endLine).toBeLessThan(idx.lineCount);
          prev = b.endLine;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is linear: 8× the lines take far less than 8² the time', () => {
    const make = (n: number) =>
      new LineIndex(
        Array.from({ length: n }, (_, i) => (i % 3 === 0 ? '' : i % 7 === 0 ? '> q' : '- item')).join('\n'),
      );
    expect(growthRatio(make, (idx) => scanBlocks(idx), 25_000)).toBeLessThan(24);
  });
});
