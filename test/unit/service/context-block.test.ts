import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INJECTION_LABEL, showHidden } from '../../../src/core/injection.js';
import { queryWeights } from '../../../src/indexes/evidence/evidence.js';
import { tokenize } from '../../../src/core/tokenize.js';
import { bestSentences, clipUtf8, renderContextBlock } from '../../../src/service/recall/context-block.js';

const bytes = (s: string) => new TextEncoder().encode(s).length;
const graphemesOf = (s: string) =>
  [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);
/** An unpaired UTF-16 surrogate: what a cut between the two halves of a character leaves. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The block holds no split character: no lone surrogate, and every grapheme of a `N: text` line is a
 * whole grapheme of an input line (as shown: hidden characters escaped), the cut mark `…`, a space,
 * or the injection label. A U+FFFD is fine when the input had one.
 */
function expectWholeCharacters(block: string, inputs: readonly { path: string; text: string }[]) {
  expect(block).not.toMatch(LONE_SURROGATE);
  if (block === '') return;
  const whole = new Set(['…', ' ', ...graphemesOf(INJECTION_LABEL)]);
  for (const it of inputs)
    for (const line of it.text.split('\n')) for (const g of graphemesOf(showHidden(line))) whole.add(g);
  const lines = block.split('\n');
  expect(lines[0]).toBe('### Recalled Context');
  expect(lines.at(-1)).toBe('');
  for (const line of lines.slice(1, -1)) {
    if (line.startsWith('- ')) {
      expect(inputs.some((it) => line === `- ${it.path}` || line.startsWith(`- ${it.path} `))).toBe(true);
      continue;
    }
    const m = /^\d+: (.*)$/su.exec(line);
    expect(m, `a line that is neither a path nor a numbered line: ${JSON.stringify(line)}`).not.toBeNull();
    const split = graphemesOf(m![1]!).filter((g) => !whole.has(g));
    expect(split, `graphemes not in the input: ${JSON.stringify(line)}`).toEqual([]);
  }
}

/** Characters of several code units and code points, where a cut by bytes lands inside one. */
const CLUSTER = fc.constantFrom('👩‍👩‍👧', 'e\u0301', '🇯🇵', 'ก่', '🎉', '東', '\ufffd', ' ');
const ANY_GRAPHEME = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 });

