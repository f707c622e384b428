import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../../src/core/position.js';
import { scanBlocks } from '../../../src/parse/blocks.js';
import { extractFromBlocks, extractFromMdast, toKnownHeadings, wikiTarget } from '../../../src/parse/extract.js';
import { parseMarkdown } from '../../../src/parse/markdown.js';

function viaMdast(text: string, bodyStartLine = 0) {
  return extractFromMdast(parseMarkdown(text), text, new LineIndex(text), bodyStartLine);
}
function viaBlocks(text: string, bodyStartLine = 0) {
  const lines = new LineIndex(text);
  return extractFromBlocks(scanBlocks(lines, { startLine: bodyStartLine }), text, lines);
}
const r = (sl: number, sc: number, el: number, ec: number) => ({
  start: { line: sl, character: sc },
  end: { line: el, character: ec },
});

describe('extract: headings', () => {
  it('depth, plain text and the range of the whole line', () => {
    const text = '# Top *one*\n\ntext\n\n  ## Sub `code` [link](./a.md)\n\nSetext\n===\n';
    const { headings } = viaMdast(text);
    expect(headings).toEqual([
      { depth: 1, text: 'Top one', range: r(0, 0, 0, 11) },
      { depth: 2, text: 'Sub code link', range: r(4, 0, 4, 30) },
      { depth: 1, text: 'Setext', range: r(6, 0, 7, 3) },
    ]);
  });

  it('ignores headings inside code and inside the front-matter region', () => {
    const text = '---\ntitle: x\n---\n```\n# not a heading\n```\n# real\n';
    const { headings } = viaMdast(text, 3);
    expect(headings.map((h) => [h.text, h.range.start.line])).toEqual([['real', 6]]);
  });
});

describe('extract: links', () => {
  it('relative markdown links and definitions; URLs, mailto and anchors are skipped', () => {
    const text = [
      'See [a](./a.md), [b](../b.md#part), [web](https://x.io), [mail](mailto:a@b.c), [top](#top).',
      '',
      '[ref]: ./ref.md',
      '[ext]: http://example.com',
      '',
      '![img](./pic.png)',
    ].join('\n');
    const { links } = viaMdast(text);
    expect(links).toEqual([
      { kind: 'markdown', target: './a.md', range: r(0, 4, 0, 15) },
      { kind: 'markdown', target: '../b.md#part', range: r(0, 17, 0, 34) },
      { kind: 'markdown', target: './ref.md', range: r(2, 0, 2, 15) },
    ]);
  });

  it('wiki-links: [[target]], [[target|label]], [[target#heading]]; [[#heading]] alone is skipped', () => {
    const text = 'Use [[lunr-choice]] and [[db|the DB]] or [[notes#Setup]]; same page: [[#intro]].';
    const { links } = viaMdast(text);
    expect(links).toEqual([
      { kind: 'wiki', target: 'lunr-choice', range: r(0, 4, 0, 19) },
      { kind: 'wiki', target: 'db', range: r(0, 24, 0, 37) },
      { kind: 'wiki', target: 'notes', range: r(0, 41, 0, 56) },
    ]);
    expect(wikiTarget(' a b |x')).toBe('a b');
  });

  it('never inside code or inline code, nor when escaped', () => {
    const text = [
      '`[[inline]]` and \\[[escaped]] and [[real]]',
      '',
      '```',
      '[[fenced]] [x](./fenced.md)',
      '```',
      '',
      '    [[indented-code]]',
    ].join('\n');
    for (const { links } of [viaMdast(text)]) {
      expect(links.map((l) => l.target)).toEqual(['real']);
    }
    expect(viaBlocks(text).links.map((l) => l.target)).toContain('real');
    expect(viaBlocks(text).links.map((l) => l.target)).not.toContain('inline');
    expect(viaBlocks(text).links.map((l) => l.target)).not.toContain('fenced');
  });

  it('finds links in list items, quotes and headings, with wiki-links split by emphasis', () => {
    const text = '- item [[one]]\n  - nested [n](./n.md)\n\n> quote [[two]]\n\n# Head [[three]]\n\nx [[a *b* c]] y';
    expect(viaMdast(text).links.map((l) => [l.kind, l.target, l.range.start.line])).toEqual([
      ['wiki', 'one', 0],
      ['markdown', './n.md', 1],
      ['wiki', 'two', 3],
      ['wiki', 'three', 5],
      ['wiki', 'a *b* c', 7],
    ]);
  });

  it('columns are UTF-16 code units (emoji and CJK)', () => {
    const text = '😀 東京 [[東京-note]] [x](./😀.md)';
    const { links } = viaMdast(text);
    expect(links).toEqual([
      { kind: 'wiki', target: '東京-note', range: r(0, 6, 0, 17) },
      { kind: 'markdown', target: './😀.md', range: r(0, 18, 0, 30) },
    ]);
    expect(text.slice(6, 17)).toBe('[[東京-note]]');
    expect(viaBlocks(text).links).toEqual(links);
  });

  it('CRLF: positions are the same as with LF', () => {
    const lf = '# T\n\nsee [[a]]\n\n- [b](./b.md)\n';
    expect(viaMdast(lf.replace(/\n/g, '\r\n'))).toEqual(viaMdast(lf));
    expect(viaBlocks(lf.replace(/\n/g, '\r\n'))).toEqual(viaBlocks(lf));
  });
});

