// The streaming segment builder (indexes/lexical/lexical-accumulate.ts) must produce exactly the segment
// data of lunr's Builder path (indexes/lexical/lexical-build.ts): same terms, raw vocabulary, postings,
// term frequencies and field lengths, for any documents.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SegmentAccumulator } from '../../../../src/indexes/lexical/lexical-accumulate.js';
import { buildSegment } from '../../../../src/indexes/lexical/lexical-build.js';
import type { LexicalDoc } from '../../../../src/indexes/lexical/lexical-segment.js';

const WORD = fc.constantFrom(
  'deploy',
  'deploys',
  'deployment',
  'getUserName',
  'café',
  'データベース',
  '10',
  '2',
  '__proto__',
  'constructor',
  'a',
  'x-y',
  'v2.3',
  'retries',
  'HTTP',
  'Übergabe',
  '',
  '#tag',
  "it's",
);
const text = fc.array(WORD, { maxLength: 30 }).map((w) => w.join(' '));
const doc = (i: number) =>
  fc
    .record({
      text,
      title: fc.option(text, { nil: undefined }),
      tags: fc.option(fc.array(WORD, { maxLength: 4 }), { nil: undefined }),
      headings: fc.option(fc.array(text, { maxLength: 3 }), { nil: undefined }),
    })
    .map((d): LexicalDoc => {
      const out: { -readonly [K in keyof LexicalDoc]: LexicalDoc[K] } = { ref: `notes/${i}.md#1`, text: d.text };
      if (d.title !== undefined) out.title = d.title;
      if (d.tags !== undefined) out.tags = d.tags;
      if (d.headings !== undefined) out.headings = d.headings;
      return out;
    });

function accumulate(docs: readonly LexicalDoc[]) {
  const acc = new SegmentAccumulator();
  for (const d of docs) acc.add(d);
  return acc.finish();
}

describe('SegmentAccumulator', () => {
  it('property: same segment data as the lunr Builder path', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 25 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => doc(i)))),
        (docs) => {
          expect(accumulate(docs)).toEqual(buildSegment(docs).data);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a term repeated past 65,535 times saturates like the Builder path', () => {
    const docs = [{ ref: 'a#1', text: 'x '.repeat(70_000) }];
    const data = accumulate(docs);
    expect(data).toEqual(buildSegment(docs).data);
    expect(data.postTf[0]).toBe(65535);
    expect(data.docLen[0]).toBe(70_000);
  });

  it('refuses a duplicate ref', () => {
    const acc = new SegmentAccumulator();
    acc.add({ ref: 'a#1', text: 'x' });
    expect(() => acc.add({ ref: 'a#1', text: 'y' })).toThrow(/duplicate chunk ref/);
  });
});
