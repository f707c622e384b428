import { cpuMs, growthRatio } from '../../support/scaling.js';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../src/core/hash.js';
import type { RelPath } from '../../../src/core/paths.js';
import { CHUNKER_VERSION, chunkDocument, hardSplit, resolveChunkOptions } from '../../../src/parse/chunk.js';
import type { ChunkOptions } from '../../../src/parse/chunk.js';

const P = 'memory/MEMORY.md' as RelPath;
const chunk = (text: string, options?: Partial<ChunkOptions>, bodyStartLine = 0) =>
  chunkDocument({ path: P, kind: 'long_term', text, bodyStartLine, ...(options ? { options } : {}) });
const spans = (text: string, options?: Partial<ChunkOptions>) =>
  chunk(text, options).map((c) => [c.startLine, c.endLine]);

describe('chunk', () => {
  it('exports a version string', () => {
    expect(typeof CHUNKER_VERSION).toBe('string');
    expect(CHUNKER_VERSION.length).toBeGreaterThan(0);
  });

  it('never crosses a heading and carries the heading path', () => {
    const text = '# A\n\npara one\n\n## B\n\n- x\n- y\n\n### C\n\ntext c\n\n## D\n\ntext d\n';
    const cs = chunk(text);
    expect(cs.map((c) => [c.startLine, c.endLine, c.headingPath])).toEqual([
      [3, 3, ['A']],
      [7, 8, ['A', 'B']],
      [12, 12, ['A', 'B', 'C']],
      [16, 16, ['A', 'D']],
    ]);
    expect(cs[1]!.text).toBe('- x\n- y');
  });

  it('groups consecutive items of one list up to maxLines lines', () => {
    const items = Array.from({ length: 12 }, (_, i) => `- item ${i + 1}`).join('\n');
    expect(spans(items)).toEqual([
      [1, 5],
      [6, 10],
      [11, 12],
    ]);
    expect(spans(items, { maxLines: 3 })).toEqual([
      [1, 3],
      [4, 6],
      [7, 9],
      [10, 12],
    ]);
  });

  it('groups by maxChars too, and keeps an item with its nested lines', () => {
    const text = '- a\n  - a1\n  - a2\n- b\n- c\n- d\n';
    expect(spans(text)).toEqual([
      [1, 5],
      [6, 6],
    ]);
    const long = ['- ' + 'x'.repeat(50), '- ' + 'y'.repeat(50), '- ' + 'z'.repeat(50)].join('\n');
    expect(spans(long, { maxChars: 110 })).toEqual([
      [1, 2],
      [3, 3],
    ]);
  });

  it('does not group items of two different lists', () => {
    expect(spans('- a\n- b\n\n1. one\n2. two\n')).toEqual([
      [1, 2],
      [4, 5],
    ]);
    expect(spans('- a\n- b\n+ c\n')).toEqual([
      [1, 2],
      [3, 3],
    ]);
  });

  it('paragraphs, quotes and code blocks are their own chunks, split by lines when long', () => {
    const para = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(spans(`${para}\n\n> q1\n> q2\n\n\`\`\`\ncode\n\`\`\`\n`)).toEqual([
      [1, 5],
      [6, 10],
      [11, 12],
      [14, 15],
      [17, 19],
    ]);
  });

  it('blank lines, bare HTML comments, thematic breaks and front-matter are not content', () => {
    const text = '---\ntitle: x\n---\n\n<!-- hidden -->\n\n<!--\nmulti\n-->\n\n---\n\ntext\n\n<div>html</div>\n';
    expect(chunk(text, undefined, 3).map((c) => [c.startLine, c.text])).toEqual([
      [13, 'text'],
      [15, '<div>html</div>'],
    ]);
  });

  it('hard-splits a line longer than maxChars; pieces share the line and get unique ids', () => {
    const line = 'word '.repeat(100).trim(); // 499 chars
    const cs = chunk(`intro\n\n${line}\n`, { maxChars: 120 });
    expect(cs[0]!.id).toBe(`${P}#1`);
    const pieces = cs.slice(1);
    expect(pieces.length).toBeGreaterThan(4);
    expect(pieces.every((c) => c.startLine === 3 && c.endLine === 3)).toBe(true);
    expect(pieces.map((c) => c.id)).toEqual(pieces.map((_, i) => (i === 0 ? `${P}#3` : `${P}#3-${i + 1}`)));
    expect(pieces.map((c) => c.text).join('')).toBe(line);
    expect(Math.max(...cs.map((c) => c.text.length))).toBeLessThanOrEqual(120);
    expect(new Set(cs.map((c) => c.id)).size).toBe(cs.length);
  });

  it('hardSplit never separates a surrogate pair', () => {
    const s = '😀'.repeat(100);
    const parts = hardSplit(s, 17);
    expect(parts.join('')).toBe(s);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(17);
      expect(/^(?:[\uD800-\uDBFF][\uDC00-\uDFFF])+$/.test(p)).toBe(true);
    }
  });

  it('text is the source lines with \\n, hash is sha256(text), id is path#startLine', () => {
    const crlf = '# T\r\n\r\n- a\r\n- b\r\n';
    const [c] = chunk(crlf);
    expect(c).toMatchObject({
      id: `${P}#3`,
      path: P,
      kind: 'long_term',
      startLine: 3,
      endLine: 4,
      text: '- a\n- b',
      headingPath: ['T'],
    });
    expect(c!.hash).toBe(sha256('- a\n- b'));
    expect(chunk(crlf)).toEqual(chunk(crlf.replace(/\r\n/g, '\n')));
  });

  it('no chunk exceeds the limits', () => {
    const text = Array.from({ length: 300 }, (_, i) =>
      i % 7 === 0 ? '' : `${'- '.repeat(i % 2)}${'abc '.repeat(i % 97)}`,
    ).join('\n');
    for (const c of chunk(text, { maxLines: 4, maxChars: 200 })) {
      expect(c.text.length).toBeLessThanOrEqual(200);
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(4);
      expect(c.text.trim()).not.toBe('');
    }
  });

  it('clamps silly options', () => {
    expect(resolveChunkOptions({ maxLines: 0, maxChars: 1 })).toEqual({ maxLines: 1, maxChars: 16 });
    expect(resolveChunkOptions(undefined)).toEqual({ maxLines: 5, maxChars: 1200 });
  });
});

