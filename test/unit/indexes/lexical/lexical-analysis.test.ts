// B46: a segment built through the analysis memo (indexes/lexical/lexical-analysis.ts) equals one built
// without it (and so the lunr Builder path, test/unit/indexes/lexical-accumulate.test.ts): same
// terms, vocabulary, postings, term frequencies and field lengths, when builds share one memo over
// a sequence of edited document sets (chunks renamed, changed, added, dropped) and when the memo is
// small enough to drop generations on the way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SegmentAccumulator } from '../../../../src/indexes/lexical/lexical-accumulate.js';
import { AnalysisMemo, analysisKey } from '../../../../src/indexes/lexical/lexical-analysis.js';
import type { LexicalDoc } from '../../../../src/indexes/lexical/lexical-segment.js';

const WORD = fc.constantFrom(
  'deploy',
  'deploys',
  'deployment',
  'getUserName',
  'café',
  'データベース',
  '10',
  '__proto__',
  'a',
  'x-y',
  'v2.3',
  'HTTP',
  '',
  '#tag',
  "it's",
);
const text = fc.array(WORD, { maxLength: 20 }).map((w) => w.join(' '));
const fields = fc.record({
  text,
  title: fc.option(text, { nil: undefined }),
  tags: fc.option(fc.array(WORD, { maxLength: 3 }), { nil: undefined }),
  headings: fc.option(fc.array(text, { maxLength: 2 }), { nil: undefined }),
});
type Fields = {
  text: string;
  title?: string | undefined;
  tags?: string[] | undefined;
  headings?: string[] | undefined;
};

function docOf(ref: string, f: Fields): LexicalDoc {
  const out: { -readonly [K in keyof LexicalDoc]: LexicalDoc[K] } = { ref, text: f.text };
  if (f.title !== undefined) out.title = f.title;
  if (f.tags !== undefined) out.tags = f.tags;
  if (f.headings !== undefined) out.headings = f.headings;
  return out;
}

function build(docs: readonly LexicalDoc[], memo?: AnalysisMemo) {
  const acc = new SegmentAccumulator();
  for (const d of docs) acc.add(d, memo);
  return acc.finish();
}

describe('B46: keyword analysis remembered per chunk', () => {
  it('property: builds through one memo over edited document sets equal builds without it', () => {
    fc.assert(
      fc.property(
        fc.array(fields, { minLength: 1, maxLength: 20 }),
        fc.array(fc.record({ at: fc.nat(), op: fc.constantFrom('edit', 'shift', 'add', 'drop'), f: fields }), {
          maxLength: 8,
        }),
        fc.constantFrom(16, 200, 1 << 20),
        (start, edits, maxChars) => {
          const memo = new AnalysisMemo(maxChars);
          let docs = start.map((f) => ({ ...f }));
          let base = 1;
          const refs = () => docs.map((f, i) => docOf(`memory/daily/d.md#${base + i * 5}`, f));
          expect(build(refs(), memo)).toEqual(build(refs()));
          for (const e of edits) {
            const i = e.at % docs.length;
            if (e.op === 'edit') docs[i] = e.f;
            else if (e.op === 'add') docs.splice(i, 0, e.f);
            else if (e.op === 'drop' && docs.length > 1) docs.splice(i, 1);
            else base++; // a line inserted above: every id moves, no text changes
            docs = [...docs];
            expect(build(refs(), memo)).toEqual(build(refs()));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a second build of unchanged chunks analyses none of them again', () => {
    const memo = new AnalysisMemo();
    const docs = Array.from({ length: 50 }, (_, i) => docOf(`n.md#${i}`, { text: `chunk ${i} about deploys` }));
    build(docs, memo);
    expect(memo.stats).toEqual({ hits: 0, misses: 50 });
    const edited = docs.map((d, i) => (i === 7 ? { ...d, text: 'chunk seven changed' } : d));
    expect(build(edited, memo)).toEqual(build(edited));
    expect(memo.stats).toEqual({ hits: 49, misses: 51 });
  });

  it('keys differ whenever a field differs, however the values could be joined', () => {
    expect(analysisKey(['ab', '', '', ''])).not.toBe(analysisKey(['a', 'b', '', '']));
    expect(analysisKey(['a\u0000b', '', '', ''])).not.toBe(analysisKey(['a', '\u0000b', '', '']));
    expect(analysisKey(['x', 'y', 'z', 'w'])).toBe(analysisKey(['x', 'y', 'z', 'w']));
  });

  it('a term repeated past 65,535 times saturates the same through the memo', () => {
    const docs = [{ ref: 'a#1', text: 'x '.repeat(30_000) }];
    const memo = new AnalysisMemo();
    expect(build(docs, memo)).toEqual(build(docs));
    const big = [{ ref: 'a#1', text: 'x '.repeat(70_000) }];
    expect(build(big, memo)).toEqual(build(big));
    expect(build(big, memo).postTf[0]).toBe(65535);
  });
});
