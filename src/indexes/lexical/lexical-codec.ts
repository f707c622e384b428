// The compact binary form of one segment: a fixed header of counts, then aligned columns (posting
// offsets, doc ids, field term frequencies, field lengths, vocabulary ids, the precomputed
// statistics) and packed UTF-8 string tables (refs, terms, raw vocabulary, stems). Decoding makes
// typed-array views over the bytes and checks the structure in O(terms + docs); strings decode one
// at a time when a query reaches them, and a term's postings are bound-checked on first use, so a
// one-shot query never parses or walks the whole index.
import type { RangedFile } from '../../core/ports.js';
import { corrupt, NF, segmentStats, type SegmentData, type SegmentStats } from './lexical-segment.js';
import { PackedStrings, packStrings, type StringList } from './lexical-strings.js';

/** Version of the binary segment format ({@link encodeSegment}); bump when it changes. */
export const LEXICAL_BINARY_VERSION = 2;
const MAGIC = 0x584c4d47; // "GMLX" read as a little-endian u32
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Header words: magic, version, byte order, n, T, R, P, RI, then the four string-table byte lengths. */
const HEADER_WORDS = 12;
const HEADER_BYTES = HEADER_WORDS * 4;

/** Refs a segment opened from its file reads one at a time (hits) before it reads them all. */
const REF_READS_ALONE = 4096;

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** Column layout shared by encoder and decoder: [name, element count, bytes per element]. */
function columns(n: number, T: number, R: number, P: number, RI: number): [string, number, 2 | 4 | 8][] {
  return [
    ['totalLen', NF, 8],
    ['postStart', T + 1, 4],
    ['postIds', P, 4],
    ['rawStart', n + 1, 4],
    ['rawIds', RI, 4],
    ['docLen', n * NF, 4],
    ['termDf', T, 4],
    ['rawDf', R, 4],
    ['refOrder', n, 4],
    ['refsOff', n + 1, 4],
    ['termsOff', T + 1, 4],
    ['rawOff', R + 1, 4],
    ['stemsOff', R + 1, 4],
    ['postTf', P * NF, 2],
  ];
}

/**
 * Where everything of a segment with these counts lies in its bytes (what {@link encodeSegment}
 * writes): the 48-byte header, each column's byte offset, each string table's (refs, terms, raw,
 * stems) byte offset, and the total size. A writer that streams a segment (lexical-runs.ts) fills
 * the same layout.
 */
export function segmentLayout(
  counts: { n: number; T: number; R: number; P: number; RI: number },
  tableBytes: readonly [number, number, number, number],
): { header: Uint8Array; columns: Record<string, number>; tables: number[]; size: number } {
  const { n, T, R, P, RI } = counts;
  const header = new Uint8Array(HEADER_BYTES);
  const dv = new DataView(header.buffer);
  [MAGIC, LEXICAL_BINARY_VERSION, LITTLE_ENDIAN ? 1 : 0, n, T, R, P, RI, ...tableBytes].forEach((v, i) =>
    dv.setUint32(i * 4, v, true),
  );
  const at: Record<string, number> = {};
  let off = HEADER_BYTES;
  for (const [name, len, w] of columns(n, T, R, P, RI)) {
    at[name] = off;
    off += len * w + pad4(len * w);
  }
  const tables: number[] = [];
  for (const b of tableBytes) {
    tables.push(off);
    off += b;
  }
  return { header, columns: at, tables, size: off };
}

