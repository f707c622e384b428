// A segment built in runs and merged term by term (indexes/lexical-runs.ts; issue 46) must be the
// bytes of one accumulator fed every document in the same order: that is what keeps the streamed
// full build's index, and recall over it, identical to the in-memory build's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RangedFile } from '../../../../src/core/ports.js';
import { SegmentAccumulator } from '../../../../src/indexes/lexical/lexical-accumulate.js';
import { encodeSegment } from '../../../../src/indexes/lexical/lexical-codec.js';
import { encodeRun, mergeRuns } from '../../../../src/indexes/lexical/lexical-runs.js';
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
  'constructor',
  'x-y',
  'v2.3',
  'retries',
  'Übergabe',
  "it's",
  'zebra',
);
const text = fc.array(WORD, { maxLength: 20 }).map((w) => w.join(' '));
const docOf = (i: number) =>
  fc.record({ text, title: fc.option(text, { nil: undefined }) }).map((d): LexicalDoc => ({
    ref: `notes/${(i * 7919) % 1000}-${i}.md#1`,
    text: d.text,
    ...(d.title ? { title: d.title } : {}),
  }));

/** A RangedFile over bytes in memory. */
function ranged(bytes: Uint8Array): RangedFile {
  return {
    size: bytes.length,
    read(target, position) {
      const part = bytes.subarray(position, position + target.length);
      target.set(part);
      return part.length;
    },
    close() {},
  };
}

function runBytes(docs: readonly LexicalDoc[]): Uint8Array {
  const acc = new SegmentAccumulator();
  for (const d of docs) acc.add(d);
  const parts: Uint8Array[] = [];
  encodeRun(acc.finish(), { write: (b) => parts.push(b.slice()) });
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/** Merge `docs` cut into runs at `cuts`. */
function merged(docs: readonly LexicalDoc[], cuts: readonly number[]): Uint8Array {
  const edges = [0, ...cuts.filter((c) => c > 0 && c < docs.length).sort((a, b) => a - b), docs.length];
  const files = edges.slice(1).map((end, i) => ranged(runBytes(docs.slice(edges[i], end))));
  let out = new Uint8Array(0);
  const size = mergeRuns(files, {
    writeAt(b, at) {
      if (at + b.length > out.length) {
        const grown = new Uint8Array(Math.max(at + b.length, out.length * 2));
        grown.set(out);
        out = grown;
      }
      out.set(b, at);
    },
  });
  const result = new Uint8Array(size);
  result.set(out.subarray(0, size));
  return result;
}

function whole(docs: readonly LexicalDoc[]): Uint8Array {
  const acc = new SegmentAccumulator();
  for (const d of docs) acc.add(d);
  return encodeSegment(acc.finish());
}

describe('keyword segment built in runs', () => {
  it('property: the merged runs are the bytes of one accumulator over the same documents', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 30 })
          .chain((n) =>
            fc.tuple(
              fc.tuple(...Array.from({ length: n }, (_, i) => docOf(i))),
              fc.array(fc.nat(30), { maxLength: 5 }),
            ),
          ),
        ([docs, cuts]) => {
          expect(merged(docs, cuts)).toEqual(whole(docs));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('one run, and every document in a run of its own, give the same bytes', () => {
    const docs: LexicalDoc[] = Array.from({ length: 40 }, (_, i) => ({
      ref: `daily/2024-01-${i}.md#${i}`,
      text: `deploy ${i} retried the webhook w${(i * 31) % 7} café データベース`,
      title: i % 3 ? `Day ${i}` : undefined,
      tags: i % 4 ? ['ops'] : [],
    })).map((d) => (d.title === undefined ? { ref: d.ref, text: d.text, tags: d.tags } : d));
    expect(merged(docs, [])).toEqual(whole(docs));
    expect(
      merged(
        docs,
        docs.map((_, i) => i),
      ),
    ).toEqual(whole(docs));
  });

  it('a ref in two runs is refused', () => {
    const docs: LexicalDoc[] = [
      { ref: 'a.md#1', text: 'one' },
      { ref: 'a.md#1', text: 'two' },
    ];
    expect(() => merged(docs, [1])).toThrow(/duplicate chunk ref/);
  });
});