describe('renderContextBlock', () => {
  it('renders most relevant first with the path once per file and the number of every line', () => {
    const items = [
      {
        path: 'memory/MEMORY.md',
        startLine: 3,
        endLine: 4,
        headingPath: ['Memory', 'Decisions'],
        text: '- Use lunr.\n- Use ONNX.',
      },
      { path: 'memory/2026-11-29.md', startLine: 7, endLine: 7, text: `- ${'x'.repeat(500)}` },
    ];
    const r = renderContextBlock(items, 200);
    expect(
      r.text.startsWith(
        '### Recalled Context\n- memory/MEMORY.md\n3: Use lunr.\n4: Use ONNX.\n- memory/2026-11-29.md\n7: xxx',
      ),
    ).toBe(true);
    expect(r.text.trimEnd().endsWith('…')).toBe(true);
    expect(r.bytes).toBe(bytes(r.text));
    expect(r.bytes).toBeLessThanOrEqual(200);
    expect(r.items).toBe(2);
    expect(renderContextBlock(items, 200, { headings: true }).text).toContain('- memory/MEMORY.md (Decisions)\n');
  });

  it('merges adjacent spans of one file, shows repeated text once and keeps the best sentences of a long line', () => {
    const terms = queryWeights(tokenize('kate job promotion'));
    const long = `- Kate: The award show was fun. ${'We talked about outfits for ages. '.repeat(8)}I finally got the promotion at my job last week!`;
    const items = [
      { path: 'memory/2023-05-01.md', startLine: 4, endLine: 4, text: long },
      { path: 'memory/2023-05-01.md', startLine: 5, endLine: 5, text: '- Sam: Congrats on the job, Kate!' },
      { path: 'memory/2023-06-01.md', startLine: 2, endLine: 2, text: '- Sam: Congrats on the job, Kate!' },
    ];
    const r = renderContextBlock(items, 240, { terms });
    expect(r.bytes).toBeLessThanOrEqual(240);
    expect(r.text.match(/memory\/2023-05-01\.md/g)).toHaveLength(1);
    expect(r.text).toContain('4: Kate: The award show was fun.');
    expect(r.text).toContain('I finally got the promotion at my job last week!\n');
    expect(r.text).toContain('… I finally got the promotion');
    expect(r.text).not.toContain('We talked about outfits for ages. We talked');
    expect(r.text).toContain('5: Sam: Congrats');
    expect(r.text.match(/Congrats/g)).toHaveLength(1);
    expect(r.text).not.toContain('2023-06-01');
  });

  it('cuts a single long sentence at a word, never inside a character', () => {
    const s = bestSentences(`${'東京 🎉👩‍👩‍👧 '.repeat(40)}`, 50);
    expect(bytes(s)).toBeLessThanOrEqual(50);
    expect(s.endsWith('…')).toBe(true);
    expect(s).not.toContain('\uFFFD');
    expect([...new Intl.Segmenter().segment(s)].every((g) => !/^(?:\u200d|\ufe0f)/.test(g.segment))).toBe(true);
  });

  it('never exceeds the budget and never splits a character (emoji, CJK)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.oneof(CLUSTER, ANY_GRAPHEME), maxLength: 80 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 400 }),
        (texts, budget) => {
          const inputs = texts.map((t, i) => ({ path: `m/${i}.md`, startLine: 1, endLine: 1, text: `東京 🎉 ${t}` }));
          const r = renderContextBlock(inputs, budget);
          expect(bytes(r.text)).toBeLessThanOrEqual(budget);
          expectWholeCharacters(r.text, inputs);
        },
      ),
    );
    expect(clipUtf8('a🎉b', 3)).toBe('a');
    expect(clipUtf8('東京', 4)).toBe('東');
  });

  it('lets the best line of a lower-ranked item in before the unmatched lines of the first', () => {
    const terms = queryWeights(tokenize('kate promotion nurse'));
    const items = [
      {
        path: 'memory/a.md',
        startLine: 1,
        endLine: 1,
        text: '- Kate: the promotion party was loud.',
        around: [
          { line: 1, text: '- Kate: the promotion party was loud.' },
          { line: 2, text: `- Sam: ${'We danced all night long. '.repeat(6)}` },
          { line: 3, text: `- Ann: ${'The music was great. '.repeat(6)}` },
        ],
      },
      {
        path: 'memory/b.md',
        startLine: 9,
        endLine: 9,
        text: '- Kate: I got the promotion to head nurse.',
        around: [{ line: 9, text: '- Kate: I got the promotion to head nurse.' }],
      },
    ];
    const r = renderContextBlock(items, 260, { terms });
    expect(r.bytes).toBeLessThanOrEqual(260);
    expect(r.text).toContain('- memory/b.md\n9: Kate: I got the promotion to head nurse.\n');
    expect(r.text.indexOf('- memory/a.md')).toBeLessThan(r.text.indexOf('- memory/b.md'));
    expect(r.items).toBe(2);
  });

  it('uses the lines around a chunk with their own numbers (gaps kept) and merges them in line order', () => {
    const terms = queryWeights(tokenize('rota'));
    const r = renderContextBlock(
      [
        {
          path: 'memory/c.md',
          startLine: 7,
          endLine: 7,
          text: '- Kate plans the rota.',
          around: [
            { line: 4, text: '- Sam asked about work.' },
            { line: 7, text: '- Kate plans the rota.' },
            { line: 8, text: '- She trains new nurses.' },
          ],
        },
      ],
      800,
      { terms },
    );
    expect(r.text).toBe(
      '### Recalled Context\n- memory/c.md\n4: Sam asked about work.\n7: Kate plans the rota.\n8: She trains new nurses.\n',
    );
  });

  it("weighs each item by its recall score: a close second's best line beats the first's neighbours, a distant one's does not", () => {
    const terms = queryWeights(tokenize('kate promotion'));
    const first = {
      path: 'memory/a.md',
      startLine: 1,
      endLine: 1,
      text: '- Kate: my promotion came through.',
      around: [
        { line: 1, text: '- Kate: my promotion came through.' },
        { line: 2, text: '- Sam: Congratulations, that took years.' },
      ],
    };
    const second = {
      path: 'memory/b.md',
      startLine: 5,
      endLine: 5,
      text: '- Kate: the promotion means night shifts.',
      around: [{ line: 5, text: '- Kate: the promotion means night shifts.' }],
    };
    // Room for the first item's line and one more line, not two.
    const budget = 130;
    const pack = (s1?: number, s2?: number) =>
      renderContextBlock(
        [
          { ...first, ...(s1 !== undefined ? { score: s1 } : {}) },
          { ...second, ...(s2 !== undefined ? { score: s2 } : {}) },
        ],
        budget,
        { terms },
      ).text;
    const close = pack(10, 9.5);
    expect(close).toContain('1: Kate: my promotion came through.\n');
    expect(close).toContain('5: Kate: the promotion means night shifts.');
    expect(close).not.toContain('Congratulations');
    // Far behind (score ratio 0.3 → weight 0.09) the line after the first item's match wins the bytes.
    const far = pack(10, 3);
    expect(far).toContain('2: Sam: Congratulations, that took years.');
    expect(far).not.toContain('night shifts');
    // Without scores, 1/rank decides: the second item weighs 1/2 and the neighbour (0.7) wins too.
    expect(pack()).toContain('2: Sam: Congratulations');
    for (const t of [close, far, pack()]) expect(bytes(t)).toBeLessThanOrEqual(budget);
  });
});
