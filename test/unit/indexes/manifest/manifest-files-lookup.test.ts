// Per-file lookups of a manifest loaded from file tables (indexes/manifest/manifest-files.ts; issue 46):
// a base table in path order is searched (no Map of every path) and walked alongside a caller's
// sorted paths (`docChunkCounter`, the load check's chunk counts); answers equal the plain `docs`
// whatever the order of the table and of the questions, with a delta table's rows winning.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFileTable, type FileRow } from '../../../../src/indexes/manifest/file-table.js';
import type { IndexManifest, ManifestDoc } from '../../../../src/indexes/manifest/manifest.js';
import {
  docChunkCount,
  docChunkCounter,
  docCount,
  docLookup,
  withTables,
} from '../../../../src/indexes/manifest/manifest-files.js';

const NAMES = ['a.md', 'b.md', 'b/c.md', 'b-c.md', 'é.md', 'z.md', 'A.md', 'm/n/o.md'];
const doc = (i: number): ManifestDoc => ({
  contentHash: `h${i}`,
  chunkCount: i % 5,
  ...(i % 2 ? { stat: `s${i}` } : {}),
});

function loaded(
  baseRows: FileRow[],
  deltaRows: FileRow[],
): { manifest: IndexManifest; docs: Map<string, ManifestDoc> } {
  const docs = new Map<string, ManifestDoc>();
  for (const [p, d] of baseRows) docs.set(p, d!);
  for (const [p, d] of deltaRows)
    if (d) docs.set(p, d);
    else docs.delete(p);
  const chunkCount = [...docs.values()].reduce((n, d) => n + d.chunkCount, 0);
  const artifacts: Record<string, Uint8Array> = { 'files-b.bin': encodeFileTable(baseRows) };
  if (deltaRows.length) artifacts['files-delta-d.bin'] = encodeFileTable(deltaRows);
  const manifest = {
    formatVersion: 1,
    lunrVersion: '',
    createdAt: '',
    fingerprint: '',
    docs: {},
    artifacts: {},
    chunkCount,
    files: { base: 'files-b.bin', ...(deltaRows.length ? { delta: 'files-delta-d.bin' } : {}) },
  } as IndexManifest;
  return { manifest: withTables(manifest, artifacts), docs };
}

describe('per-file lookups of a manifest from file tables', () => {
  it('property: lookups and an in-order walk equal the docs, sorted table or not, with a delta', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1 }),
        fc.boolean(),
        fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), fc.integer({ min: 0, max: 9 })), {
          selector: (t) => t[0],
          maxLength: 4,
        }),
        fc.array(fc.constantFrom(...NAMES, 'q.md'), { maxLength: 12 }),
        (names, sort, delta, asked) => {
          const basePaths = sort ? [...names].sort() : names;
          const baseRows: FileRow[] = basePaths.map((p) => [p, doc(NAMES.indexOf(p) + 1)]);
          // A delta row: changed (odd), or removed (even, when the base has it).
          const deltaRows: FileRow[] = delta.map(([p, i]) => [p, i % 2 || !names.includes(p) ? doc(i + 10) : null]);
          const { manifest, docs } = loaded(baseRows, deltaRows);
          expect(docCount(manifest)).toBe(docs.size);
          for (const p of [...NAMES, 'q.md']) {
            const d = docs.get(p);
            expect(docChunkCount(manifest, p)).toBe(d?.chunkCount);
            expect(docLookup(manifest, p)).toEqual(
              d && { hash: d.contentHash, stat: d.stat, chunkCount: d.chunkCount },
            );
          }
          // In order (the load check's walk) and in any order (a fallback lookup).
          for (const order of [[...NAMES, 'q.md'].sort(), asked]) {
            const counter = docChunkCounter(manifest);
            expect(order.map((p) => counter(p))).toEqual(order.map((p) => docs.get(p)?.chunkCount));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
