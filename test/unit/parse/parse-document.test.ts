import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import type { DocKind } from '../../../src/core/document.js';
import { contentHash } from '../../../src/core/hash.js';
import type { RelPath } from '../../../src/core/paths.js';
import { LineIndex } from '../../../src/core/position.js';
import { dominantEol, normaliseFiles, normaliseTags, parseDocument } from '../../../src/parse/parse-document.js';
import { cpuMs } from '../../support/scaling.js';

const parse = (
  text: string,
  kind: DocKind = 'entry',
  path = 'memory/entries/use-lunr.md',
  chunking?: { maxLines: number; maxChars: number },
) => parseDocument({ path: path as RelPath, kind, text, ...(chunking ? { chunking } : {}) });

describe('parseDocument', () => {
  it('keeps the text between a leading --- rule and a later one in its chunks (R22)', () => {
    for (const body of [
      'We moved the billing webhook to the queue service.\nIt retries five times.',
      '- the kafka consumer lags at night\n- restart it with the runbook',
    ]) {
      const text = `---\n${body}\n---\n\n# Later\n\nMore text here.\n`;
      for (const lineScanner of [true, false]) {
        const doc = parseDocument({ path: 'memory/notes/n.md' as RelPath, kind: 'note', text, lineScanner });
        const chunked = doc.chunks.map((c) => `${c.headingPath.join(' ')}\n${c.text}`).join('\n');
        expect(doc.frontMatter).toBeUndefined();
        expect(chunked).toContain(body.split('\n')[0]!.replace(/^- /, ''));
        expect(chunked).toContain('More text here.');
        expect(doc.diagnostics.map((d) => d.severity)).toEqual(['hint']);
      }
    }
  });

  it('composes front-matter, headings, links, chunks, eol and hash', () => {
    const text =
      '---\nid: use-lunr\ntype: decision\ntags: [Search, "#lunr"]\n---\n\n# Use lunr\n\nWe chose lunr, see [[bm25]] and [notes](../notes.md).\n';
    const doc = parse(text);
    expect(doc.text).toBe(text);
    expect(doc.hasBom).toBe(false);
    expect(doc.eol).toBe('\n');
    expect(doc.contentHash).toBe(contentHash(text));
    expect(doc.frontMatter?.data).toEqual({ id: 'use-lunr', type: 'decision', tags: ['Search', '#lunr'] });
    expect(doc.headings.map((h) => [h.depth, h.text, h.range.start.line])).toEqual([[1, 'Use lunr', 6]]);
    expect(doc.links.map((l) => [l.kind, l.target])).toEqual([
      ['wiki', 'bm25'],
      ['markdown', '../notes.md'],
    ]);
    expect(doc.chunks.map((c) => [c.id, c.startLine, c.endLine, c.headingPath])).toEqual([
      ['memory/entries/use-lunr.md#9', 9, 9, ['Use lunr']],
    ]);
    expect(doc.meta).toEqual({
      id: 'use-lunr',
      type: 'decision',
      title: 'Use lunr',
      tags: ['search', 'lunr'],
      files: [],
    });
    expect(doc.diagnostics).toEqual([]);
  });

  it('B10: BOM, CRLF and LF copies give identical data, body and ids', () => {
    const lf = '---\ntype: decision\n---\nUse lunr.';
    const docs = [lf, `\uFEFF${lf}`, lf.replace(/\n/g, '\r\n'), `\uFEFF${lf.replace(/\n/g, '\r\n')}`].map((t) =>
      parse(t),
    );
    for (const d of docs) {
      expect(d.frontMatter?.data).toEqual({ type: 'decision' });
      expect(d.meta).toEqual(docs[0]!.meta);
      expect(d.chunks).toEqual(docs[0]!.chunks);
      expect(d.contentHash).toBe(docs[0]!.contentHash);
      expect(d.diagnostics).toEqual([]);
    }
    expect(docs[0]!.chunks.map((c) => [c.id, c.text])).toEqual([['memory/entries/use-lunr.md#4', 'Use lunr.']]);
    expect(docs.map((d) => [d.hasBom, d.eol])).toEqual([
      [false, '\n'],
      [true, '\n'],
      [false, '\r\n'],
      [true, '\r\n'],
    ]);
    expect(docs[1]!.text).toBe(lf);
  });

  it('B10: ---toml with CRLF → unsupported-language, no throw, body still chunked', () => {
    const doc = parse('---toml\r\ntype = "decision"\r\n---\r\nUse lunr.');
    expect(doc.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.unsupportedLanguage]);
    expect(doc.frontMatter?.language).toBe('toml');
    expect(doc.headings).toEqual([]);
    expect(doc.chunks.map((c) => [c.startLine, c.text, c.headingPath])).toEqual([[4, 'Use lunr.', []]]);
    expect(doc.meta.id).toBe('use-lunr');
  });

  it('a non-YAML block cannot swallow the body (an opened code fence inside it)', () => {
    const doc = parse('---js\n```\n---\n# Title\n\nbody [[x]]\n');
    expect(doc.headings.map((h) => h.text)).toEqual(['Title']);
    expect(doc.links.map((l) => l.target)).toEqual(['x']);
    expect(doc.chunks.map((c) => c.startLine)).toEqual([6]);
  });

  it('---js is never executed', () => {
    const g = globalThis as { PWNED?: unknown };
    delete g.PWNED;
    const doc = parse('---js\nmodule.exports = (function(){ globalThis.PWNED = 1 })()\n---\nbody\n');
    expect(g.PWNED).toBeUndefined();
    expect(doc.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.unsupportedLanguage]);
    expect(doc.chunks.map((c) => c.text)).toEqual(['body']);
  });

  it('unclosed front-matter keeps the whole text as body', () => {
    const doc = parse('---\ntitle: x\n\n# Heading\n\n- item [[a]]\n');
    expect(doc.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.unclosedFrontMatter]);
    expect(doc.frontMatter).toBeUndefined();
    expect(doc.headings.map((h) => h.text)).toEqual(['Heading']);
    expect(doc.chunks.map((c) => c.text)).toContain('- item [[a]]');
    expect(doc.links.map((l) => l.target)).toEqual(['a']);
  });

  it('B08: same bad text twice → same diagnostics; identical texts never share data', () => {
    const bad = '---\n{}+\n---\nbody';
    expect(parse(bad).diagnostics).toEqual(parse(bad).diagnostics);
    expect(parse(bad).diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.invalidYaml]);
    const t = '---\ntags: [a]\nfiles: [src/a.ts]\n---\nbody';
    const a = parse(t);
    const b = parse(t);
    (a.frontMatter!.data!.tags as string[]).push('leak');
    (a.meta.tags as string[]).push('leak');
    (a.meta.files as { path: string }[]).push({ path: 'x' });
    expect(b.frontMatter!.data!.tags).toEqual(['a']);
    expect(b.meta.tags).toEqual(['a']);
    expect(b.meta.files).toEqual([{ path: 'src/a.ts' }]);
  });

  describe('B11: positions count the front-matter height', () => {
    const bodies = (fmLines: string[]) => {
      const fm = fmLines.length === 0 ? [] : ['---', ...fmLines, '---'];
      return [...fm, '', '# H', '', 'see [x](./missing.md)'];
    };
    const cases: [string, string[]][] = [
      ['0-line', []],
      ['1-line', ['title: a']],
      ['many-line', ['title: a', 'type: note', 'tags:', '  - a', '  - b', 'source:', '  agent: x']],
    ];
    for (const [name, fmLines] of cases) {
      for (const eol of ['\n', '\r\n']) {
        it(`${name} front-matter, ${eol === '\n' ? 'LF' : 'CRLF'}`, () => {
          const lines = bodies(fmLines);
          const linkLine = lines.length - 1; // 0-based
          const doc = parse(lines.join(eol), 'note', 'memory/notes/a.md');
          expect(doc.links).toEqual([
            {
              kind: 'markdown',
              target: './missing.md',
              range: { start: { line: linkLine, character: 4 }, end: { line: linkLine, character: 21 } },
            },
          ]);
          expect(doc.headings[0]!.range.start.line).toBe(linkLine - 2);
          expect(doc.chunks.map((c) => [c.startLine, c.endLine])).toEqual([[linkLine + 1, linkLine + 1]]);
        });
      }
    }
    it('the brief example: link on file line 8 → LSP line 7', () => {
      const doc = parse(
        '---\ntitle: a\ntype: note\n---\n\n# H\n\nsee [x](./missing.md)\n',
        'note',
        'memory/notes/a.md',
      );
      expect(doc.links[0]!.range.start.line).toBe(7);
      expect(doc.chunks[0]!.startLine).toBe(8);
    });
  });

  it('B14: LineIndex on CRLF never points between \\r and \\n', () => {
    const idx = new LineIndex('A\r\nB');
    expect(idx.offsetAt({ line: 0, character: 5 })).toBe(1);
    expect(idx.positionAt(2)).toEqual({ line: 0, character: 1 });
    expect(idx.positionAt(3)).toEqual({ line: 1, character: 0 });
    const doc = parse('# A\r\n\r\nsee [[b]]\r\n', 'note', 'memory/notes/a.md');
    expect(doc.headings[0]!.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 3 } });
    expect(doc.links[0]!.range).toEqual({ start: { line: 2, character: 4 }, end: { line: 2, character: 9 } });
  });

  it('emoji and CJK columns are UTF-16', () => {
    const doc = parse('# 東京 😀\n\n😀😀 [[東京]]\n', 'note', 'memory/notes/a.md');
    expect(doc.headings[0]!.range.end).toEqual({ line: 0, character: 7 });
    expect(doc.links[0]!.range).toEqual({ start: { line: 2, character: 5 }, end: { line: 2, character: 11 } });
  });

  it('eol is the dominant line ending', () => {
    expect(dominantEol('a\r\nb\r\nc\nd')).toBe('\r\n');
    expect(dominantEol('a\nb\r\nc\nd')).toBe('\n');
    expect(dominantEol('abc')).toBe('\n');
  });
});

