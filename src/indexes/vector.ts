// VectorTable: unit vectors keyed by chunk hash in one contiguous Float32Array — the embedding cache
// (a hash already present is never re-embedded) and exact cosine top-k (dot product of unit vectors,
// a 262-byte WebAssembly SIMD kernel, ~6x a JS loop). Pure: imports only core; no node: modules.
import { MemoryError } from '../core/errors.js';
import { Arena } from './vector-kernel.js';

/** One scored row of {@link VectorTable.topK}. */
export interface VectorHit {
  /** The row's key (a chunk hash). */
  readonly ref: string;
  /** Cosine similarity in [-1, 1] (dot product; both sides are unit vectors). */
  readonly score: number;
}

/** Persisted form of a {@link VectorTable}: rows sorted by id, so equal tables give equal bytes. */
export interface SerializedVectors {
  /** `ids.length × dims` float32 values, little-endian, row-major. */
  readonly vectors: Uint8Array;
  /** Row keys, in row order. */
  readonly ids: string[];
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function corrupt(message: string, data?: Record<string, unknown>): MemoryError {
  return new MemoryError('index.corrupt', message, data ? { data } : {});
}

/**
 * A growable table of `dims`-float vectors keyed by string (a chunk hash). Rows live in one
 * Float32Array; removal moves the last row into the hole, so row order is not insertion order.
 */
export class VectorTable {
  /** Floats per vector. */
  readonly dims: number;
  #data: Float32Array;
  #arena: Arena | undefined;
  #ids: string[] = [];
  readonly #rows = new Map<string, number>();

  /**
   * @param dims floats per vector (a positive integer).
   * @param capacity rows to reserve up front (grows by doubling).
   * @throws MemoryError `internal` for a non-positive `dims`.
   */
  constructor(dims: number, capacity = 64) {
    if (!Number.isInteger(dims) || dims <= 0) throw new MemoryError('internal', `invalid vector dims ${dims}`);
    this.dims = dims;
    this.#arena = Arena.tryCreate(dims, Math.max(1, capacity));
    this.#data = this.#arena?.data ?? new Float32Array(Math.max(1, capacity) * dims);
  }

  /** True when scoring runs in the WebAssembly SIMD kernel (false: the JS loop). */
  get accelerated(): boolean {
    return this.#arena !== undefined;
  }

  /** Number of vectors. */
  get size(): number {
    return this.#ids.length;
  }

  /** True when `id` has a vector. */
  has(id: string): boolean {
    return this.#rows.has(id);
  }

  /** A copy of the vector of `id`. @returns undefined when absent. */
  get(id: string): Float32Array | undefined {
    const row = this.#rows.get(id);
    if (row === undefined) return undefined;
    return this.#data.slice(row * this.dims, (row + 1) * this.dims);
  }

  /** Keys, in row order. */
  ids(): readonly string[] {
    return this.#ids;
  }

  /**
   * The ids of `wanted` that have no vector yet, de-duplicated, in first-seen order: exactly the
   * texts to embed (the embedding cache lookup).
   */
  missing(wanted: Iterable<string>): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const id of wanted) {
      if (seen.has(id) || this.#rows.has(id)) continue;
      seen.add(id);
      out.push(id);
    }
    return out;
  }