describe('extract: inline tags', () => {
  it('finds #tags in text, lowercased and unique, not headings, code or anchors', () => {
    const text = '# Heading\n\n- fixed #Bug in #db-pool, again #bug\n- `#notatag` and [x](#anchor) and issue #123\n';
    expect(viaMdast(text).tags).toEqual(['bug', 'db-pool']);
    expect(viaBlocks(text).tags).toEqual(['bug', 'db-pool']);
  });
});

describe('extract: the line-based path agrees with the mdast path on ordinary documents', () => {
  const docs = [
    '# Project\n\nIntro with [[alpha]] and [doc](./doc.md).\n\n## Decisions\n\n- use lunr [[lunr]]\n- use onnx, see [m](../m.md)\n  continued [[beta|B]]\n\n> quoted [[gamma]]\n\n```ts\n[[nope]]\n```\n\n### Deep\n\n1. one [[delta#x]]\n2. two\n\n[def]: ./def.md\n',
    'plain text only\nsecond line\n\n* star [[s]]\n+ plus [[p]]\n',
    '---\ntitle: x\n---\n\n# After FM\n\nbody [[z]]\n',
  ];
  it.each(docs.map((d, i) => [i, d]))('doc %i', (_i, text) => {
    const start = text.startsWith('---') ? 3 : 0;
    const a = viaMdast(text as string, start);
    const b = viaBlocks(text as string, start);
    expect(b.headings).toEqual(a.headings);
    expect(b.links).toEqual(a.links);
    expect(b.tags).toEqual(a.tags);
  });

  it('toKnownHeadings keeps line spans', () => {
    const { headings } = viaMdast('Title\n-----\n\n# Two\n');
    expect(toKnownHeadings(headings)).toEqual([
      { startLine: 0, endLine: 1, depth: 2, text: 'Title' },
      { startLine: 3, endLine: 3, depth: 1, text: 'Two' },
    ]);
  });
});

describe('extract: parity property', () => {
  it('on generated ordinary documents, both paths find the same headings, links and tags', () => {
    const inline = fc.constantFrom(
      'word',
      '[[alpha]]',
      '[[beta|B]]',
      '[l](./l.md)',
      '[w](https://x.io)',
      '#tag',
      '`[[code]]`',
      'end.',
      '東京',
      '😀',
    );
    const textLine = fc.array(inline, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
    const block = fc.oneof(
      textLine.map((t) => [t]),
      fc.tuple(fc.integer({ min: 1, max: 4 }), textLine).map(([d, t]) => [`${'#'.repeat(d)} ${t.replace(/`/g, '')}`]),
      fc.array(textLine, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l) => `- ${l}`)),
      fc.array(textLine, { minLength: 1, maxLength: 2 }).map((ls) => ['```', ...ls, '```']),
      textLine.map((t) => [`> ${t}`]),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 8 }), fc.boolean(), (blocks, crlf) => {
        const text = blocks
          .map((b) => b.join('\n'))
          .join('\n\n')
          .replace(/\n/g, crlf ? '\r\n' : '\n');
        const a = viaMdast(text);
        const b = viaBlocks(text);
        expect(b.headings).toEqual(a.headings);
        expect(b.links).toEqual(a.links);
        expect(b.tags).toEqual(a.tags);
      }),
      { numRuns: 150 },
    );
  });
});
