// The per-file table of a saved index in a compact columnar binary form: what each source file was
// when indexed (content hash, chunk count, stat key). A base table holds every file; a delta table
// holds only the files changed since the base was written (a removed file as a tombstone), so a
// one-file update writes a few hundred bytes instead of the whole table. Pure: no I/O.
import { MemoryError } from '../../core/errors.js';
import type { ManifestDoc } from './manifest.js';

/**
 * Layout, little-endian: `GMFT`, u32 version, u32 entry count n, u32 byte lengths of the path, hash
 * and stat blobs; then four u32 columns of n (chunk count or {@link TOMBSTONE}; the UTF-16 lengths
 * of path, hash and stat key, 0 = no stat key); then the three UTF-8 blobs (each the column's
 * strings joined). Strings are decoded one blob at a time and sliced, never per entry.
 */
const MAGIC = 0x54464d47; // 'GMFT'
const VERSION = 1;
const HEADER = 24;
/** Chunk-count value that marks a removed file in a delta table. */
const TOMBSTONE = 0xffffffff;

const encoder = new TextEncoder();
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** One row: the file's state, or null (delta only) when the file was removed. */
export type FileRow = readonly [path: string, doc: ManifestDoc | null];

/** Encode rows (any order; kept as given). */
export function encodeFileTable(rows: readonly FileRow[]): Uint8Array {
  const n = rows.length;
  const paths: string[] = new Array(n);
  const hashes: string[] = new Array(n);
  const stats: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const [p, d] = rows[i]!;
    paths[i] = p;
    hashes[i] = d?.contentHash ?? '';
    stats[i] = d?.stat ?? '';
  }
  const pb = encoder.encode(paths.join(''));
  const hb = encoder.encode(hashes.join(''));
  const sb = encoder.encode(stats.join(''));
  const out = new Uint8Array(HEADER + 16 * n + pb.byteLength + hb.byteLength + sb.byteLength);
  const v = new DataView(out.buffer);
  for (const [i, x] of [MAGIC, VERSION, n, pb.byteLength, hb.byteLength, sb.byteLength].entries())
    v.setUint32(4 * i, x, true);
  let o = HEADER;
  for (let i = 0; i < n; i++, o += 4) {
    const d = rows[i]![1];
    if (d && (!Number.isInteger(d.chunkCount) || d.chunkCount < 0 || d.chunkCount >= TOMBSTONE))
      throw new MemoryError('internal', `bad chunk count for ${paths[i]}`);
    v.setUint32(o, d ? d.chunkCount : TOMBSTONE, true);
  }
  for (const col of [paths, hashes, stats]) for (let i = 0; i < n; i++, o += 4) v.setUint32(o, col[i]!.length, true);
  out.set(pb, o);
  out.set(hb, o + pb.byteLength);
  out.set(sb, o + pb.byteLength + hb.byteLength);
  return out;
}

function corrupt(why: string): MemoryError {
  return new MemoryError('index.corrupt', `file table ${why}`);
}

/**
 * A decoded table, column by column (no object per row): `counts[i]` is null for a removed file.
 * Content hashes and stat keys are read per row ({@link FileColumns.hashAt}, {@link FileColumns.statAt}):
 * a one-shot query needs them for its hits' files only, so an ASCII column (hex hashes, numeric stat
 * keys) stays as its bytes and a row's string is made when asked for.
 */
export interface FileColumns {
  readonly n: number;
  readonly paths: readonly string[];
  readonly counts: readonly (number | null)[];
  /** Row `i`'s content hash ('' for a removed file). */
  hashAt(i: number): string;
  /** Row `i`'s stat key, or undefined when none was recorded. */
  statAt(i: number): string | undefined;
}

/** isAscii of node:buffer (simdutf), loaded on first use as core/hash.ts loads node:crypto. */
const isAscii = (b: Uint8Array): boolean => process.getBuiltinModule('node:buffer').isAscii(b);

/** Latin-1 (= ASCII here) text of `b`: one native copy into a one-byte string. */
function asciiText(b: Uint8Array): string {
  return process.getBuiltinModule('node:buffer').Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}

/**
 * One string column whose UTF-16 lengths are `lens[at..at+n)` and whose text is `blob`: per-row
 * strings made on demand from ASCII bytes (whose UTF-16 length is their byte length), else decoded
 * whole now. @throws MemoryError `index.corrupt` when the lengths do not add up to the text.
 */