  /**
   * Add or replace the vector of `id` (copied in). Callers store unit vectors; {@link topK} scores
   * are cosines only then.
   * @throws MemoryError `internal` when `vector.length !== dims`.
   */
  set(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dims) {
      throw new MemoryError('internal', `vector of ${vector.length} floats for a table of ${this.dims}`, {
        data: { id },
      });
    }
    let row = this.#rows.get(id);
    if (row === undefined) {
      row = this.#ids.length;
      this.#reserve(row + 1);
      this.#ids.push(id);
      this.#rows.set(id, row);
    }
    this.#data.set(vector, row * this.dims);
  }

  /** Remove `id`. @returns false when it was absent. */
  delete(id: string): boolean {
    const row = this.#rows.get(id);
    if (row === undefined) return false;
    const last = this.#ids.length - 1;
    if (row !== last) {
      const lastId = this.#ids[last]!;
      this.#data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.#ids[row] = lastId;
      this.#rows.set(lastId, row);
    }
    this.#ids.pop();
    this.#rows.delete(id);
    return true;
  }

  /** Keep only the ids in `keep` (garbage-collect vectors no chunk references). @returns rows removed. */
  retain(keep: ReadonlySet<string>): number {
    let removed = 0;
    for (const id of [...this.#ids]) {
      if (!keep.has(id)) {
        this.delete(id);
        removed++;
      }
    }
    return removed;
  }

  /**
   * A view of the first `rows` rows' bytes in this table's own memory (row-major float32, the
   * platform's byte order), to read a serialized table into before {@link deserialize} adopts it.
   * @throws MemoryError `internal` when `rows` exceeds the capacity.
   */
  rowBytes(rows: number): Uint8Array {
    if (rows * this.dims > this.#data.length)
      throw new MemoryError('internal', `${rows} rows exceed a table of capacity ${this.#data.length / this.dims}`);
    return new Uint8Array(this.#data.buffer, this.#data.byteOffset, rows * this.dims * 4);
  }

  #reserve(rows: number): void {
    if (rows * this.dims <= this.#data.length) return;
    let cap = Math.max(1, this.#data.length / this.dims);
    while (cap < rows) cap *= 2;
    const arena = Arena.tryCreate(this.dims, cap);
    const next = arena?.data ?? new Float32Array(cap * this.dims);
    next.set(this.#data.subarray(0, this.#ids.length * this.dims));
    this.#arena = arena;
    this.#data = next;
  }

  /**
   * Dot product of `query` with every row. @returns a Float32Array of {@link size} scores in row
   * order (pair with {@link ids}).
   * @throws MemoryError `internal` when `query.length !== dims`.
   */
  scores(query: Float32Array): Float32Array {
    return this.#arena ? this.#scoresView(query).slice() : this.#scoresView(query);
  }

  /**
   * {@link scores} without the copy when the kernel runs: the arena's score slot, valid until the
   * next search (top-k reads it synchronously; a fresh 200 KB array per query at 50k rows was
   * garbage for the next major GC).
   */
  #scoresView(query: Float32Array): Float32Array {
    const dims = this.dims;
    if (query.length !== dims)
      throw new MemoryError('internal', `query of ${query.length} floats for a table of ${dims}`);
    const n = this.#ids.length;
    if (this.#arena) return this.#arena.scores(query, n, dims);
    const data = this.#data;
    const out = new Float32Array(n);
    const tail = dims - (dims % 4);
    // Four accumulators break the add dependency chain; V8 does not vectorise, this is ~2x a naive loop.
    for (let r = 0, off = 0; r < n; r++, off += dims) {
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let d = 0;
      for (; d < tail; d += 4) {
        a0 += data[off + d]! * query[d]!;
        a1 += data[off + d + 1]! * query[d + 1]!;
        a2 += data[off + d + 2]! * query[d + 2]!;
        a3 += data[off + d + 3]! * query[d + 3]!;
      }
      for (; d < dims; d++) a0 += data[off + d]! * query[d]!;
      out[r] = a0 + a1 + a2 + a3;
    }
    return out;
  }

  /**
   * Exact top-`k` rows by cosine to `query` (a unit vector), best first; ties broken by ref
   * ascending so results are deterministic.
   * @param accept optional filter on the row's id; rejected rows are never returned. It is asked
   *   about rows in rank order only, from the best down, until `k` are accepted (a few more than `k`
   *   calls when it accepts most rows): a filter that decodes a chunk record per call (recall's)
   *   then decodes ~k records per query, not the ~k·ln(n/k) rows a single pass would offer it.
   * @returns at most `k` hits (fewer when the table, or what `accept` lets through, is smaller).
   */
  topK(query: Float32Array, k: number, accept?: (id: string) => boolean): VectorHit[] {
    const limit = Math.max(0, Math.floor(k));
    const n = this.#ids.length;
    if (limit === 0 || n === 0) return [];
    const s = this.#scoresView(query);
    const ids = this.#ids;
    if (!accept) return bestRows(s, ids, limit).map((row) => ({ ref: ids[row]!, score: s[row]! }));
    // Rank a window of the best rows (no filter), walk it best first through `accept`, and widen it
    // (×4) only while fewer than k are accepted: the window's order is the final order, so the
    // result is the first k accepted rows in (score desc, ref asc) order, as a filtered scan gives.
    const out: VectorHit[] = [];
    let asked = 0;
    for (let window = Math.min(n, limit + 16); ; window = Math.min(n, window * 4)) {
      const ranked = bestRows(s, ids, window);
      for (; asked < ranked.length && out.length < limit; asked++) {
        const row = ranked[asked]!;
        if (accept(ids[row]!)) out.push({ ref: ids[row]!, score: s[row]! });
      }
      if (out.length === limit || window === n) return out;
    }
  }

  /**
   * Persist: rows sorted by id (equal contents → equal bytes, whatever the history), float32 LE.
   * The bytes are a copy; later changes to the table do not affect them.
   */
  serialize(): SerializedVectors {
    const dims = this.dims;
    const order = this.#ids.map((id, row) => ({ id, row })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const floats = new Float32Array(order.length * dims);
    order.forEach(({ row }, i) => floats.set(this.#data.subarray(row * dims, (row + 1) * dims), i * dims));
    const bytes = new Uint8Array(floats.buffer);
    if (!LITTLE_ENDIAN) swap32(bytes);
    return { vectors: bytes, ids: order.map((o) => o.id) };
  }

  /**
   * Rebuild a table from {@link serialize}'s output (the bytes are copied; any alignment is fine).
   * With `into`, an empty table whose {@link rowBytes} already hold `data.vectors`, that table is
   * filled without copying them.
   * @throws MemoryError `index.corrupt` when the byte length is not a multiple of 4 or not
   *   `ids.length × dims × 4`, when an id is not a non-empty string or repeats, or when a value
   *   is not finite.
   */
  static deserialize(
    data: { readonly vectors: Uint8Array; readonly ids: readonly unknown[] },
    dims: number,
    into?: VectorTable,
  ): VectorTable {
    const { vectors, ids } = data;
    if (!Array.isArray(ids)) throw corrupt('vector ids are not a list');
    if (vectors.byteLength % 4 !== 0) throw corrupt(`vector data of ${vectors.byteLength} bytes is not whole float32s`);
    const expected = ids.length * dims * 4;
    if (vectors.byteLength !== expected) {
      throw corrupt(`vector data has ${vectors.byteLength} bytes; ${ids.length} ids × ${dims} dims need ${expected}`, {
        bytes: vectors.byteLength,
        expected,
      });
    }
    const adopt =
      into !== undefined &&
      into.dims === dims &&
      into.size === 0 &&
      into.#data.length >= ids.length * dims &&
      vectors.buffer === into.#data.buffer &&
      vectors.byteOffset === into.#data.byteOffset;
    const table = adopt ? into : new VectorTable(dims, ids.length);
    const bytes = new Uint8Array(table.#data.buffer, table.#data.byteOffset, expected);
    if (!adopt) bytes.set(vectors);
    if (!LITTLE_ENDIAN) swap32(bytes);
    const floats = table.#data;
    for (let i = 0; i < ids.length * dims; i++) {
      if (!Number.isFinite(floats[i]!)) throw corrupt(`vector ${Math.floor(i / dims)} holds a non-finite value`);
    }
    ids.forEach((id, row) => {
      if (typeof id !== 'string' || id.length === 0) throw corrupt(`vector id ${row} is not a non-empty string`);
      if (table.#rows.has(id)) throw corrupt(`vector id ${id} repeats`);
      table.#rows.set(id, row);
      table.#ids.push(id);
    });
    return table;
  }
}

/**
 * Rows of the `limit` best scores, best first (score desc, then id asc: a total order, ids are
 * unique). Bounded insertion into a sorted buffer: `limit` is small next to the row count.
 */
function bestRows(s: Float32Array, ids: readonly string[], limit: number): number[] {
  const best: number[] = [];
  const worse = (a: number, b: number) => s[a]! < s[b]! || (s[a] === s[b] && ids[a]! > ids[b]!);
  for (let r = 0; r < s.length; r++) {
    if (best.length === limit && !worse(best[limit - 1]!, r)) continue;
    let i = best.length;
    while (i > 0 && worse(best[i - 1]!, r)) i--;
    best.splice(i, 0, r);
    if (best.length > limit) best.pop();
  }
  return best;
}

function swap32(bytes: Uint8Array): void {
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const a = bytes[i]!;
    const b = bytes[i + 1]!;
    bytes[i] = bytes[i + 3]!;
    bytes[i + 1] = bytes[i + 2]!;
    bytes[i + 2] = b;
    bytes[i + 3] = a;
  }
}
