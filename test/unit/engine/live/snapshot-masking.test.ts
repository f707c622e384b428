// Masking a loaded base's entries of changed files (engine/live/live-index-snapshot.ts searcherOf): the
// ids come from the chunk artifact's id column (engine/live/lazy-records.ts lazyGroups ids), so a
// one-shot recall after a checkout of many files decodes none of their base records (issue 46). The
// record JSON is damaged here: reading it would throw, and the ids still mask exactly those chunks.
// A loaded base (a Part with its artifact's table) masks by record ranges: record i is document i, so
// not even an id is read (its id column damaged here too).
import { describe, expect, it } from 'vitest';
import { decodeChunkRecords, encodeChunkRecords } from '../../../../src/engine/chunks/chunk-codec.js';
import type { ChunkRecord } from '../../../../src/engine/chunks/index-manager.js';
import { lazyGroups } from '../../../../src/engine/live/lazy-records.js';
import { searcherOf } from '../../../../src/engine/live/live-index-snapshot.js';
import type { Part } from '../../../../src/engine/live/live-index-store.js';
import { LexicalIndex } from '../../../../src/indexes/lexical/lexical.js';

function rec(path: string, line: number, text: string): ChunkRecord {
  return {
    id: `${path}#${line}`,
    path,
    kind: 'note',
    startLine: line,
    endLine: line,
    headingPath: [],
    text,
    tags: [],
  } as unknown as ChunkRecord;
}

// a.md's records come in two runs (a path may recur in an artifact), b.md's in one.
const records = [
  rec('a.md', 1, 'webhook retry policy'),
  rec('a.md', 4, 'webhook backoff'),
  rec('b.md', 1, 'webhook retry budget'),
  rec('a.md', 9, 'retry jitter'),
];

/** The artifact with every record's JSON made unreadable (ids, paths and keys are columns). */
function damaged(): Uint8Array {
  const v = encodeChunkRecords(records).slice();
  let at = -1;
  while ((at = v.indexOf('{'.charCodeAt(0), at + 1)) >= 0) v[at] = '!'.charCodeAt(0);
  return v;
}

/** The artifact with its JSON and its id column (the last bytes) made unreadable. */
function idsDamaged(): Uint8Array {
  const v = damaged();
  const idBytes = new DataView(v.buffer).getUint32(7 * 4, true);
  v.fill(0xff, v.byteLength - idBytes);
  return v;
}

describe('masking a loaded base', () => {
  it("gives a path's ids from the id column, in record order, without decoding a record", () => {
    const groups = lazyGroups(decodeChunkRecords(damaged()));
    expect(groups.ids('a.md')).toEqual(['a.md#1', 'a.md#4', 'a.md#9']);
    expect(groups.ids('b.md')).toEqual(['b.md#1']);
    expect(groups.ids('c.md')).toBeUndefined();
    expect(() => groups.get('a.md')).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
  });

  it('masks exactly the changed files’ base chunks, as decoding them would', () => {
    const lexical = LexicalIndex.build(records.map((r) => ({ ref: r.id, text: r.text })));
    const base = { lexical } as unknown as Part;
    const searcher = searcherOf({
      base,
      baseByPath: lazyGroups(decodeChunkRecords(damaged())),
      delta: undefined,
      touched: new Set(['a.md']),
      files: new Map(),
      sorted: undefined,
    });
    expect(searcher.search('webhook').map((h) => h.ref)).toEqual(['b.md#1']);
    expect(searcher.search('retry').map((h) => h.ref)).toEqual(['b.md#1']);
    // The same masking from decoded records (a base built in this process: a plain Map).
    const decoded = new Map<string, readonly ChunkRecord[]>([
      ['a.md', records.filter((r) => r.path === 'a.md')],
      ['b.md', records.filter((r) => r.path === 'b.md')],
    ]);
    const fromRecords = searcherOf({
      base,
      baseByPath: decoded,
      delta: undefined,
      touched: new Set(['a.md']),
      files: new Map(),
      sorted: undefined,
    });
    expect(fromRecords.search('retry')).toEqual(searcher.search('retry'));
  });

  it('masks a loaded base by its records’ ranges, reading no id and looking up no ref', () => {
    const lexical = LexicalIndex.build(records.map((r) => ({ ref: r.id, text: r.text })));
    const table = decodeChunkRecords(idsDamaged());
    expect(() => table.id(0)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
    const searcher = searcherOf({
      base: { lexical, table } as unknown as Part,
      baseByPath: lazyGroups(table),
      delta: undefined,
      touched: new Set(['a.md']),
      files: new Map(),
      sorted: undefined,
    });
    expect(searcher.search('webhook').map((h) => h.ref)).toEqual(['b.md#1']);
    expect(searcher.search('retry').map((h) => h.ref)).toEqual(['b.md#1']);
    expect(searcher.search('jitter')).toEqual([]);
    // A prefix query counts the masked documents' vocabulary (read only now): `jit*` finds nothing live.
    expect(searcher.search('jit*')).toEqual([]);
    expect(searcher.search('budg*').map((h) => h.ref)).toEqual(['b.md#1']);
  });

  it('with a loaded delta of touched files only, searches base + delta; a delta chunk of an untouched file is still caught', () => {
    const lexical = LexicalIndex.build(records.map((r) => ({ ref: r.id, text: r.text })));
    const table = decodeChunkRecords(idsDamaged());
    const fresh = [rec('a.md', 1, 'webhook retry schedule')];
    const delta = {
      lexical: LexicalIndex.build(fresh.map((r) => ({ ref: r.id, text: r.text }))),
      table: decodeChunkRecords(encodeChunkRecords(fresh)),
    } as unknown as Part;
    const parts = {
      base: { lexical, table } as unknown as Part,
      baseByPath: lazyGroups(table),
      delta,
      touched: new Set(['a.md']),
      files: new Map(),
      sorted: undefined,
    };
    expect(
      searcherOf(parts)
        .search('webhook retry')
        .map((h) => h.ref),
    ).toEqual(['a.md#1', 'b.md#1']);
    // b.md is not touched: its base chunk stays live, and the delta's copy of it is a caller bug.
    const stray = [rec('b.md', 1, 'webhook retry budget')];
    const wrong = {
      lexical: LexicalIndex.build(stray.map((r) => ({ ref: r.id, text: r.text }))),
      table: decodeChunkRecords(encodeChunkRecords(stray)),
    } as unknown as Part;
    expect(() => searcherOf({ ...parts, delta: wrong })).toThrow(expect.objectContaining({ code: 'internal' }));
  });
});
