import { describe, expect, it } from 'vitest';
import { growthRatio } from '../../support/scaling.js';
import { isSafeForMarkdownParser, MARKDOWN_LIMITS, parseMarkdown } from '../../../src/parse/markdown.js';

describe('markdown', () => {
  it('parses YAML front-matter as a yaml node and keeps file positions', () => {
    const root = parseMarkdown('---\na: 1\n---\n\n# H\n');
    expect(root.children.map((c) => [c.type, c.position?.start.line, c.position?.start.offset])).toEqual([
      ['yaml', 1, 0],
      ['heading', 5, 14],
    ]);
  });

  it('accepts CRLF front-matter delimiters', () => {
    const root = parseMarkdown('---\r\na: 1\r\n---\r\nbody');
    expect(root.children.map((c) => c.type)).toEqual(['yaml', 'paragraph']);
  });

  it('unist positions are 1-based lines and columns with 0-based offsets', () => {
    const root = parseMarkdown('x\n\n😀 y');
    const p = root.children[1]!.position!;
    expect(p.start).toEqual({ line: 3, column: 1, offset: 3 });
    expect(p.end).toEqual({ line: 3, column: 5, offset: 7 });
  });

  it('isSafeForMarkdownParser: ordinary documents are safe', () => {
    expect(isSafeForMarkdownParser('')).toBe(true);
    expect(isSafeForMarkdownParser('# T\n\n- a\n  - b\n    - c\n\n> q\n> > q2\n\n------------------------\n')).toBe(
      true,
    );
  });

  it('isSafeForMarkdownParser: too large, too deeply nested or one huge block is not', () => {
    expect(isSafeForMarkdownParser('a\n'.repeat(MARKDOWN_LIMITS.maxChars))).toBe(false);
    expect(isSafeForMarkdownParser('>'.repeat(MARKDOWN_LIMITS.maxNesting + 1))).toBe(false);
    expect(isSafeForMarkdownParser('- '.repeat(MARKDOWN_LIMITS.maxNesting + 1) + 'x')).toBe(false);
    expect(isSafeForMarkdownParser('[[x]] '.repeat(2000))).toBe(false);
    // The same amount of text in small paragraphs is fine.
    expect(isSafeForMarkdownParser('[[x]] [[y]]\n\n'.repeat(1000))).toBe(true);
    expect(isSafeForMarkdownParser('line\r\n'.repeat(100))).toBe(true);
  });

  it('the guard refuses the hostile inputs (long runs of unmatched inline openers go to the line scanner)', () => {
    for (const hostile of [
      '>'.repeat(2000),
      '[a]('.repeat(1900),
      '`a'.repeat(3000),
      '*a'.repeat(3000),
      '<a'.repeat(3000),
    ]) {
      expect(isSafeForMarkdownParser(hostile), hostile.slice(0, 8)).toBe(false);
    }
    // A link-heavy note of ordinary size is still parsed by remark.
    expect(
      isSafeForMarkdownParser(
        Array.from({ length: 100 }, (_, i) => `- see [[note-${i}]] and [x](./f${i}.md) *now*`).join('\n'),
      ),
    ).toBe(true);
  });

  it('what the guard lets through parses in about linear time', () => {
    // 4× the input, 7 alternating rounds: linear work costs ≈ 4×, quadratic ≈ 16×. At 8× (linear 8,
    // quadratic 64, bound 24) remark's first measurement in a fresh worker ranged 6–31 (GC landing on
    // the large side), and a clean-clone run failed at 30.8; at 4× it measured 3.8–5.7.
    expect(growthRatio((k) => 'see [a](b) and `c` now. '.repeat(k), parseMarkdown, 20, 4, 7)).toBeLessThan(10);
  });
});
