// The persisted form of a segment's chunk records (`*.chunks` artifacts): one JSON text per record,
// addressed by an offset column, plus a path column (runs of consecutive records of one file), the
// records that carry `supersedes`, and per record its id and embedding key (32 raw bytes) as columns.
// A loaded index decodes a record only when a query reaches it (a hit, or a file that changed);
// nothing parses every record of a 50k-chunk index at start-up, and the vector side (which chunks
// lack an embedding, embedding key → chunk ids) reads the id and key columns only.
// deps: core, service/index-manager (types only).
import { MemoryError } from '../../core/errors.js';
import type { RangedFile } from '../../core/ports.js';
import type { ChunkRecord } from './index-manager.js';
import { PathRuns } from './path-runs.js';

/** Version of the chunk-record artifact; bump when it changes. 2: id and embedding-key columns. */
const CHUNK_CODEC_VERSION = 2;
/** Decoded records a table keeps (least recently used dropped first). */
const RECORD_CACHE = 4096;
/**
 * Ids a table opened from its file reads one at a time (a read each) before it reads the whole id
 * column: a one-shot query reads the ids of its hits' files; the vector side and merges read them all.
 */
const ID_READS_ALONE = 2048;
/** Bytes of one embedding key in the key column (a SHA-256); all zero when a record has none. */
const VKEY_BYTES = 32;
const MAGIC = 0x4b434d47; // "GMCK" read as a little-endian u32
const HEADER_WORDS = 8;

function corrupt(message: string): MemoryError {
  return new MemoryError('index.corrupt', `chunk records: ${message}`, {
    hint: 'the index is rebuilt from the markdown files (gitmem index --rebuild)',
  });
}

const utf8 = new TextEncoder();

/**
 * Bytes appended in order, then handed on once (the JSON, path, id and key regions of an artifact
 * being encoded). In memory by default ({@link ByteSink}); a streamed build passes file-backed ones
 * (engine/spill.ts), so a 100,000-file workspace's record text never sits in memory.
 */
export interface ByteSpill {
  /** Append `text` as UTF-8. @returns the bytes written. */
  write(text: string): number;
  /** Append bytes (copied or written before the call returns). */
  writeBytes(bytes: Uint8Array): void;
  /** Bytes written so far. */
  readonly length: number;
  /** Pass everything written to `out`, in order, in pieces (each valid only during its call); then spent. */
  drainTo(out: (piece: Uint8Array) => void): void;
}

/** Bytes appended in pieces of at least 1 MiB (no per-record array, no doubling copies). */
class ByteSink implements ByteSpill {
  readonly #pieces: Uint8Array[] = [];
  #cur = new Uint8Array(0);
  #at = 0;
  /** Bytes written so far. */
  length = 0;