/** The bytes of one segment (statistics computed here when the segment does not carry them). */
export function encodeSegment(d: SegmentData): Uint8Array {
  const stats = d.stats ?? segmentStats(d);
  const n = d.refs.length;
  const T = d.terms.length;
  const R = d.raw.length;
  const P = d.postIds.length;
  const RI = d.rawIds.length;
  // '' = same as the raw token (most tokens), which keeps the table small.
  const stemAt = (i: number) => (d.rawStem.at(i) === d.raw.at(i) ? '' : d.rawStem.at(i));
  const stems: StringList = { length: R, at: stemAt, toArray: () => Array.from({ length: R }, (_, i) => stemAt(i)) };
  const tables = [packStrings(d.refs), packStrings(d.terms), packStrings(d.raw), packStrings(stems)];
  const cols = columns(n, T, R, P, RI);
  let size = HEADER_BYTES; // 48 bytes: totalLen (Float64) starts 8-aligned
  for (const [, len, w] of cols) size += len * w + pad4(len * w);
  for (const t of tables) size += t.bytes.length;
  const buf = new ArrayBuffer(size);
  const dv = new DataView(buf);
  const header = [
    MAGIC,
    LEXICAL_BINARY_VERSION,
    LITTLE_ENDIAN ? 1 : 0,
    n,
    T,
    R,
    P,
    RI,
    ...tables.map((t) => t.bytes.length),
  ];
  header.forEach((v, i) => dv.setUint32(i * 4, v, true));
  const values: Record<string, ArrayLike<number>> = {
    totalLen: stats.totalLen,
    postStart: d.postStart,
    postIds: d.postIds,
    rawStart: d.rawStart,
    rawIds: d.rawIds,
    docLen: d.docLen,
    termDf: stats.termDf,
    rawDf: stats.rawDf,
    refOrder: stats.refOrder,
    refsOff: tables[0]!.offsets,
    termsOff: tables[1]!.offsets,
    rawOff: tables[2]!.offsets,
    stemsOff: tables[3]!.offsets,
    postTf: d.postTf,
  };
  let off = HEADER_BYTES;
  for (const [name, len, w] of cols) {
    const view =
      w === 8
        ? new Float64Array(buf, off, len)
        : w === 4
          ? new Int32Array(buf, off, len)
          : new Uint16Array(buf, off, len);
    view.set(values[name]!);
    off += len * w + pad4(len * w);
  }
  const bytes = new Uint8Array(buf);
  for (const t of tables) {
    bytes.set(t.bytes, off);
    off += t.bytes.length;
  }
  return bytes;
}

/** Non-decreasing, starting at 0 and ending at `end`. */
function offsetsOk(a: Int32Array | Uint32Array, end: number): boolean {
  if (a[0] !== 0 || a[a.length - 1] !== end) return false;
  for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) return false;
  return true;
}

/** Check a segment's ref offsets and ref order. @throws MemoryError `index.corrupt` when damaged. */
function checkRefs(refs: PackedStrings, refOrder: Int32Array): void {
  if (!offsetsOk(refs.offsets, refs.bytes.length)) throw corrupt('segment ref table damaged');
  const n = refs.length;
  for (let i = 0; i < refOrder.length; i++) {
    const id = refOrder[i]!;
    if (id < 0 || id >= n) throw corrupt('segment ref order out of range');
  }
}

/**
 * Views over the bytes of one segment.
 * @throws MemoryError `index.corrupt` on a wrong magic, version, byte order, length or shape.
 */
