// The chunk-record artifact (service/chunk-codec.ts): round trip, path runs, the supersedes column,
// and damaged bytes as index.corrupt.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { decodeChunkRecords, encodeChunkRecords } from '../../../src/engine/chunk-codec.js';
import type { ChunkRecord } from '../../../src/engine/index-manager.js';

const recordArb = fc.record({
  path: fc.constantFrom('memory/MEMORY.md', 'memory/entries/é-1.md', 'memory/daily/2026-01-01.md', 'notes/東京.md'),
  startLine: fc.integer({ min: 1, max: 400 }),
  text: fc.string({ maxLength: 40 }),
  tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
  supersedes: fc.option(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 }), {
    nil: undefined,
  }),
});

type Raw = { path: string; startLine: number; text: string; tags: string[]; supersedes: string[] | undefined };

function records(raw: Raw[]): ChunkRecord[] {
  return raw.map((r, i) => ({
    id: `${r.path}#${r.startLine + i}`,
    path: r.path,
    kind: 'note',
    startLine: r.startLine + i,
    endLine: r.startLine + i,
    headingPath: [],
    text: r.text,
    tags: r.tags,
    ...(r.supersedes ? { supersedes: r.supersedes } : {}),
  }));
}

describe('chunk-record codec', () => {
  it('property: every record decodes equal; paths group the runs; supersedes column lists exactly those records', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 40 }), (raw) => {
        const rs = records(raw);
        const t = decodeChunkRecords(encodeChunkRecords(rs));
        expect(t.size).toBe(rs.length);
        expect(t.slice(0, t.size)).toEqual(rs);
        for (const [path, ranges] of t.byPath) {
          const got = ranges.flatMap(([a, b]) => t.slice(a, b));
          expect(got).toEqual(rs.filter((r) => r.path === path));
        }
        expect(new Set(t.byPath.keys())).toEqual(new Set(rs.map((r) => r.path)));
        expect(t.superseding).toEqual(rs.flatMap((r, i) => (r.supersedes ? [i] : [])));
      }),
      { numRuns: 80 },
    );
  });

  it('truncated, extended or wrong-version bytes are index.corrupt', () => {
    const bytes = encodeChunkRecords(
      records([{ path: 'memory/MEMORY.md', startLine: 1, text: 'x', tags: [], supersedes: undefined }]),
    );
    const version = bytes.slice();
    version[4] = 9;
    for (const v of [bytes.slice(0, 8), bytes.slice(0, bytes.length - 1), new Uint8Array([...bytes, 1]), version]) {
      let err: unknown;
      try {
        decodeChunkRecords(v);
      } catch (e) {
        err = e;
      }
      expect(isMemoryError(err, 'index.corrupt')).toBe(true);
    }
  });

  it('a damaged record is index.corrupt when it is read', () => {
    const bytes = encodeChunkRecords(
      records([{ path: 'a.md', startLine: 1, text: 'hello', tags: [], supersedes: undefined }]),
    );
    const at = bytes.indexOf('{'.charCodeAt(0));
    const v = bytes.slice();
    v[at] = '!'.charCodeAt(0);
    const t = decodeChunkRecords(v);
    expect(() => t.record(0)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
  });
});
