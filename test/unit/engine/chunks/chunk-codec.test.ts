// The chunk-record artifact (engine/chunks/chunk-codec.ts): round trip, path runs, the supersedes column,
// the id and embedding-key columns (read without decoding a record), and damaged bytes as index.corrupt.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../../src/core/errors.js';
import { decodeChunkRecords, encodeChunkRecords } from '../../../../src/engine/chunks/chunk-codec.js';
import { lazyGroups } from '../../../../src/engine/live/lazy-records.js';
import type { ChunkRecord } from '../../../../src/engine/chunks/index-manager.js';
import type { RangedFile } from '../../../../src/core/ports.js';

const recordArb = fc.record({
  path: fc.constantFrom('memory/MEMORY.md', 'memory/entries/é-1.md', 'memory/daily/2026-01-01.md', 'notes/東京.md'),
  startLine: fc.integer({ min: 1, max: 400 }),
  text: fc.string({ maxLength: 40 }),
  tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
  supersedes: fc.option(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 }), {
    nil: undefined,
  }),
  vkey: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: undefined }),
});

type Raw = {
  path: string;
  startLine: number;
  text: string;
  tags: string[];
  supersedes: string[] | undefined;
  vkey?: string | undefined;
};

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
    ...(r.vkey ? { vkey: r.vkey } : {}),
  }));
}

const KEY = 'ab'.repeat(32);

/** A RangedFile over `bytes` that counts the bytes read from it. */
function rangedOver(bytes: Uint8Array): RangedFile & { readBytes: number; closed: boolean } {
  const f = {
    size: bytes.byteLength,
    readBytes: 0,
    closed: false,
    read(target: Uint8Array, position: number) {
      const part = bytes.subarray(position, position + target.length);
      target.set(part);
      f.readBytes += part.length;
      return part.length;
    },
    close() {
      f.closed = true;
    },
  };
  return f;
}