export function decodeSegment(input: Uint8Array, deferRefs = false): SegmentData {
  if (input.byteLength < HEADER_BYTES) throw corrupt('segment too short');
  // Typed-array views need aligned offsets: copy when the bytes sit at an unaligned offset of a shared buffer.
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice();
  const buf = bytes.buffer;
  const base = bytes.byteOffset;
  const dv = new DataView(buf, base, bytes.byteLength);
  if (dv.getUint32(0, true) !== MAGIC) throw corrupt('not a gitmem keyword segment');
  if (dv.getUint32(4, true) !== LEXICAL_BINARY_VERSION)
    throw corrupt(`segment format ${dv.getUint32(4, true)} is not ${LEXICAL_BINARY_VERSION}`);
  if (dv.getUint32(8, true) !== (LITTLE_ENDIAN ? 1 : 0))
    throw corrupt('segment written on a machine of other byte order');
  const [n, T, R, P, RI, refsB, termsB, rawB, stemsB] = Array.from({ length: 9 }, (_, i) =>
    dv.getUint32(12 + i * 4, true),
  ) as [number, number, number, number, number, number, number, number, number];
  const cols = columns(n, T, R, P, RI);
  let size = HEADER_BYTES + refsB + termsB + rawB + stemsB;
  for (const [, len, w] of cols) size += len * w + pad4(len * w);
  if (size !== bytes.byteLength) throw corrupt('segment length does not match');
  const v: Record<string, Float64Array | Int32Array | Uint16Array> = {};
  let off = HEADER_BYTES;
  for (const [name, len, w] of cols) {
    v[name] =
      w === 8
        ? new Float64Array(buf, base + off, len)
        : w === 4
          ? new Int32Array(buf, base + off, len)
          : new Uint16Array(buf, base + off, len);
    off += len * w + pad4(len * w);
  }
  const deferred = (offsets: Int32Array, len: number): PackedStrings => {
    const u = new Uint32Array(offsets.buffer, offsets.byteOffset, offsets.length);
    const s = new PackedStrings(new Uint8Array(buf, base + off, len), u);
    off += len;
    return s;
  };
  const table = (offsets: Int32Array, len: number, what: string): PackedStrings => {
    const u = new Uint32Array(offsets.buffer, offsets.byteOffset, offsets.length);
    if (!offsetsOk(u, len)) throw corrupt(`segment ${what} table damaged`);
    const s = new PackedStrings(new Uint8Array(buf, base + off, len), u);
    off += len;
    return s;
  };
  const postStart = v.postStart as Int32Array;
  const rawStart = v.rawStart as Int32Array;
  const rawIds = v.rawIds as Int32Array;
  if (!offsetsOk(postStart, P) || !offsetsOk(rawStart, RI)) throw corrupt('segment offsets out of order');
  // Deferred (decodeSegmentFrom): the ref offsets and ref order are not read yet; checked when they are.
  const refs = deferRefs ? deferred(v.refsOff as Int32Array, refsB) : table(v.refsOff as Int32Array, refsB, 'ref');
  const terms = table(v.termsOff as Int32Array, termsB, 'term');
  const raw = table(v.rawOff as Int32Array, rawB, 'vocabulary');
  const stems = table(v.stemsOff as Int32Array, stemsB, 'stem');
  const refOrder = v.refOrder as Int32Array;
  if (!deferRefs) checkRefs(refs, refOrder);
  const rawStem: StringList = {
    length: R,
    at: (i) => stems.at(i) || raw.at(i),
    toArray: () => Array.from({ length: R }, (_, i) => stems.at(i) || raw.at(i)),
  };
  const docLen = v.docLen as Int32Array;
  return {
    refs,
    terms,
    raw,
    rawStem,
    postStart,
    postIds: v.postIds as Int32Array,
    postTf: v.postTf as Uint16Array,
    docLen: new Uint32Array(docLen.buffer, docLen.byteOffset, docLen.length),
    rawStart,
    rawIds,
    stats: {
      termDf: v.termDf as Int32Array,
      rawDf: v.rawDf as Int32Array,
      totalLen: v.totalLen as Float64Array,
      refOrder,
    },
    untrusted: true,
  };
}

const unreachable = new FinalizationRegistry<RangedFile>((file) => file.close());

/**
 * A segment opened from its file: the bytes are one zero-filled buffer of the file's size (pages the
 * process never touches cost no memory), into which everything but the postings and the documents'
 * vocabulary ids is read now; postings [a, b) (ids and field term frequencies) and vocabulary ids
 * [a, b) are read when {@link SegmentData.fetch} asks for them (at 50k chunks the vocabulary ids
 * are 9 of the 13 MB a query read before, used only for masked documents, merges and encodes).
 * @throws MemoryError `index.corrupt` as {@link decodeSegment}, or when the file cannot be read.
 */
