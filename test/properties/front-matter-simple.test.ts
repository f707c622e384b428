// The cheap front-matter path (parse/front-matter-simple.ts) is only taken when it gives what the
// full parse gives (gray-matter splitting, the `yaml` core schema, node ranges): for generated
// blocks (simple ones, and ones mixing in what the scanner must refuse: comments, nesting, tags,
// anchors, escapes, number forms, duplicate keys, odd spacing) and for every file of
// fixtures/corpora, parseFrontMatter with the cheap path allowed equals parseFrontMatter with it
// off: data, node ranges, diagnostics, body offsets. The generator must also produce enough blocks
// the cheap path takes for the property to bite.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../src/core/paths.js';
import { parseFrontMatter } from '../../src/parse/front-matter.js';
import { parseSimpleYaml } from '../../src/parse/front-matter-simple.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'fixtures', 'corpora');
const P = 'x.md' as RelPath;

function both(text: string) {
  return { cheap: parseFrontMatter(text, P), full: parseFrontMatter(text, P, undefined, { simple: false }) };
}

/** Whether the cheap path takes the block of `text` (the same delimiters front-matter.ts finds). */
function takes(text: string): boolean {
  const t = text.replace(/^\uFEFF/, '');
  const m = /^---[ \t]*\r?\n([\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(t);
  return m !== null && parseSimpleYaml(m[1] ?? '') !== undefined;
}

const TRICKY = fc.constantFrom(
  'deploy',
  'some words here',
  'café au lait',
  'データ',
  'Übergabe',
  '2026-01-05',
  '2026-01-05T10:00:00Z',
  '12:30',
  'v2.3',
  '1.0.0',
  '42',
  '0',
  '007',
  '0x1F',
  '0o17',
  '1e5',
  '3.14',
  '.5',
  '-1',
  '+1',
  '~',
  '~x',
  'null',
  'Null',
  'NULL',
  'true',
  'False',
  'TRUE',
  'yes',
  'no',
  'on',
  '.inf',
  '-.inf',
  '.NaN',
  "it's",
  '"quoted words"',
  "'single'",
  '""',
  "''",
  '"a\\"b"',
  '"tab\\there"',
  "'it''s'",
  'a: b',
  'a #c',
  'issue#1',
  '#tag',
  'a, b',
  '[x]',
  '{a: 1}',
  '&anc',
  '*ref',
  '!tag x',
  '!!str 5',
  '|',
  '>',
  '@at',
  '%p',
  '`bt`',
  'x?',
  '? x',
  '- x',
  '-x',
  'a  b',
  'https://example.com/a?b=c',
  '(note)',
  'a=b',
  'ends:',
  'a::b',
  '12345678901234567890',
  '1234567890123',
  '__proto__',
  'x\ty',
  'a "b" c',
  "a'b",
  '/abs/path.md',
  './rel',
  '$HOME',
  '+',
);
/** Values the cheap path takes (most generated lines), so that whole blocks are often simple. */
const SIMPLE = fc.constantFrom(
  'deploy',
  'some words here',
  'café au lait',
  'データ',
  '2026-01-05',
  '2026-01-05T10:00:00Z',
  'v2.3',
  '42',
  'null',
  'true',
  'no',
  "it's",
  '"quoted words"',
  "'single'",
  'issue#1',
  'a, b',
  'https://example.com/a?b=c',
  '(note)',
);
const VALUE = fc.oneof({ weight: 5, arbitrary: SIMPLE }, { weight: 2, arbitrary: TRICKY });
const SIMPLE_KEY = fc.constantFrom('id', 'type', 'title', 'tags', 'created', 'aliases', 'valid-until', 'review_after');
const ITEM = fc.constantFrom(
  'a',
  'deploy',
  'two words',
  'café',
  '42',
  'true',
  'null',
  '~',
  '"q"',
  "'s'",
  'x:y',
  'a: b',
  '#t',
  'a#b',
  '1.5',
  '-',
  '- a',
  '',
  '[n]',
  '{m}',
  'x,y',
  '2026-01-05',
);
const KEY = fc.constantFrom(
  'id',
  'type',
  'title',
  'tags',
  'created',
  'aliases',
  'valid-until',
  'review_after',
  '__proto__',
  'constructor',
  'true',
  'null',
  'Yes',
  'a b',
  '1a',
  'x',
  '-k',
  '"q"',
  'k~/',
);

const LINES = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(SIMPLE_KEY, VALUE).map(([k, v]) => [`${k}: ${v}`]) },
  { weight: 2, arbitrary: fc.tuple(KEY, VALUE).map(([k, v]) => [`${k}: ${v}`]) },
  { weight: 1, arbitrary: fc.tuple(KEY, VALUE).map(([k, v]) => [`${k}:${v}`]) },
  { weight: 1, arbitrary: fc.tuple(KEY, VALUE).map(([k, v]) => [`${k}:   ${v}  `]) },
  { weight: 1, arbitrary: fc.tuple(KEY, VALUE).map(([k, v]) => [`${k}: ${v} # note`]) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(KEY, fc.array(ITEM, { maxLength: 4 }), fc.constantFrom(', ', ',', ' , '), fc.constantFrom('', ' '))
      .map(([k, items, sep, pad]) => [`${k}: [${pad}${items.join(sep)}${pad}]`]),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(KEY, fc.array(ITEM, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '  ', '    '))
      .map(([k, items, indent]) => [`${k}:`, ...items.map((i) => `${indent}- ${i}`)]),
  },
  { weight: 2, arbitrary: KEY.map((k) => [`${k}:`]) },
  { weight: 1, arbitrary: KEY.map((k) => [`${k}:  `]) },
  { weight: 1, arbitrary: fc.constant(['']) },
  { weight: 1, arbitrary: fc.constantFrom(['# comment'], ['  '], ['\t'], ['k:\n  sub: x'], ['  - stray'], ['...']) },
  { weight: 1, arbitrary: fc.constantFrom(['k: |', '  text'], ['k: >', '  folded'], ['k: "multi', '  line"']) },
  { weight: 1, arbitrary: fc.constantFrom(['a: &x v', 'b: *x'], ['k:', '- a', '', '- b'], ['k:', '  - a', '   - b']) },
);

