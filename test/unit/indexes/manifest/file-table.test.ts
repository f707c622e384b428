// indexes/manifest/file-table.ts: the binary per-file table round-trips any rows (unicode paths, marker
// hashes, no stat key, removals) and rejects damaged bytes with index.corrupt instead of decoding junk.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeFileColumns,
  decodeFileTable,
  encodeFileTable,
  type FileRow,
} from '../../../../src/indexes/manifest/file-table.js';

const row = fc.tuple(
  fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }),
  fc.option(
    fc.record(
      {
        contentHash: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.constant('binary:12'), fc.constant('size:9:1.5')),
        chunkCount: fc.nat({ max: 100_000 }),
        stat: fc.stringMatching(/^[0-9]{1,6}:[0-9]{10,19}:[0-9]{10,19}:[0-9]{1,9}$/),
      },
      { requiredKeys: ['contentHash', 'chunkCount'] },
    ),
  ),
);

describe('file table codec', () => {
  it('round-trips any rows in order', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        expect(decodeFileTable(encodeFileTable(rows as FileRow[]))).toEqual(rows);
      }),
    );
  });

  it('decodes from a view at any byte offset (artifacts are read without a copy)', () => {
    const rows: FileRow[] = [
      ['memory/東京.md', { contentHash: 'a'.repeat(64), chunkCount: 3, stat: '1:2:3:4' }],
      ['memory/gone.md', null],
      ['MEMORY.md', { contentHash: 'binary:7', chunkCount: 0 }],
    ];
    const bytes = encodeFileTable(rows);
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    expect(decodeFileTable(shifted.subarray(3))).toEqual(rows);
  });

  it('damaged bytes are index.corrupt, never a wrong table', () => {
    const bytes = encodeFileTable([
      ['a.md', { contentHash: 'h', chunkCount: 1 }],
      ['b.md', { contentHash: 'h2', chunkCount: 2, stat: 's' }],
    ]);
    const corrupt = expect.objectContaining({ code: 'index.corrupt' });
    expect(() => decodeFileTable(bytes.subarray(0, 10))).toThrow(corrupt);
    expect(() => decodeFileTable(bytes.subarray(0, bytes.byteLength - 1))).toThrow(corrupt);
    const magic = bytes.slice();
    magic[0] = magic[0]! ^ 0xff;
    expect(() => decodeFileTable(magic)).toThrow(corrupt);
    const version = bytes.slice();
    version[4] = 9;
    expect(() => decodeFileTable(version)).toThrow(corrupt);
    // A path length that runs past the path strings.
    const len = bytes.slice();
    new DataView(len.buffer).setUint32(24 + 4 * 2, 999, true);
    expect(() => decodeFileTable(len)).toThrow(corrupt);
    // Invalid UTF-8 in the path blob.
    const utf = bytes.slice();
    utf[24 + 16 * 2] = 0xff;
    expect(() => decodeFileTable(utf)).toThrow(corrupt);
    // The hash and stat columns are read per row, but their damage still fails the decode itself
    // (the load), not a later read: a hash length past the hash strings, stat keys that leave text
    // over, invalid UTF-8 in the hash blob.
    const hashLen = bytes.slice();
    new DataView(hashLen.buffer).setUint32(24 + 4 * 4, 999, true);
    expect(() => decodeFileColumns(hashLen)).toThrow(corrupt);
    const statLen = bytes.slice();
    new DataView(statLen.buffer).setUint32(24 + 4 * 7, 0, true);
    expect(() => decodeFileColumns(statLen)).toThrow(corrupt);
    const hashUtf = bytes.slice();
    hashUtf[24 + 16 * 2 + 8] = 0xff;
    expect(() => decodeFileColumns(hashUtf)).toThrow(corrupt);
  });

  it('reads hashes and stat keys per row, ASCII or not, as the rows were written', () => {
    const rows: FileRow[] = [
      ['a.md', { contentHash: 'f'.repeat(64), chunkCount: 1, stat: '12:1700000000000000000:1700000000000000001:9' }],
      ['b.md', null],
      ['c.md', { contentHash: 'size:9:1.5', chunkCount: 0 }],
      ['d.md', { contentHash: 'hash-ü', chunkCount: 2, stat: 'stat-é' }],
    ];
    const c = decodeFileColumns(encodeFileTable(rows));
    expect([0, 1, 2, 3].map((i) => [c.hashAt(i), c.statAt(i)])).toEqual([
      ['f'.repeat(64), '12:1700000000000000000:1700000000000000001:9'],
      ['', undefined],
      ['size:9:1.5', undefined],
      ['hash-ü', 'stat-é'],
    ]);
    const ascii = decodeFileColumns(encodeFileTable(rows.slice(0, 3)));
    expect([2, 0, 1].map((i) => [ascii.hashAt(i), ascii.statAt(i)])).toEqual([
      ['size:9:1.5', undefined],
      ['f'.repeat(64), '12:1700000000000000000:1700000000000000001:9'],
      ['', undefined],
    ]);
  });

  it('refuses a chunk count it cannot store', () => {
    expect(() => encodeFileTable([['a.md', { contentHash: 'h', chunkCount: -1 }]])).toThrow();
    expect(() => encodeFileTable([['a.md', { contentHash: 'h', chunkCount: 1.5 }]])).toThrow();
  });
});