describe('chunk-record codec', () => {
  it('property: every record decodes equal; paths group the runs; supersedes column lists exactly those records', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 40 }), (raw) => {
        const rs = records(raw);
        const bytes = encodeChunkRecords(rs);
        // Both forms of the table: bytes in memory, and a file read at offsets.
        for (const t of [decodeChunkRecords(bytes), decodeChunkRecords(rangedOver(bytes))]) check(t, rs);
      }),
      { numRuns: 80 },
    );
    function check(t: ReturnType<typeof decodeChunkRecords>, rs: ChunkRecord[]): void {
      expect(t.size).toBe(rs.length);
      expect(t.slice(0, t.size)).toEqual(rs);
      for (const [path, ranges] of t.byPath) {
        const got = ranges.flatMap(([a, b]) => t.slice(a, b));
        expect(got).toEqual(rs.filter((r) => r.path === path));
      }
      expect(new Set(t.byPath.keys())).toEqual(new Set(rs.map((r) => r.path)));
      expect(t.superseding).toEqual(rs.flatMap((r, i) => (r.supersedes ? [i] : [])));
      expect(rs.map((_, i) => t.id(i))).toEqual(rs.map((r) => r.id));
      expect(rs.map((_, i) => t.vkey(i))).toEqual(rs.map((r) => r.vkey));
      expect(rs.map((_, i) => t.record(rs.length - 1 - i))).toEqual([...rs].reverse());
    }
  });

  it('read through a file, a table holds the columns only: a record is read when it is decoded', () => {
    const rs = records(
      Array.from({ length: 50 }, (_, i) => ({
        path: `m/${i >> 2}.md`,
        startLine: 1,
        text: `text of chunk ${i} `.repeat(20),
        tags: [],
        supersedes: undefined,
      })),
    );
    const bytes = encodeChunkRecords(rs);
    const json = rs.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0);
    const file = rangedOver(bytes);
    const t = decodeChunkRecords(file);
    // Neither the JSON, the id column nor the key column (32 bytes a record) is read on opening (issue 46).
    const keys = 32 * rs.length;
    const ids = rs.reduce((n, r) => n + Buffer.byteLength(r.id), 0);
    expect(file.readBytes).toBe(bytes.byteLength - json - keys - ids + 32); // the header is read twice
    let before = file.readBytes;
    expect(t.record(7)).toEqual(rs[7]);
    // The record's JSON, its own key and its own id (checked against the record), nothing else.
    expect(file.readBytes - before).toBe(Buffer.byteLength(JSON.stringify(rs[7])) + 32 + Buffer.byteLength(rs[7]!.id));
    expect(t.slice(8, 12)).toEqual(rs.slice(8, 12));
    before = file.readBytes;
    expect(t.id(20)).toBe(rs[20]!.id);
    expect(file.readBytes - before).toBe(Buffer.byteLength(rs[20]!.id));
    // The vector side's first key reads the column whole, once.
    before = file.readBytes;
    expect(t.vkey(3)).toBeUndefined();
    expect(t.vkey(4)).toBeUndefined();
    expect(file.readBytes - before).toBe(keys);
    expect(file.closed).toBe(false);
  });

  it('read through a file, ids are read one at a time, then the id column whole (once) for a caller that reads many', () => {
    const rs = records(
      Array.from({ length: 3000 }, (_, i) => ({
        path: `m/${i >> 3}.md`,
        startLine: i,
        text: 't',
        tags: [],
        supersedes: undefined,
      })),
    );
    const bytes = encodeChunkRecords(rs);
    const file = rangedOver(bytes);
    const t = decodeChunkRecords(file);
    const ids = rs.reduce((n, r) => n + Buffer.byteLength(r.id), 0);
    const before = file.readBytes;
    expect(rs.map((_, i) => t.id(i))).toEqual(rs.map((r) => r.id));
    // 2,048 ids alone, then the column once: never more than twice the column.
    const read = file.readBytes - before;
    expect(read).toBeGreaterThan(ids);
    expect(read).toBeLessThan(2 * ids);
    const after = file.readBytes;
    expect(t.id(5)).toBe(rs[5]!.id);
    expect(file.readBytes).toBe(after);
  });

  it('read through a file, a record is found by id in a range with one read of the range’s ids', () => {
    const rs = records(
      Array.from({ length: 40 }, (_, i) => ({
        path: `m/é${i >> 3}.md`,
        startLine: i,
        text: 't',
        tags: [],
        supersedes: undefined,
      })),
    );
    const bytes = encodeChunkRecords(rs);
    const file = rangedOver(bytes);
    const t = decodeChunkRecords(file);
    let reads = 0;
    const read = file.read.bind(file);
    file.read = (target, at) => (reads++, read(target, at));
    expect(t.indexOfId(8, 16, rs[13]!.id)).toBe(13);
    expect(reads).toBe(1);
    expect(t.indexOfId(8, 16, rs[3]!.id)).toBe(-1);
    expect(t.indexOfId(8, 16, `${rs[13]!.id}0`)).toBe(-1);
    expect(t.indexOfId(0, 40, rs[39]!.id)).toBe(39);
    expect(t.indexOfId(5, 5, rs[5]!.id)).toBe(-1);
    // In memory, the same answers.
    const m = decodeChunkRecords(bytes);
    expect([m.indexOfId(8, 16, rs[13]!.id), m.indexOfId(8, 16, rs[3]!.id)]).toEqual([13, -1]);
  });

  it('read through a file, a record and the vector side see the same keys, read alone or from the column', () => {
    const rs = records([
      { path: 'a.md', startLine: 1, text: 'one', tags: [], supersedes: undefined, vkey: KEY },
      { path: 'a.md', startLine: 3, text: 'two', tags: [], supersedes: undefined },
      { path: 'b.md', startLine: 1, text: 'three', tags: [], supersedes: undefined, vkey: KEY.replace('a', 'b') },
    ]);
    const bytes = encodeChunkRecords(rs);
    const alone = decodeChunkRecords(rangedOver(bytes));
    expect([0, 1, 2].map((i) => alone.record(i))).toEqual(rs);
    const column = decodeChunkRecords(rangedOver(bytes));
    expect([0, 1, 2].map((i) => column.vkey(i))).toEqual(rs.map((r) => r.vkey));
    expect([0, 1, 2].map((i) => column.record(i))).toEqual(rs);
    // A key changed in the column is a mismatch with its record, whichever way it is read.
    const v = bytes.slice();
    // The key column starts after 22 u32 words here: header 8, offsets 3+1, runs 2+1, path offsets 2+1, ids 3+1.
    v[22 * 4] = v[22 * 4]! ^ 1;
    const damaged = decodeChunkRecords(rangedOver(v));
    expect(damaged.record(1)).toEqual(rs[1]);
    expect(() => damaged.record(0)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
    expect(() => decodeChunkRecords(rangedOver(v.slice())).slice(0, 2)).toThrow(
      expect.objectContaining({ code: 'index.corrupt' }),
    );
  });

  it('a damaged record read through a file is index.corrupt when it is read; a short file when opened', () => {
    const bytes = encodeChunkRecords(
      records([{ path: 'a.md', startLine: 1, text: 'hello', tags: [], supersedes: undefined }]),
    );
    const v = bytes.slice();
    v[v.indexOf('{'.charCodeAt(0))] = '!'.charCodeAt(0);
    const t = decodeChunkRecords(rangedOver(v));
    expect(t.id(0)).toBe('a.md#1');
    expect(() => t.record(0)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
    const short = { ...rangedOver(bytes), size: bytes.byteLength - 1 };
    expect(() => decodeChunkRecords(short)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
    const lying = { ...rangedOver(bytes.subarray(0, 40)), size: bytes.byteLength };
    expect(() => decodeChunkRecords(lying)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
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

  it('the id and key columns answer without decoding the record (a damaged record does not stop them)', () => {
    const bytes = encodeChunkRecords(
      records([
        { path: 'a.md', startLine: 1, text: 'hello', tags: [], supersedes: undefined, vkey: KEY },
        { path: 'a.md', startLine: 5, text: 'no key', tags: [], supersedes: undefined },
      ]),
    );
    const v = bytes.slice();
    v[v.indexOf('{'.charCodeAt(0))] = '!'.charCodeAt(0);
    const t = decodeChunkRecords(v);
    expect([t.id(0), t.vkey(0), t.id(1), t.vkey(1)]).toEqual(['a.md#1', KEY, 'a.md#6', undefined]);
    expect(() => t.record(0)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
    expect(t.record(1).text).toBe('no key');
  });

  it('a record whose key column disagrees with its JSON is index.corrupt when it is read', () => {
    const bytes = encodeChunkRecords(
      records([{ path: 'a.md', startLine: 1, text: 'hello', tags: [], supersedes: undefined, vkey: KEY }]),
    );
    const v = bytes.slice();
    const at = v.indexOf(0xab);
    v[at] = 0xac;
    const t = decodeChunkRecords(v);
    expect(t.vkey(0)).toBe(`ac${'ab'.repeat(31)}`);
    expect(() => t.record(0)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
  });

  it('an artifact of the previous version (1, no id and key columns) is index.corrupt, not misread', () => {
    const bytes = encodeChunkRecords(
      records([{ path: 'a.md', startLine: 1, text: 'x', tags: [], supersedes: undefined, vkey: KEY }]),
    );
    const v1 = bytes.slice();
    new DataView(v1.buffer).setUint32(4, 1, true);
    expect(() => decodeChunkRecords(v1)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
  });

  it('a key that is not a SHA-256 is refused when encoding', () => {
    expect(() =>
      encodeChunkRecords(
        records([{ path: 'a.md', startLine: 1, text: 'x', tags: [], supersedes: undefined, vkey: 'xyz' }]),
      ),
    ).toThrow(expect.objectContaining({ code: 'internal' }));
  });

  it("a loaded file's group finds one record by the id column and decodes only it", () => {
    const bytes = encodeChunkRecords(
      records([
        { path: 'a.md', startLine: 1, text: 'damaged', tags: [], supersedes: undefined, vkey: KEY },
        { path: 'a.md', startLine: 5, text: 'wanted', tags: [], supersedes: undefined },
      ]),
    );
    const v = bytes.slice();
    v[v.indexOf('{'.charCodeAt(0))] = '!'.charCodeAt(0);
    const group = lazyGroups(decodeChunkRecords(v)).group('a.md')!;
    expect(group.find('a.md#6')?.text).toBe('wanted');
    expect(group.find('a.md#99')).toBeUndefined();
    expect([...group.keys()]).toEqual([[KEY, 'a.md#1']]);
    expect(() => group.records()).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
  });
});
