// bodyOf: the one owner of "text after front-matter", over documents parsed by the real parser.
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../../../src/core/document.js';
import { toRelPath } from '../../../src/core/paths.js';
import { parseDocument } from '../../../src/parse/parse-document.js';

const parse = (text: string) => parseDocument({ path: toRelPath('entries/a.md'), kind: 'entry', text });

describe('bodyOf', () => {
  it('starts on the line after the closing delimiter', () => {
    expect(bodyOf(parse('---\nid: a\ntype: learning\n---\nUse lunr.\n'))).toBe('Use lunr.\n');
  });
  it('keeps blank lines that open the body and CRLF line ends', () => {
    expect(bodyOf(parse('---\r\nid: a\r\n---\r\n\r\nUse lunr.\r\n'))).toBe('\r\nUse lunr.\r\n');
  });
  it('is the whole text without front-matter, and for an unclosed block', () => {
    expect(bodyOf(parse('# Title\n\nText\n'))).toBe('# Title\n\nText\n');
    expect(bodyOf(parse('---\nid: a\nno close\n'))).toBe('---\nid: a\nno close\n');
  });
  it('is empty when nothing follows the block', () => {
    expect(bodyOf(parse('---\nid: a\n---'))).toBe('');
    expect(bodyOf(parse('---\nid: a\n---\n'))).toBe('');
  });
  it('covers a block in another language too (not evaluated, still not body)', () => {
    expect(bodyOf(parse('---js\n{ a: 1 }\n---\nBody\n'))).toBe('Body\n');
  });
});