function stringColumn(blob: Uint8Array, lens: Uint32Array, at: number, n: number): (i: number) => string {
  if (isAscii(blob)) {
    const off = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) off[i + 1] = off[i]! + lens[at + i]!;
    if (off[n] !== blob.byteLength)
      throw corrupt(off[n]! > blob.byteLength ? 'lengths run past its strings' : 'has strings left over');
    let text: string | undefined;
    return (i) => (text ??= asciiText(blob)).slice(off[i], off[i + 1]);
  }
  let text: string;
  try {
    text = decoder.decode(blob);
  } catch {
    throw corrupt('is not valid UTF-8');
  }
  const out: string[] = new Array(n);
  let a = 0;
  for (let i = 0; i < n; i++) {
    const l = lens[at + i]!;
    if (a + l > text.length) throw corrupt('lengths run past its strings');
    out[i] = text.slice(a, (a += l));
  }
  if (a !== text.length) throw corrupt('has strings left over');
  return (i) => out[i]!;
}

/**
 * Decode a table written by {@link encodeFileTable} into its columns.
 * @throws MemoryError `index.corrupt` on a wrong magic or version, lengths that do not add up,
 *   invalid UTF-8, or a row without a path or hash.
 */
export function decodeFileColumns(bytes: Uint8Array): FileColumns {
  if (bytes.byteLength < HEADER) throw corrupt('is truncated');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, true) !== MAGIC) throw corrupt('has a wrong signature');
  if (v.getUint32(4, true) !== VERSION) throw corrupt(`has version ${v.getUint32(4, true)}, expected ${VERSION}`);
  const n = v.getUint32(8, true);
  const [pl, hl, sl] = [v.getUint32(12, true), v.getUint32(16, true), v.getUint32(20, true)];
  const cols = HEADER + 16 * n;
  if (cols + pl + hl + sl !== bytes.byteLength) throw corrupt('lengths do not match its size');
  let tp: string;
  try {
    tp = decoder.decode(bytes.subarray(cols, cols + pl));
  } catch {
    throw corrupt('is not valid UTF-8');
  }
  // The four columns as one aligned u32 array (a copy of 16 bytes per row; the file is little-endian).
  const col = new Uint32Array(bytes.slice(HEADER, cols).buffer);
  if (!LITTLE_ENDIAN) for (let i = 0; i < col.length; i++) col[i] = v.getUint32(HEADER + 4 * i, true);
  const hashAt = stringColumn(bytes.subarray(cols + pl, cols + pl + hl), col, 2 * n, n);
  const statText = stringColumn(bytes.subarray(cols + pl + hl), col, 3 * n, n);
  let ap = 0;
  const paths: string[] = new Array(n);
  const counts: (number | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const count = col[i]!;
    const pl = col[n + i]!;
    if (ap + pl > tp.length) throw corrupt('lengths run past its strings');
    const path = tp.slice(ap, (ap += pl));
    if (!path || (count !== TOMBSTONE && col[2 * n + i] === 0)) throw corrupt('has a row without a path or hash');
    paths[i] = path;
    counts[i] = count === TOMBSTONE ? null : count;
  }
  if (ap !== tp.length) throw corrupt('has strings left over');
  const statAt = (i: number): string | undefined => (col[3 * n + i] ? statText(i) : undefined);
  return { n, paths, counts, hashAt, statAt };
}

/** The state of row `i` of decoded columns, or null for a removed file. */
export function docAt(c: FileColumns, i: number): ManifestDoc | null {
  const count = c.counts[i]!;
  if (count === null) return null;
  const stat = c.statAt(i);
  return stat !== undefined
    ? { contentHash: c.hashAt(i), chunkCount: count, stat }
    : { contentHash: c.hashAt(i), chunkCount: count };
}

/**
 * Decode a table written by {@link encodeFileTable}, row by row.
 * @throws MemoryError `index.corrupt` as {@link decodeFileColumns}.
 */
export function decodeFileTable(bytes: Uint8Array): FileRow[] {
  const c = decodeFileColumns(bytes);
  const rows: FileRow[] = new Array(c.n);
  for (let i = 0; i < c.n; i++) rows[i] = [c.paths[i]!, docAt(c, i)];
  return rows;
}
