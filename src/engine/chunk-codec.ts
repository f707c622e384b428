// The persisted form of a segment's chunk records (`*.chunks` artifacts): one JSON text per record,
// addressed by an offset column, plus a path column (runs of consecutive records of one file), the
// records that carry `supersedes`, and per record its id and embedding key (32 raw bytes) as columns.
// A loaded index decodes a record only when a query reaches it (a hit, or a file that changed);
// nothing parses every record of a 50k-chunk index at start-up, and the vector side (which chunks
// lack an embedding, embedding key → chunk ids) reads the id and key columns only.
// deps: core, service/index-manager (types only).
import { MemoryError } from '../core/errors.js';
import type { ChunkRecord } from './index-manager.js';

/** Version of the chunk-record artifact; bump when it changes. 2: id and embedding-key columns. */
const CHUNK_CODEC_VERSION = 2;
/** Decoded records a table keeps (least recently used dropped first). */
const RECORD_CACHE = 4096;
/** Bytes of one embedding key in the key column (a SHA-256); all zero when a record has none. */
const VKEY_BYTES = 32;
const MAGIC = 0x4b434d47; // "GMCK" read as a little-endian u32
const HEADER_WORDS = 8;

function corrupt(message: string): MemoryError {
  return new MemoryError('index.corrupt', `chunk records: ${message}`, {
    hint: 'the index is rebuilt from the markdown files (gitmem index --rebuild)',
  });
}

/** Encode `records` (in segment order). */
export function encodeChunkRecords(records: readonly ChunkRecord[]): Uint8Array {
  const enc = new TextEncoder();
  const json = records.map((r) => enc.encode(JSON.stringify(r)));
  const runs: { path: Uint8Array; start: number }[] = [];
  records.forEach((r, i) => {
    if (i === 0 || records[i - 1]!.path !== r.path) runs.push({ path: enc.encode(r.path), start: i });
  });
  const sup: number[] = [];
  records.forEach((r, i) => {
    if (r.supersedes?.length) sup.push(i);
  });
  const ids = records.map((r) => enc.encode(r.id));
  const n = records.length;
  const R = runs.length;
  const jsonBytes = json.reduce((s, b) => s + b.length, 0);
  const pathBytes = runs.reduce((s, r) => s + r.path.length, 0);
  const idBytes = ids.reduce((s, b) => s + b.length, 0);
  const words = HEADER_WORDS + (n + 1) + (R + 1) + (R + 1) + sup.length + (n + 1);
  const keysAt = words * 4;
  const out = new Uint8Array(keysAt + n * VKEY_BYTES + jsonBytes + pathBytes + idBytes);
  const u = new Uint32Array(out.buffer, 0, words);
  u.set([MAGIC, CHUNK_CODEC_VERSION, n, R, sup.length, jsonBytes, pathBytes, idBytes]);
  let w = HEADER_WORDS;
  let off = 0;
  for (let i = 0; i < n; i++) {
    u[w++] = off;
    off += json[i]!.length;
  }
  u[w++] = off;
  for (const r of runs) u[w++] = r.start;
  u[w++] = n;
  off = 0;
  for (const r of runs) {
    u[w++] = off;
    off += r.path.length;
  }
  u[w++] = off;
  for (const i of sup) u[w++] = i;
  off = 0;
  for (let i = 0; i < n; i++) {
    u[w++] = off;
    off += ids[i]!.length;
  }
  u[w] = off;
  records.forEach((r, i) => {
    if (r.vkey) writeHex(out, keysAt + i * VKEY_BYTES, r.vkey);
  });
  let b = keysAt + n * VKEY_BYTES;
  for (const j of json) {
    out.set(j, b);
    b += j.length;
  }
  for (const r of runs) {
    out.set(r.path, b);
    b += r.path.length;
  }
  for (const id of ids) {
    out.set(id, b);
    b += id.length;
  }
  return out;
}

/** ASCII codes of the hex digits. */
const HEX_DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** Scratch for one key's 64 digits: the key string is made in one piece (`+=` would leave a 32-part rope). */
const hexScratch = new Array<number>(2 * VKEY_BYTES);

/** Write the 64-hex-digit `key` as 32 bytes at `at`. @throws MemoryError `internal` for another shape. */
function writeHex(out: Uint8Array, at: number, key: string): void {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new MemoryError('internal', `embedding key ${key} is not a SHA-256`);
  for (let i = 0; i < VKEY_BYTES; i++) out[at + i] = parseInt(key.slice(2 * i, 2 * i + 2), 16);
}

/** The 32 bytes at `at` as 64 hex digits, or undefined when all are zero (no key). */
function readHex(bytes: Uint8Array, at: number): string | undefined {
  let any = 0;
  for (let i = 0; i < VKEY_BYTES; i++) {
    const b = bytes[at + i]!;
    any |= b;
    hexScratch[2 * i] = HEX_DIGITS[b >> 4]!;
    hexScratch[2 * i + 1] = HEX_DIGITS[b & 15]!;
  }
  return any ? String.fromCharCode(...hexScratch) : undefined;
}

/** The records of one artifact, decoded on demand. */
export interface ChunkRecordTable {
  /** Number of records. */
  readonly size: number;
  /** Record `i` (decoded on first use; the last {@link RECORD_CACHE} used are kept). */
  record(i: number): ChunkRecord;
  /** Records `[start, end)`. */
  slice(start: number, end: number): ChunkRecord[];
  /** Path → record index ranges, in first-seen order (without decoding a record). */
  readonly byPath: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  /** Indexes of the records that carry `supersedes`. */
  readonly superseding: readonly number[];
  /** Id of record `i`, from the id column (the record is not decoded). */
  id(i: number): string;
  /** Embedding key of record `i` from the key column (not decoded), or undefined when it has none. */
  vkey(i: number): string | undefined;
}