  #room(k: number): void {
    if (this.#cur.length - this.#at >= k) return;
    if (this.#at > 0) this.#pieces.push(this.#cur.subarray(0, this.#at));
    this.#cur = new Uint8Array(Math.max(1 << 20, k));
    this.#at = 0;
  }

  write(text: string): number {
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    this.#room(text.length * 3);
    const n = utf8.encodeInto(text, this.#cur.subarray(this.#at)).written;
    this.#at += n;
    this.length += n;
    return n;
  }

  writeBytes(bytes: Uint8Array): void {
    this.#room(bytes.length);
    this.#cur.set(bytes, this.#at);
    this.#at += bytes.length;
    this.length += bytes.length;
  }

  drainTo(out: (piece: Uint8Array) => void): void {
    if (this.#at > 0) this.#pieces.push(this.#cur.subarray(0, this.#at));
    for (const p of this.#pieces) out(p);
    this.#pieces.length = 0;
    this.#cur = new Uint8Array(0);
    this.#at = 0;
  }
}

/** Growable u32 column. */
class U32List {
  a = new Uint32Array(1024);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

/**
 * Encodes chunk records one at a time (in segment order) into the artifact {@link encodeChunkRecords}
 * writes, byte for byte: each record becomes its JSON bytes and column entries as it is added, so a
 * full build holds no record objects for it.
 */
export class ChunkRecordEncoder {
  readonly #json: ByteSpill;
  readonly #paths: ByteSpill;
  readonly #ids: ByteSpill;
  /** 32 bytes per record: its embedding key, all zero when it has none. */
  readonly #keys: ByteSpill;
  readonly #key = new Uint8Array(VKEY_BYTES);
  readonly #recOff = new U32List();
  readonly #idOff = new U32List();
  readonly #runStart = new U32List();
  readonly #pathOff = new U32List();
  readonly #sup = new U32List();
  #lastPath: string | undefined;
  #n = 0;

  /** @param spill where the regions go while records are added (default: memory). */
  constructor(spill: (region: 'json' | 'paths' | 'ids' | 'keys') => ByteSpill = () => new ByteSink()) {
    this.#json = spill('json');
    this.#paths = spill('paths');
    this.#ids = spill('ids');
    this.#keys = spill('keys');
    this.#recOff.push(0);
    this.#idOff.push(0);
    this.#pathOff.push(0);
  }

  /** Records added. */
  get size(): number {
    return this.#n;
  }

  add(r: ChunkRecord): void {
    const i = this.#n++;
    this.#recOff.push(this.#recOff.a[i]! + this.#json.write(JSON.stringify(r)));
    if (i === 0 || this.#lastPath !== r.path) {
      this.#runStart.push(i);
      this.#pathOff.push(this.#pathOff.a[this.#pathOff.n - 1]! + this.#paths.write(r.path));
      this.#lastPath = r.path;
    }
    if (r.supersedes?.length) this.#sup.push(i);
    this.#idOff.push(this.#idOff.a[i]! + this.#ids.write(r.id));
    this.#key.fill(0);
    if (r.vkey) writeHex(this.#key, 0, r.vkey);
    this.#keys.writeBytes(this.#key);
  }

  /** Byte length of the artifact {@link finishTo} writes. */
  get bytes(): number {
    return this.#columns().length + this.#keys.length + this.#json.length + this.#paths.length + this.#ids.length;
  }

  /** Header and offset columns (every u32 word in front of the embedding keys). */
  #columns(): Uint8Array {
    const n = this.#n;
    const R = this.#runStart.n;
    const S = this.#sup.n;
    const words = HEADER_WORDS + (n + 1) + (R + 1) + (R + 1) + S + (n + 1);
    const u = new Uint32Array(words);
    u.set([MAGIC, CHUNK_CODEC_VERSION, n, R, S, this.#json.length, this.#paths.length, this.#ids.length]);
    let w = HEADER_WORDS;
    u.set(this.#recOff.a.subarray(0, n + 1), w);
    w += n + 1;
    u.set(this.#runStart.a.subarray(0, R), w);
    w += R;
    u[w++] = n;
    u.set(this.#pathOff.a.subarray(0, R + 1), w);
    w += R + 1;
    u.set(this.#sup.a.subarray(0, S), w);
    w += S;
    u.set(this.#idOff.a.subarray(0, n + 1), w);
    return new Uint8Array(u.buffer);
  }

  /** Pass the artifact of every record added to `out`, in order, in pieces (the encoder is spent afterwards). */
  finishTo(out: (piece: Uint8Array) => void): void {
    out(this.#columns());
    for (const region of [this.#keys, this.#json, this.#paths, this.#ids]) region.drainTo(out);
  }

  /** The artifact of every record added (the encoder is spent afterwards). */
  finish(): Uint8Array {
    const all = new Uint8Array(this.bytes);
    let at = 0;
    this.finishTo((piece) => {
      all.set(piece, at);
      at += piece.length;
    });
    return all;
  }
}

/** Encode `records` (in segment order). */
export function encodeChunkRecords(records: readonly ChunkRecord[]): Uint8Array {
  const e = new ChunkRecordEncoder();
  for (const r of records) e.add(r);
  return e.finish();
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

/**
 * Path `r` of the packed path table (`u[off + r] .. u[off + r + 1]` are its byte offsets in `bytes`).
 * All-ASCII paths (every byte one character) are decoded in one call and sliced; otherwise each is
 * decoded alone. @throws MemoryError `index.corrupt` on bytes that are not UTF-8.
 */
function pathTable(bytes: Uint8Array, u: Uint32Array, off: number): (r: number) => string {
  const dec = new TextDecoder('utf-8', { fatal: true });
  let all: string;
  try {
    all = dec.decode(bytes);
  } catch {
    throw corrupt('paths unreadable');
  }
  if (all.length === bytes.length) return (r) => all.slice(u[off + r]!, u[off + r + 1]!);
  return (r) => {
    try {
      return dec.decode(bytes.subarray(u[off + r]!, u[off + r + 1]!));
    } catch {
      throw corrupt(`path ${r} unreadable`);
    }
  };
}

/** The records of one artifact, decoded on demand. */
export interface ChunkRecordTable {
  /** Number of records. */
  readonly size: number;
  /** Record `i` (decoded on first use; the last {@link RECORD_CACHE} used are kept). */
  record(i: number): ChunkRecord;
  /** Records `[start, end)`. */
  slice(start: number, end: number): ChunkRecord[];
  /**
   * Path → record index ranges, in first-seen order (without decoding a record); no Map of every
   * path is made when the runs are sorted ({@link PathRuns}).
   */
  readonly byPath: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  /** Indexes of the records that carry `supersedes`. */
  readonly superseding: readonly number[];
  /** Id of record `i`, from the id column (the record is not decoded). */
  id(i: number): string;
  /**
   * The first record in `[start, end)` whose id is `id`, or -1: the range's ids compared as bytes,
   * read in one piece (a hit's file is found without a read per record).
   */
  indexOfId(start: number, end: number, id: string): number;
  /** Embedding key of record `i` from the key column (not decoded), or undefined when it has none. */
  vkey(i: number): string | undefined;
}

const nonDecreasing = (a: Uint32Array, from: number, to: number, first: number, last: number): boolean => {
  if (a[from] !== first || a[to - 1] !== last) return false;
  for (let i = from + 1; i < to; i++) if (a[i]! < a[i - 1]!) return false;
  return true;
};

/** Closes the file of a table read through a RangedFile once nothing can read the table any more. */
const closeWithTable = new FinalizationRegistry<RangedFile>((file) => file.close());

/** Where a table's record JSON lives: `len` bytes at `at` of the JSON region (in memory, or read from the file). */
type JsonAt = (at: number, len: number) => Uint8Array;

/**
 * Views over a chunk-record artifact; checks its structure in O(records). Given an open
 * {@link RangedFile} (IndexStorage.openRanged), only the columns (offsets, ids, embedding keys,
 * paths: about a tenth of the bytes) are read into memory; a record's JSON is read from the file when
 * it is decoded, so a loaded index does not hold the records' text. The file must stay open while
 * the table is reachable: it is closed once the table is garbage collected (or by `close`).
 * @throws MemoryError `index.corrupt` on a wrong magic, version, length or shape, and (from
 *   {@link ChunkRecordTable.record}) on a record that is not valid JSON of a record.
 */
export function decodeChunkRecords(input: Uint8Array | RangedFile): ChunkRecordTable {
  const file = input instanceof Uint8Array ? undefined : input;
  const size = file ? file.size : (input as Uint8Array).byteLength;
  const readAt = (at: number, len: number): Uint8Array => {
    const b = new Uint8Array(len);
    if (file!.read(b, at) !== len) throw corrupt('shorter than its header says');
    return b;
  };
  if (size < HEADER_WORDS * 4) throw corrupt('too short');
  let bytes = file ? readAt(0, HEADER_WORDS * 4) : (input as Uint8Array);
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS);
  if (head[0] !== MAGIC) throw corrupt('not a gitmem chunk-record artifact');
  if (head[1] !== CHUNK_CODEC_VERSION) throw corrupt(`format ${head[1]} is not ${CHUNK_CODEC_VERSION}`);
  const [n, R, S, jsonBytes, pathBytes, idBytes] = [head[2]!, head[3]!, head[4]!, head[5]!, head[6]!, head[7]!];
  const words = HEADER_WORDS + (n + 1) + (R + 1) + (R + 1) + S + (n + 1);
  const keysAt = words * 4;
  if (keysAt + n * VKEY_BYTES + jsonBytes + pathBytes + idBytes !== size) throw corrupt('length does not match');
  const jsonAt = keysAt + n * VKEY_BYTES;
  let json: JsonAt;
  let tail: Uint8Array;
  if (file) {
    // Columns in front of the keys and JSON, paths after them; the JSON stays in the file, the id
    // column is read an id at a time (whole after ID_READS_ALONE), and the key column (32 bytes a
    // record) is read when the vector side first asks for it.
    bytes = readAt(0, keysAt);
    tail = readAt(jsonAt + jsonBytes, pathBytes);
    json = (at, len) => readAt(jsonAt + at, len);
  } else {
    const all = bytes;
    tail = all.subarray(jsonAt + jsonBytes);
    json = (at, len) => all.subarray(jsonAt + at, jsonAt + at + len);
  }
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
  const all = bytes;
  const paths = tail.subarray(0, pathBytes);
  const idsAt = jsonAt + jsonBytes + pathBytes;
  let idText: Uint8Array | undefined = file ? undefined : tail.subarray(pathBytes);
  let idReads = 0;
  const dec = new TextDecoder('utf-8', { fatal: true });
  // Path → ranges without a Map when the runs' paths are sorted (engine/chunks/path-runs.ts).
  const byPath = new PathRuns(R, pathTable(paths, u, pathOff), (r) => u[runStart + r]!);
  const superseding = Array.from(u.subarray(supOff, supOff + S));
  if (superseding.some((i) => i >= n)) throw corrupt('supersedes column out of range');
  const inRange = (i: number) => {
    if (!(i >= 0 && i < n)) throw new MemoryError('internal', `chunk record ${i} out of range`);
  };
  const id = (i: number): string => {
    inRange(i);
    const a = u[idOff + i]!;
    const b = u[idOff + i + 1]!;
    if (!idText && ++idReads > ID_READS_ALONE) idText = readAt(idsAt, idBytes);
    const idBytesOf = idText ? idText.subarray(a, b) : readAt(idsAt + a, b - a);
    try {
      return dec.decode(idBytesOf);
    } catch {
      throw corrupt(`id ${i} unreadable`);
    }
  };
  /** The first record in `[start, end)` whose id is `want` (-1: none); the ids are read in one piece. */
  const indexOfId = (start: number, end: number, want: string): number => {
    if (end <= start) return -1;
    inRange(start);
    inRange(end - 1);
    const from = u[idOff + start]!;
    if (!idText && ++idReads > ID_READS_ALONE) idText = readAt(idsAt, idBytes);
    const block = idText ? idText.subarray(from, u[idOff + end]!) : readAt(idsAt + from, u[idOff + end]! - from);
    const bytesOf = utf8.encode(want);
    for (let i = start; i < end; i++) {
      const a = u[idOff + i]! - from;
      const b = u[idOff + i + 1]! - from;
      if (b - a !== bytesOf.length) continue;
      let same = true;
      for (let k = 0; k < bytesOf.length && same; k++) same = block[a + k] === bytesOf[k];
      if (same) return i;
    }
    return -1;
  };
  // The key column: in the artifact's bytes, or read whole from the file on first use (a keyword
  // recall never reads it whole: a decoded record's own key is read alone, see `keyOf`).
  let keyColumn: Uint8Array | undefined = file ? undefined : all.subarray(keysAt, jsonAt);
  const vkey = (i: number): string | undefined => {
    inRange(i);
    keyColumn ??= readAt(keysAt, n * VKEY_BYTES);
    return readHex(keyColumn, i * VKEY_BYTES);
  };
  /** Record `i`'s key, from the column when it is in memory, else its 32 bytes read from the file. */
  const keyOf = (i: number): string | undefined =>
    keyColumn ? vkey(i) : readHex(readAt(keysAt + i * VKEY_BYTES, VKEY_BYTES), 0);
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
      const at = u[recOff + i]!;
      r = parse(i, json(at, u[recOff + i + 1]! - at));
      remember(i, r);
    }
    return r;
  };
  const parse = (i: number, text: Uint8Array): ChunkRecord => {
    let v: unknown;
    try {
      v = JSON.parse(dec.decode(text));
    } catch {
      throw corrupt(`record ${i} unreadable`);
    }
    const o = v as ChunkRecord;
    if (typeof o !== 'object' || o === null || typeof o.id !== 'string' || typeof o.path !== 'string')
      throw corrupt(`record ${i} is not a chunk record`);
    if (o.id !== id(i) || o.vkey !== keyOf(i)) throw corrupt(`record ${i} does not match its id and key columns`);
    return o;
  };
  const remember = (i: number, r: ChunkRecord) => {
    cache.set(i, r);
    if (cache.size > RECORD_CACHE) cache.delete(cache.keys().next().value!);
  };
  const table: ChunkRecordTable = {
    size: n,
    record,
    slice: (start, end) => {
      const out: ChunkRecord[] = [];
      if (!file || end - start < 2) {
        for (let i = start; i < end; i++) out.push(record(i));
        return out;
      }
      // One read for the run's JSON (a file's records are adjacent), not one per record.
      if (!(start >= 0 && end <= n)) throw new MemoryError('internal', `chunk records ${start}-${end} out of range`);
      const from = u[recOff + start]!;
      const text = json(from, u[recOff + end]! - from);
      for (let i = start; i < end; i++) {
        const cached = cache.get(i);
        out.push(cached ?? parse(i, text.subarray(u[recOff + i]! - from, u[recOff + i + 1]! - from)));
      }
      return out;
    },
    byPath,
    superseding,
    id,
    indexOfId,
    vkey,
  };
  if (file) closeWithTable.register(table, file);
  return table;
}
