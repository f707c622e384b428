// The compact binary form of one segment: a JSON header (refs, vocabularies, sizes) and aligned
// typed arrays; decoding gives typed-array views over the bytes and checks the structure.
import { corrupt, isStringArray, NF, type SegmentData } from './lexical-segment.js';

/** Version of the binary segment format ({@link LexicalIndex.toBinary}); bump when it changes. */
export const LEXICAL_BINARY_VERSION = 1;
const MAGIC = 0x584c4d47; // "GMLX" read as a little-endian u32
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

const utf8 = new TextEncoder();

export function encodeSegment(d: SegmentData): Uint8Array {
  const header = utf8.encode(
    JSON.stringify({
      refs: d.refs,
      terms: d.terms,
      raw: d.raw,
      stems: d.raw.map((r, i) => (d.rawStem[i] === r ? '' : d.rawStem[i]!)),
      sizes: [
        d.postStart.length,
        d.postIds.length,
        d.rawStart.length,
        d.rawIds.length,
        d.docLen.length,
        d.postTf.length,
      ],
    }),
  );
  const headPad = (4 - (header.length % 4)) % 4;
  const i32 = d.postStart.length + d.postIds.length + d.rawStart.length + d.rawIds.length + d.docLen.length;
  const total = 16 + header.length + headPad + i32 * 4 + d.postTf.length * 2;
  const buf = new ArrayBuffer(total);
  const dv = new DataView(buf);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, LEXICAL_BINARY_VERSION, true);
  dv.setUint32(8, header.length, true);
  dv.setUint32(12, LITTLE_ENDIAN ? 1 : 0, true);
  const bytes = new Uint8Array(buf);
  bytes.set(header, 16);
  let off = 16 + header.length + headPad;
  for (const a of [d.postStart, d.postIds, d.rawStart, d.rawIds, d.docLen]) {
    new Int32Array(buf, off, a.length).set(a as unknown as ArrayLike<number>);
    off += a.length * 4;
  }
  new Uint16Array(buf, off, d.postTf.length).set(d.postTf);
  return bytes;
}

export function decodeSegment(input: Uint8Array): SegmentData {
  if (input.byteLength < 16) throw corrupt('segment too short');
  // Typed-array views need aligned offsets: copy when the bytes sit at an odd offset of a shared buffer.
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const buf = bytes.buffer;
  const base = bytes.byteOffset;
  const dv = new DataView(buf, base, bytes.byteLength);
  if (dv.getUint32(0, true) !== MAGIC) throw corrupt('not a gitmem keyword segment');
  if (dv.getUint32(4, true) !== LEXICAL_BINARY_VERSION)
    throw corrupt(`segment format ${dv.getUint32(4, true)} is not ${LEXICAL_BINARY_VERSION}`);
  if (dv.getUint32(12, true) !== (LITTLE_ENDIAN ? 1 : 0))
    throw corrupt('segment written on a machine of other byte order');
  const hlen = dv.getUint32(8, true);
  if (16 + hlen > bytes.byteLength) throw corrupt('segment header truncated');
  let h: { refs: unknown; terms: unknown; raw: unknown; stems: unknown; sizes: unknown };
  try {
    h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(16, 16 + hlen)));
  } catch (e) {
    throw corrupt('segment header unreadable', e);
  }
  if (!isStringArray(h.refs) || !isStringArray(h.terms) || !isStringArray(h.raw) || !isStringArray(h.stems))
    throw corrupt('bad segment header');
  if (h.raw.length !== h.stems.length) throw corrupt('bad segment vocabulary');
  const sizes = h.sizes;
  if (!Array.isArray(sizes) || sizes.length !== 6 || !sizes.every((x) => Number.isInteger(x) && x >= 0))
    throw corrupt('bad segment sizes');
  const [s0, s1, s2, s3, s4, s5] = sizes as number[];
  const n = h.refs.length;
  const T = h.terms.length;
  if (s0 !== T + 1 || s2 !== n + 1 || s4 !== n * NF || s5 !== s1! * NF) throw corrupt('segment sizes do not match');
  let off = 16 + hlen + ((4 - (hlen % 4)) % 4);
  if (off + (s0! + s1! + s2! + s3! + s4!) * 4 + s5! * 2 !== bytes.byteLength)
    throw corrupt('segment length does not match');
  const take32 = (len: number) => {
    const a = new Int32Array(buf, base + off, len);
    off += len * 4;
    return a;
  };
  const postStart = take32(s0!);
  const postIds = take32(s1!);
  const rawStart = take32(s2!);
  const rawIds = take32(s3!);
  const docLenI = take32(s4!);
  const postTf = new Uint16Array(buf, base + off, s5!);
  const docLen = new Uint32Array(docLenI.buffer, docLenI.byteOffset, docLenI.length);
  // Structural checks (the artifact is checksummed; this guards against our own bugs and old builds).
  const monotone = (a: Int32Array, end: number) => {
    if (a[0] !== 0 || a[a.length - 1] !== end) return false;
    for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) return false;
    return true;
  };
  if (!monotone(postStart, s1!) || !monotone(rawStart, s3!)) throw corrupt('segment offsets out of order');
  for (const id of postIds) if (id < 0 || id >= n) throw corrupt('segment posting out of range');
  for (const r of rawIds) if (r < 0 || r >= h.raw.length) throw corrupt('segment vocabulary id out of range');
  for (let i = 1; i < T; i++) if (!(h.terms[i - 1]! < h.terms[i]!)) throw corrupt('segment terms not sorted');
  for (let i = 1; i < h.raw.length; i++)
    if (!(h.raw[i - 1]! < h.raw[i]!)) throw corrupt('segment vocabulary not sorted');
  const raw = h.raw;
  const stems = h.stems;
  return {
    refs: h.refs,
    terms: h.terms,
    raw,
    rawStem: raw.map((r, i) => stems[i] || r),
    postStart,
    postIds,
    postTf,
    docLen,
    rawStart,
    rawIds,
  };
}