const nonDecreasing = (a: Uint32Array, from: number, to: number, first: number, last: number): boolean => {
  if (a[from] !== first || a[to - 1] !== last) return false;
  for (let i = from + 1; i < to; i++) if (a[i]! < a[i - 1]!) return false;
  return true;
};

/**
 * Views over a chunk-record artifact; checks its structure in O(records).
 * @throws MemoryError `index.corrupt` on a wrong magic, version, length or shape, and (from
 *   {@link ChunkRecordTable.record}) on a record that is not valid JSON of a record.
 */
export function decodeChunkRecords(input: Uint8Array): ChunkRecordTable {
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  if (bytes.byteLength < HEADER_WORDS * 4) throw corrupt('too short');
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS);
  if (head[0] !== MAGIC) throw corrupt('not a gitmem chunk-record artifact');
  if (head[1] !== CHUNK_CODEC_VERSION) throw corrupt(`format ${head[1]} is not ${CHUNK_CODEC_VERSION}`);
  const [n, R, S, jsonBytes, pathBytes, idBytes] = [head[2]!, head[3]!, head[4]!, head[5]!, head[6]!, head[7]!];
  const words = HEADER_WORDS + (n + 1) + (R + 1) + (R + 1) + S + (n + 1);
  const keysAt = words * 4;
  if (keysAt + n * VKEY_BYTES + jsonBytes + pathBytes + idBytes !== bytes.byteLength)
    throw corrupt('length does not match');
  const u = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
  const recOff = HEADER_WORDS;
  const runStart = recOff + n + 1;
  const pathOff = runStart + R + 1;
  const supOff = pathOff + R + 1;
  const idOff = supOff + S;
  if (!nonDecreasing(u, recOff, runStart, 0, jsonBytes)) throw corrupt('record offsets damaged');
  if (R > 0 ? !nonDecreasing(u, runStart, pathOff, 0, n) : n !== 0) throw corrupt('path runs damaged');
  if (!nonDecreasing(u, pathOff, supOff, 0, pathBytes)) throw corrupt('path offsets damaged');
  if (!nonDecreasing(u, idOff, idOff + n + 1, 0, idBytes)) throw corrupt('id offsets damaged');
  const all = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonBase = bytes.byteOffset + keysAt + n * VKEY_BYTES;
  const json = new Uint8Array(bytes.buffer, jsonBase, jsonBytes);
  const paths = new Uint8Array(bytes.buffer, jsonBase + jsonBytes, pathBytes);
  const idText = new Uint8Array(bytes.buffer, jsonBase + jsonBytes + pathBytes, idBytes);
  const dec = new TextDecoder('utf-8', { fatal: true });
  const byPath = new Map<string, [number, number][]>();
  for (let r = 0; r < R; r++) {
    const path = dec.decode(paths.subarray(u[pathOff + r]!, u[pathOff + r + 1]!));
    const range: [number, number] = [u[runStart + r]!, u[runStart + r + 1]!];
    const list = byPath.get(path);
    if (list) list.push(range);
    else byPath.set(path, [range]);
  }
  const superseding = Array.from(u.subarray(supOff, supOff + S));
  if (superseding.some((i) => i >= n)) throw corrupt('supersedes column out of range');
  const inRange = (i: number) => {
    if (!(i >= 0 && i < n)) throw new MemoryError('internal', `chunk record ${i} out of range`);
  };
  const id = (i: number): string => {
    inRange(i);
    try {
      return dec.decode(idText.subarray(u[idOff + i]!, u[idOff + i + 1]!));
    } catch {
      throw corrupt(`id ${i} unreadable`);
    }
  };
  const vkey = (i: number): string | undefined => {
    inRange(i);
    return readHex(all, keysAt + i * VKEY_BYTES);
  };
  // Decoded records, most recently used last; bounded, so a long-lived host that answers many
  // queries does not end up holding every record decoded (a file's records, once read whole, are
  // held by its file state instead).
  const cache = new Map<number, ChunkRecord>();
  const record = (i: number): ChunkRecord => {
    let r = cache.get(i);
    if (r !== undefined) {
      cache.delete(i);
      cache.set(i, r);
    } else {
      if (!(i >= 0 && i < n)) throw new MemoryError('internal', `chunk record ${i} out of range`);
      let v: unknown;
      try {
        v = JSON.parse(dec.decode(json.subarray(u[recOff + i]!, u[recOff + i + 1]!)));
      } catch {
        throw corrupt(`record ${i} unreadable`);
      }
      const o = v as ChunkRecord;
      if (typeof o !== 'object' || o === null || typeof o.id !== 'string' || typeof o.path !== 'string')
        throw corrupt(`record ${i} is not a chunk record`);
      if (o.id !== id(i) || o.vkey !== vkey(i)) throw corrupt(`record ${i} does not match its id and key columns`);
      r = o;
      cache.set(i, r);
      if (cache.size > RECORD_CACHE) cache.delete(cache.keys().next().value!);
    }
    return r;
  };
  return {
    size: n,
    record,
    slice: (start, end) => {
      const out: ChunkRecord[] = [];
      for (let i = start; i < end; i++) out.push(record(i));
      return out;
    },
    byPath,
    superseding,
    id,
    vkey,
  };
}