describe('parseDocument: meta', () => {
  it('entry: front-matter fields, id fallback to the slug, title fallback to the first heading', () => {
    const doc = parse(
      [
        '---',
        'type: error_fix',
        'tags: "Pool, #DB  db timeouts"',
        'files:',
        '  - src/db/pool.ts',
        '  - { path: src/db/conn.ts, relation: modified, lines: [10, 42] }',
        '  - { relation: read }',
        'created: 2026-11-29T14:02:00Z',
        'status: superseded',
        'duplicate_of: other-id',
        'source: { agent: claude-code, session: abc }',
        '---',
        '# Pool exhaustion',
      ].join('\n'),
    );
    expect(doc.meta).toEqual({
      id: 'use-lunr',
      type: 'error_fix',
      title: 'Pool exhaustion',
      tags: ['pool', 'db', 'timeouts'],
      files: [{ path: 'src/db/pool.ts' }, { path: 'src/db/conn.ts', relation: 'modified', lines: [10, 42] }],
      date: '2026-11-29T14:02:00Z',
      status: 'superseded',
      duplicateOf: 'other-id',
      agent: 'claude-code',
    });
  });

  it('entry: an empty id falls back to the slug; a title wins over the heading', () => {
    expect(parse('---\nid: ""\ntitle: T\n---\n# H\n').meta).toMatchObject({ id: 'use-lunr', title: 'T' });
    expect(parse('---\nid: 42\n---\n').meta.id).toBe('use-lunr');
    expect(parse('---\nid: real-id\n---\n').meta.id).toBe('real-id');
  });

  it('playbook: category, priority, active', () => {
    const doc = parse(
      '---\nid: pb-1\ncategory: gotchas\npriority: 3\nactive: false\ncreated: 2024-03-10\n---\nbody',
      'playbook',
      'memory/playbook/pb.md',
    );
    expect(doc.meta).toEqual({
      id: 'pb-1',
      category: 'gotchas',
      priority: 3,
      active: false,
      date: '2024-03-10',
      tags: [],
      files: [],
    });
  });

  it('daily: the date comes from the file name (B06: in any timezone); inline #tags are collected', () => {
    const before = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      const doc = parse(
        '---\ndate: 2024-03-10\n---\n# 2024-03-10\n\n- 09:00 [decision] use #lunr for #Search\n',
        'daily',
        'memory/2024-03-10.md',
      );
      expect(doc.meta).toEqual({ date: '2024-03-10', tags: ['lunr', 'search'], files: [] });
      expect(doc.frontMatter?.data).toEqual({ date: '2024-03-10' });
      expect(parse('x', 'daily', 'memory/2024-02-30.md').meta).toEqual({ tags: [], files: [] });
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('other kinds: only tags from the front-matter', () => {
    expect(parse('---\ntags: [A]\ntitle: x\n---\n#inline\n', 'long_term', 'memory/MEMORY.md').meta).toEqual({
      tags: ['a'],
      files: [],
    });
  });

  it('normaliseTags and normaliseFiles', () => {
    expect(normaliseTags(['#A', ' b ', 'a', 7, null, ''])).toEqual(['a', 'b', '7']);
    expect(normaliseTags('x, y z,,#x')).toEqual(['x', 'y', 'z']);
    expect(normaliseTags({ a: 1 })).toEqual([]);
    expect(normaliseFiles('one.ts')).toEqual([{ path: 'one.ts' }]);
    expect(normaliseFiles([{ path: 'a.ts', lines: '3-9' }, { path: 'b.ts', lines: 4 }, 5])).toEqual([
      { path: 'a.ts', lines: [3, 9] },
      { path: 'b.ts', lines: [4] },
    ]);
  });
});

describe('parseDocument: robustness', () => {
  it('uses the chunking options', () => {
    const text = Array.from({ length: 6 }, (_, i) => `- ${i}`).join('\n');
    expect(parse(text, 'note', 'n.md', { maxLines: 2, maxChars: 1200 }).chunks.map((c) => c.startLine)).toEqual([
      1, 3, 5,
    ]);
  });

  it('large and hostile texts stay fast (line-based path)', () => {
    const big: string[] = [];
    for (let i = 0; i < 7500; i++)
      big.push(
        i % 50 === 0
          ? `## S${i}`
          : i % 5 === 0
            ? ''
            : `- note ${i} [[l-${i}]] [x](./f${i}.md) ${'lorem ipsum dolor sit amet '.repeat(3)}`,
      );
    for (const text of [
      big.join('\n'),
      '>'.repeat(64_000),
      '[[x]] '.repeat(40_000),
      '- '.repeat(50_000),
      `${'a'.repeat(5_000_000)}`,
    ]) {
      let doc!: ReturnType<typeof parse>;
      expect(cpuMs(() => (doc = parse(text, 'note', 'n.md')))).toBeLessThan(3000);
      expect(doc.diagnostics).toEqual([]);
      for (const c of doc.chunks) expect(c.text.length).toBeLessThanOrEqual(1200);
    }
    const doc = parse(big.join('\n'), 'note', 'n.md');
    expect(doc.headings).toHaveLength(150);
    expect(doc.links.length).toBe(2 * 6000); // 150 heading lines, 1350 blank lines, 6000 items
  });

  it('property: never throws on random strings; chunk lines lie within the file', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '\r',
        '\n',
        '\r\n',
        '\uFEFF',
        '---',
        '---js',
        '[[',
        ']]',
        '`',
        '```',
        '#',
        '# ',
        '- ',
        '> ',
        '<!--',
        '-->',
        '|',
        '😀',
        '東',
        '\uD800',
        ':',
        'a: 1',
        '[x](',
        ')',
        ' ',
        '\t',
      ),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.constantFrom<DocKind>('entry', 'daily', 'note', 'playbook'),
        (parts, kind) => {
          const text = parts.join('');
          const doc = parseDocument({
            path: 'memory/2024-01-01.md' as RelPath,
            kind,
            text,
            chunking: { maxLines: 3, maxChars: 40 },
          });
          const lineCount = new LineIndex(doc.text).lineCount;
          for (const c of doc.chunks) {
            expect(c.startLine).toBeGreaterThanOrEqual(1);
            expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
            expect(c.endLine).toBeLessThanOrEqual(lineCount);
            expect(c.text.length).toBeLessThanOrEqual(40);
          }
          expect(new Set(doc.chunks.map((c) => c.id)).size).toBe(doc.chunks.length);
          expect(doc.diagnostics.some((d) => d.code === DiagnosticCode.parseFailed)).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a non-string text does not throw', () => {
    const doc = parseDocument({ path: 'a.md' as RelPath, kind: 'note', text: undefined as unknown as string });
    expect(doc.chunks).toEqual([]);
  });
});

describe('parseDocument: front-matter delimiters with trailing blanks', () => {
  it('a code fence opened inside the block cannot swallow the body', () => {
    const doc = parse('--- \n```\n---\t\n# Title\n\nbody\n', 'note', 'n.md');
    expect(doc.frontMatter?.language).toBe('yaml');
    expect(doc.headings.map((h) => [h.text, h.range.start.line])).toEqual([['Title', 3]]);
    expect(doc.chunks.map((c) => c.startLine)).toEqual([6]);
  });
});
