// Path → record ranges of a chunk artifact without a Map when its runs are sorted
// (engine/chunks/path-runs.ts; issue 46): the same answers as the Map of every path, for sorted runs,
// unsorted ones and a path in several runs, and a lookup in sorted runs reads a few paths only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PathRuns } from '../../../../src/engine/chunks/path-runs.js';

/** The Map the artifact's runs used to be read into (first-seen order). */
function reference(paths: readonly string[], starts: readonly number[]): Map<string, [number, number][]> {
  const m = new Map<string, [number, number][]>();
  paths.forEach((p, r) => {
    const range: [number, number] = [starts[r]!, starts[r + 1]!];
    const list = m.get(p);
    if (list) list.push(range);
    else m.set(p, [range]);
  });
  return m;
}

function runsOf(paths: readonly string[], sizes: readonly number[]) {
  const starts = [0];
  for (const s of sizes) starts.push(starts[starts.length - 1]! + s);
  let reads = 0;
  const runs = new PathRuns(
    paths.length,
    (r) => {
      reads++;
      return paths[r]!;
    },
    (r) => starts[r]!,
  );
  return { runs, starts, reads: () => reads };
}

describe('path runs of a chunk artifact', () => {
  it('property: get, has, forEach, keys and size equal the Map of every path, sorted or not', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom('a.md', 'b.md', 'b/c.md', 'é.md', 'z.md', 'A.md'), fc.integer({ min: 1, max: 4 })),
          {
            maxLength: 12,
          },
        ),
        fc.boolean(),
        (rows, sort) => {
          const list = sort ? [...new Map(rows)].sort((x, y) => (x[0] < y[0] ? -1 : 1)) : rows;
          const paths = list.map((r) => r[0]);
          const { runs, starts } = runsOf(
            paths,
            list.map((r) => r[1]),
          );
          const want = reference(paths, starts);
          expect(runs.size).toBe(want.size);
          for (const p of ['a.md', 'b.md', 'b/c.md', 'é.md', 'z.md', 'A.md', 'q.md']) {
            expect(runs.get(p)).toEqual(want.get(p));
            expect(runs.has(p)).toBe(want.has(p));
          }
          const walked: [string, unknown][] = [];
          runs.forEach((ranges, p) => walked.push([p, ranges]));
          expect(walked).toEqual([...want]);
          expect([...runs.keys()]).toEqual([...want.keys()]);
          expect([...runs]).toEqual([...want]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('looks a path up in sorted runs by binary search: a few paths read, no Map of all', () => {
    const paths = Array.from({ length: 4096 }, (_, i) => `m/${String(i).padStart(5, '0')}.md`);
    const { runs, reads } = runsOf(
      paths,
      paths.map(() => 2),
    );
    const opened = reads();
    expect(opened).toBe(4096); // the order check, once
    expect(runs.get('m/01234.md')).toEqual([[2468, 2470]]);
    expect(runs.get('m/01234.mdx')).toBeUndefined();
    expect(reads() - opened).toBeLessThanOrEqual(2 * 13);
  });
});