describe('chunk: speed and size', () => {
  it('a 7,500-line, ~627 KB file chunks, and chunking time grows linearly with the file', () => {
    const make = (n: number) => {
      const lines: string[] = [];
      for (let i = 0; i < n; i++) {
        if (i % 50 === 0) lines.push(`## Section ${i}`);
        else if (i % 5 === 0) lines.push('');
        else
          lines.push(
            `- note ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(3)}[[link-${i}]]`.slice(0, 106),
          );
      }
      return lines.join('\n');
    };
    const text = make(7500);
    expect(text.split('\n').length).toBe(7500);
    expect(text.length).toBeGreaterThan(560_000);
    expect(chunk(text).length).toBeGreaterThan(1000);
    expect(growthRatio(make, chunk, 1000)).toBeLessThan(24);
  });

  it('a 5 MB single-line file does not blow up', () => {
    const text = JSON.stringify(Array.from({ length: 120_000 }, (_, i) => ({ k: i, v: `value-${i}` }))).slice(
      0,
      5_000_000,
    );
    let cs!: ReturnType<typeof chunk>;
    expect(cpuMs(() => (cs = chunk(text)))).toBeLessThan(3000);
    expect(cs.length).toBe(Math.ceil(text.length / 1200));
    expect(cs.every((c) => c.startLine === 1 && c.text.length <= 1200)).toBe(true);
    expect(new Set(cs.map((c) => c.id)).size).toBe(cs.length);
  });
});

describe('heading-only sections', () => {
  it('a heading with no content under it is a chunk; a heading with content is not', async () => {
    const { parseDocument } = await import('../../../src/parse/parse-document.js');
    const text =
      '# 2026-11-20\n\n## 09:00 Deployed narwhal service\n\n## 10:00 Rolled back platypus release\n\n- detail line\n';
    const doc = parseDocument({ path: 'memory/2026-11-20.md' as never, kind: 'daily', text });
    expect(doc.chunks.map((c) => [c.startLine, c.endLine, c.text])).toEqual([
      [3, 3, '## 09:00 Deployed narwhal service'],
      [7, 7, '- detail line'],
    ]);
    expect(doc.chunks[0]!.headingPath).toEqual(['2026-11-20', '09:00 Deployed narwhal service']);
    const only = parseDocument({ path: 'h.md' as never, kind: 'note', text: '# Heading only words quokka\n' });
    expect(only.chunks.map((c) => c.text)).toEqual(['# Heading only words quokka']);
  });
});