export function decodeSegmentFrom(file: RangedFile): SegmentData {
  const size = file.size;
  if (size < HEADER_BYTES) throw corrupt('segment too short');
  const bytes = new Uint8Array(size);
  const fill = (from: number, to: number) => {
    if (to > from && file.read(bytes.subarray(from, to), from) !== to - from) throw corrupt('segment file truncated');
  };
  fill(0, HEADER_BYTES);
  const dv = new DataView(bytes.buffer, 0, HEADER_BYTES);
  const [n, T, R, P, RI] = Array.from({ length: 5 }, (_, i) => dv.getUint32(12 + i * 4, true)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  // Byte offsets of every column, as decodeSegment lays them out; the postings are two of them.
  const at: Record<string, number> = {};
  let off = HEADER_BYTES;
  for (const [name, len, w] of columns(n, T, R, P, RI)) {
    at[name] = off;
    off += len * w + pad4(len * w);
  }
  const ids = at.postIds!;
  const tf = at.postTf!;
  const rawIds = at.rawIds!;
  const afterRawIds = at.docLen!;
  if (!(ids <= at.rawStart! && rawIds <= afterRawIds && afterRawIds <= tf && tf <= off && off <= size))
    throw corrupt('segment length does not match');
  // The refs (their offsets, their order and their text: at 800k chunks 40 of the 58 MB read here
  // before) are read a ref at a time for hits, and whole on the first lookup by ref (issue 46).
  const refsB = dv.getUint32(32, true);
  const refOrderAt = at.refOrder!;
  const refsOffAt = at.refsOff!;
  const afterRefsOff = at.termsOff!;
  if (!(afterRawIds <= refOrderAt && refOrderAt <= afterRefsOff && afterRefsOff <= tf && off + refsB <= size))
    throw corrupt('segment length does not match');
  fill(HEADER_BYTES, ids);
  fill(at.rawStart!, rawIds);
  fill(afterRawIds, refOrderAt);
  fill(afterRefsOff, tf);
  fill(off + refsB, size);
  // Checks the header, the length and every column read so far.
  const data = decodeSegment(bytes, true);
  const refs = data.refs as PackedStrings;
  let refsWhole = false;
  let refsRead: Uint8Array | undefined = new Uint8Array(n);
  let refReads = 0;
  const allRefs = () => {
    if (refsWhole) return;
    fill(refOrderAt, afterRefsOff);
    fill(off, off + refsB);
    checkRefs(refs, data.stats!.refOrder);
    refsWhole = true;
    refsRead = undefined;
  };
  const lazyRefs: StringList = {
    length: n,
    at: (i) => {
      if (refsRead && refsRead[i] === 0 && i >= 0 && i < n) {
        if (++refReads > REF_READS_ALONE) allRefs();
        else {
          fill(refsOffAt + 4 * i, refsOffAt + 4 * i + 8);
          const a = refs.offsets[i]!;
          const b = refs.offsets[i + 1]!;
          if (!(a <= b && b <= refsB)) throw corrupt('segment ref table damaged');
          fill(off + a, off + b);
          refsRead[i] = 1;
        }
      }
      return refs.at(i);
    },
    toArray: () => {
      allRefs();
      return refs.toArray();
    },
  };
  const stats = data.stats!;
  const lazyStats: SegmentStats = {
    termDf: stats.termDf,
    rawDf: stats.rawDf,
    totalLen: stats.totalLen,
    get refOrder() {
      allRefs();
      return stats.refOrder;
    },
  };
  let complete = false;
  // A read once the file is closed throws (index.corrupt): postings are never left zero.
  const postings = (a: number, b: number) => {
    fill(ids + 4 * a, ids + 4 * b);
    fill(tf + 2 * NF * a, tf + 2 * NF * b);
  };
  const raw = (a: number, b: number) => fill(rawIds + 4 * a, rawIds + 4 * b);
  const out: SegmentData = {
    ...data,
    refs: lazyRefs,
    stats: lazyStats,
    fetch: {
      postings,
      raw,
      all: () => {
        if (complete) return;
        allRefs();
        postings(0, P);
        raw(0, RI);
        complete = true;
        file.close();
      },
      close: () => file.close(),
    },
  };
  // A segment dropped without close (replaced by a compaction while a snapshot still held it)
  // releases its file when it is collected.
  unreachable.register(out, file);
  return out;
}