const BLOCK = fc.tuple(
  fc.array(LINES, { maxLength: 6 }),
  fc.constantFrom('\n', '\r\n'),
  fc.boolean(),
  fc.constantFrom('', 'yaml', ' '),
);

describe('cheap front-matter path = full parse', () => {
  it('on generated blocks (and the cheap path is taken often)', () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(BLOCK, ([groups, eol, bom, lang]) => {
        const body = groups.flat().join(eol);
        const text = `${bom ? '\uFEFF' : ''}---${lang}${eol}${body}${body ? eol : ''}---${eol}# Body${eol}`;
        runs++;
        if (takes(text)) taken++;
        const { cheap, full } = both(text);
        expect(cheap).toEqual(full);
        // Same key order in the data (the editor lists properties in it).
        expect(Object.keys(cheap.frontMatter?.data ?? {})).toEqual(Object.keys(full.frontMatter?.data ?? {}));
      }),
      { numRuns: 300 },
    );
    expect(taken / runs).toBeGreaterThan(0.1);
  });

  it('on the typical shapes of memory files', () => {
    const texts = [
      '---\nid: e-1\ntype: decision\ntitle: some words here\ntags: [a, b]\ncreated: 2026-01-01\n---\n\nbody\n',
      '---\naliases:\n  - Home\n  - Start\ntags:\n- x\n---\n# Home\n',
      '---\nstatus: superseded\nsupersedes: [e-2]\nvalid_until: 2026-12-31\n---\n',
      '---\r\ntitle: "Quoted: title"\r\ncount: 3\r\n---\r\n',
      '---\n---\n',
      '---\n\n---\n',
    ];
    for (const text of texts) {
      expect(takes(text)).toBe(true);
      const { cheap, full } = both(text);
      expect(cheap).toEqual(full);
    }
  });

  it('on every file of fixtures/corpora', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(md|markdown)$/i.test(name)) files.push(p);
      }
    };
    walk(CORPORA);
    expect(files.length).toBeGreaterThan(20);
    let withBlock = 0;
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const { cheap, full } = both(text);
      if (full.frontMatter) withBlock++;
      expect(cheap, relative(CORPORA, f)).toEqual(full);
    }
    expect(withBlock).toBeGreaterThan(0);
  });
});
