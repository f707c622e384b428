// VectorTable: unit vectors keyed by chunk hash — the embedding cache (a hash already present is
// never re-embedded) and exact cosine top-k. In memory each row is int8 codes plus its exact
// quantisation error (indexes/vector/vector-quant.ts: a quarter of the float32 bytes); its float32 values
// stay in the artifact it was loaded from (read at offsets through a RangedFile) or, for a row set
// in this process, in an in-memory store. A query ranks every row by an upper bound from the codes
// and re-scores with the float32 kernel, best bound first, only the rows that can still reach the
// top k: the hits and their scores are exactly those of scoring every float32 row.
// Pure: imports only core; no node: modules.
import { MemoryError } from '../../core/errors.js';
import type { RangedFile } from '../../core/ports.js';
import { Arena, CodeArena, scoreRowsJs } from './vector-kernel.js';
import { QUERY_META, quantizeQuery, quantizeRow, ROW_META, rowFinite, upperBounds } from './vector-quant.js';

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

/** Rows re-scored per call of the float32 kernel (their floats are read into its arena). */
const BATCH = 64;
/** Rows read per call while a table loads from its file (~768 KB at 384 dims). */
const LOAD_ROWS = 512;

/** A re-scored row waiting in {@link VectorTable.topK}'s pool; `key` is its score, NaN as -Infinity. */
interface Scored {
  readonly row: number;
  readonly score: number;
  readonly key: number;
}

/**
 * A growable table of `dims`-float vectors keyed by string (a chunk hash). Removal moves the last
 * row into the hole, so row order is not insertion order.
 */
export class VectorTable {
  /** Floats per vector. */
  readonly dims: number;
  #ids: string[] = [];
  readonly #rows = new Map<string, number>();
  #cap = 0;
  #codes!: CodeArena;
  /** {@link ROW_META} numbers per row (scale, error norm, code norm). */
  #meta = new Float64Array(0);
  /** Where each row's float32 values are: ≥ 0 a row of {@link #file}; < 0 slot −(src + 1) of {@link #fresh}. */
  #src = new Int32Array(0);
  /** The last query's numbers ({@link QUERY_META}) and per-row upper bounds (scratch). */
  readonly #query = new Float64Array(QUERY_META);
  #ub = new Float64Array(0);
  #fresh = new Float32Array(0);
  #freshUsed = 0;
  readonly #freeSlots: number[] = [];
  #file: RangedFile | undefined;
  readonly #arena: Arena | undefined;
  /** The float32 rows being re-scored (the arena's own memory when the kernel runs). */
  readonly #batch: Float32Array;
  readonly #batchOut: Float32Array;

  /**
   * @param dims floats per vector (a positive integer).
   * @param capacity rows to reserve up front (grows by doubling).
   * @throws MemoryError `internal` for a non-positive `dims`.
   */
  constructor(dims: number, capacity = 64) {
    if (!Number.isInteger(dims) || dims <= 0) throw new MemoryError('internal', `invalid vector dims ${dims}`);
    this.dims = dims;
    this.#arena = Arena.tryCreate(dims, BATCH);
    this.#batch = this.#arena?.data ?? new Float32Array(BATCH * dims);
    this.#batchOut = new Float32Array(BATCH);
    this.#grow(Math.max(1, capacity));
  }

  /** True when exact scores come from the WebAssembly SIMD kernel (false: the JS loop). */
  get accelerated(): boolean {
    return this.#arena !== undefined;
  }

  /** Number of vectors. */
  get size(): number {
    return this.#ids.length;
  }

  /** Vectors whose float32 values this process holds in memory (the rest are read from the file). */
  get inMemory(): number {
    return this.#freshUsed - this.#freeSlots.length;
  }

  /** True when `id` has a vector. */
  has(id: string): boolean {
    return this.#rows.has(id);
  }

  /** A copy of the vector of `id`. @returns undefined when absent. @throws MemoryError `index.corrupt` on a read error. */
  get(id: string): Float32Array | undefined {
    const row = this.#rows.get(id);
    if (row === undefined) return undefined;
    const out = new Float32Array(this.dims);
    this.#readRows([row], 0, 1, out);
    return out;
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
   * Add or replace the vector of `id` (copied in, as float32). Callers store unit vectors;
   * {@link topK} scores are cosines only then.
   * @throws MemoryError `internal` when `vector.length !== dims`.
   */
  set(id: string, vector: ArrayLike<number>): void {
    const dims = this.dims;
    if (vector.length !== dims) {
      throw new MemoryError('internal', `vector of ${vector.length} floats for a table of ${dims}`, {
        data: { id },
      });
    }
    let row = this.#rows.get(id);
    if (row === undefined) {
      row = this.#ids.length;
      if (row + 1 > this.#cap) this.#grow(this.#cap * 2);
      this.#ids.push(id);
      this.#rows.set(id, row);
      this.#src[row] = -(this.#slot() + 1);
    } else if (this.#src[row]! >= 0) this.#src[row] = -(this.#slot() + 1);
    const at = (-this.#src[row]! - 1) * dims;
    this.#fresh.set(vector, at);
    quantizeRow(this.#fresh, at, dims, this.#codes.codes, row * dims, this.#meta, row * ROW_META);
  }

  /** Remove `id`. @returns false when it was absent. */
  delete(id: string): boolean {
    const row = this.#rows.get(id);
    if (row === undefined) return false;
    const dims = this.dims;
    if (this.#src[row]! < 0) this.#freeSlots.push(-this.#src[row]! - 1);
    const last = this.#ids.length - 1;
    if (row !== last) {
      const lastId = this.#ids[last]!;
      this.#codes.codes.copyWithin(row * dims, last * dims, (last + 1) * dims);
      this.#meta.copyWithin(row * ROW_META, last * ROW_META, (last + 1) * ROW_META);
      this.#src[row] = this.#src[last]!;
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

  /** Release the file the rows were loaded from (idempotent); the table must not be searched after. */
  close(): void {
    this.#file?.close();
  }

  /** Room for `cap` rows: codes, meta, sources and bound scratch are replaced by larger copies. */
  #grow(cap: number): void {
    const dims = this.dims;
    const n = this.#ids.length;
    const codes = CodeArena.create(dims, cap);
    if (this.#codes) codes.codes.set(this.#codes.codes.subarray(0, n * dims));
    const meta = new Float64Array(cap * ROW_META);
    meta.set(this.#meta.subarray(0, n * ROW_META));
    const src = new Int32Array(cap);
    src.set(this.#src.subarray(0, n));
    this.#codes = codes;
    this.#meta = meta;
    this.#src = src;
    this.#ub = new Float64Array(cap);
    this.#cap = cap;
  }

  /** A free slot of the in-memory float32 store (grown by doubling). */
  #slot(): number {
    const free = this.#freeSlots.pop();
    if (free !== undefined) return free;
    const dims = this.dims;
    if ((this.#freshUsed + 1) * dims > this.#fresh.length) {
      const next = new Float32Array(Math.max(16, (this.#freshUsed + 1) * 2) * dims);
      next.set(this.#fresh.subarray(0, this.#freshUsed * dims));
      this.#fresh = next;
    }
    return this.#freshUsed++;
  }

  /**
   * The float32 values of `m` rows, `rows[from..from+m)`, into `into` (row-major from 0). Rows of
   * the file that follow each other are read in one call.
   */
  #readRows(rows: ArrayLike<number>, from: number, m: number, into: Float32Array): void {
    const dims = this.dims;
    for (let i = 0; i < m;) {
      const src = this.#src[rows[from + i]!]!;
      if (src < 0) {
        const at = (-src - 1) * dims;
        into.set(this.#fresh.subarray(at, at + dims), i * dims);
        i++;
        continue;
      }
      let j = i + 1;
      while (j < m && this.#src[rows[from + j]!] === src + (j - i)) j++;
      const bytes = new Uint8Array(into.buffer, into.byteOffset + i * dims * 4, (j - i) * dims * 4);
      if (!this.#file || this.#file.read(bytes, src * dims * 4) !== bytes.byteLength)
        throw corrupt(`vector rows ${src}..${src + j - i - 1} cannot be read back from their file`);
      if (!LITTLE_ENDIAN) swap32(bytes);
      i = j;
    }
  }

  /** Float32 scores of the `m` rows in {@link #batch} (a view the next call overwrites). */
  #batchScores(query: Float32Array, m: number): Float32Array {
    if (this.#arena) return this.#arena.scores(query, m, this.dims);
    scoreRowsJs(this.#batch, query, m, this.dims, this.#batchOut);
    return this.#batchOut.subarray(0, m);
  }

  #checkQuery(query: Float32Array): void {
    if (query.length !== this.dims)
      throw new MemoryError('internal', `query of ${query.length} floats for a table of ${this.dims}`);
  }

  /**
   * Float32 dot product of `query` with every row (every row's floats are read: for checks, not for
   * search). @returns a Float32Array of {@link size} scores in row order (pair with {@link ids}).
   * @throws MemoryError `internal` when `query.length !== dims`.
   */
  scores(query: Float32Array): Float32Array {
    this.#checkQuery(query);
    const n = this.#ids.length;
    const out = new Float32Array(n);
    const rows = new Int32Array(BATCH);
    for (let r = 0; r < n; r += BATCH) {
      const m = Math.min(BATCH, n - r);
      for (let i = 0; i < m; i++) rows[i] = r + i;
      this.#readRows(rows, 0, m, this.#batch);
      out.set(this.#batchScores(query, m), r);
    }
    return out;
  }

  /**
   * Exact top-`k` rows by cosine to `query` (a unit vector), best first; ties broken by ref
   * ascending so results are deterministic. The same hits and scores as scoring every row with the
   * float32 kernel and sorting: rows are taken in order of their upper bound (int8 codes plus the
   * exact error bound) and re-scored in float32; a re-scored row is final once its score beats
   * the bound of every row not re-scored yet.
   * @param accept optional filter on the row's id; rejected rows are never returned. It is asked
   *   about rows in rank order only, from the best down, until `k` are accepted: a filter that
   *   decodes a chunk record per call (recall's) then decodes ~k records per query.
   * @returns at most `k` hits (fewer when the table, or what `accept` lets through, is smaller).
   * @throws MemoryError `internal` when `query.length !== dims`; `index.corrupt` when a row's file
   *   cannot be read.
   */
  topK(query: Float32Array, k: number, accept?: (id: string) => boolean): VectorHit[] {
    this.#checkQuery(query);
    const limit = Math.max(0, Math.floor(k));
    const n = this.#ids.length;
    if (limit === 0 || n === 0) return [];
    const dims = this.dims;
    const ids = this.#ids;
    const ub = this.#ub;
    quantizeQuery(query, this.#codes.query, this.#query);
    upperBounds(this.#query, this.#codes.dots(n), this.#meta, n, dims, ub);
    // Best first: (key desc, id asc). The pool is kept worst first, so its best is at the end.
    const better = (a: Scored, b: Scored) => a.key > b.key || (a.key === b.key && ids[a.row]! < ids[b.row]!);
    const pool: Scored[] = [];
    const out: VectorHit[] = [];
    let window = Math.min(n, limit + 16);
    let ranked = byBound(ub, n, window);
    let next = 0;
    for (;;) {
      const done = next === ranked.length && ranked.length === n;
      // No row left to re-score can score above `bound` (rows past the window bound no higher than its last).
      const bound = done ? -Infinity : ub[ranked[Math.min(next, ranked.length - 1)]!]!;
      const best = pool[pool.length - 1];
      if (best && (done || best.key > bound)) {
        pool.pop();
        if (!accept || accept(ids[best.row]!)) {
          out.push({ ref: ids[best.row]!, score: best.score });
          if (out.length === limit) return out;
        }
        continue;
      }
      if (next < ranked.length) {
        const m = Math.min(BATCH, ranked.length - next);
        this.#readRows(ranked, next, m, this.#batch);
        const s = this.#batchScores(query, m);
        for (let i = 0; i < m; i++) {
          const score = s[i]!;
          const h: Scored = { row: ranked[next + i]!, score, key: Number.isNaN(score) ? -Infinity : score };
          let lo = 0;
          let hi = pool.length;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (better(h, pool[mid]!)) lo = mid + 1;
            else hi = mid;
          }
          pool.splice(lo, 0, h);
        }
        next += m;
        continue;
      }
      if (done) return out;
      window = Math.min(n, window * 4);
      ranked = byBound(ub, n, window);
    }
  }

  /**
   * Persist: rows sorted by id (equal contents → equal bytes, whatever the history), float32 LE.
   * The bytes are a copy; later changes to the table do not affect them.
   * @throws MemoryError `index.corrupt` when rows cannot be read back from their file.
   */
  serialize(): SerializedVectors {
    const dims = this.dims;
    const order = this.#ids.map((id, row) => ({ id, row })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const floats = new Float32Array(order.length * dims);
    const rows = order.map((o) => o.row);
    // In chunks, so a run of file rows is one read but `into` views stay small.
    for (let i = 0; i < rows.length; i += LOAD_ROWS) {
      const m = Math.min(LOAD_ROWS, rows.length - i);
      this.#readRows(rows, i, m, floats.subarray(i * dims, (i + m) * dims));
    }
    const bytes = new Uint8Array(floats.buffer);
    if (!LITTLE_ENDIAN) swap32(bytes);
    return { vectors: bytes, ids: order.map((o) => o.id) };
  }

  /**
   * Rebuild a table from {@link serialize}'s output (the bytes are copied; any alignment is fine);
   * every row's float32 values are then held in memory.
   * @throws MemoryError `index.corrupt` when the byte length is not a multiple of 4 or not
   *   `ids.length × dims × 4`, when an id is not a non-empty string or repeats, or when a value
   *   is not finite.
   */
  static deserialize(
    data: { readonly vectors: Uint8Array; readonly ids: readonly unknown[] },
    dims: number,
  ): VectorTable {
    const { vectors, ids } = data;
    if (!Array.isArray(ids)) throw corrupt('vector ids are not a list');
    if (vectors.byteLength % 4 !== 0) throw corrupt(`vector data of ${vectors.byteLength} bytes is not whole float32s`);
    checkLength(vectors.byteLength, ids.length, dims);
    const table = new VectorTable(dims, ids.length);
    const floats = new Float32Array(ids.length * dims);
    const bytes = new Uint8Array(floats.buffer);
    bytes.set(vectors);
    if (!LITTLE_ENDIAN) swap32(bytes);
    checkFinite(floats, 0, dims);
    table.#fresh = floats;
    table.#freshUsed = ids.length;
    table.#adopt(ids, (row) => -(row + 1));
    for (let row = 0; row < ids.length; row++)
      quantizeRow(floats, row * dims, dims, table.#codes.codes, row * dims, table.#meta, row * ROW_META);
    return table;
  }

  /**
   * A table over a {@link serialize}d file opened for ranged reads: the rows are read once (in
   * blocks) to make their codes and are then read again only to re-score a query's candidates. The
   * table keeps `file` (its {@link close} closes it); on a throw the caller closes it.
   * @throws MemoryError `index.corrupt` as {@link deserialize}, or when the file cannot be read.
   */
  static fromFile(file: RangedFile, ids: readonly unknown[], dims: number): VectorTable {
    if (!Array.isArray(ids)) throw corrupt('vector ids are not a list');
    checkLength(file.size, ids.length, dims);
    const table = new VectorTable(dims, ids.length);
    const block = new Float32Array(Math.min(LOAD_ROWS, Math.max(1, ids.length)) * dims);
    for (let row = 0; row < ids.length; row += LOAD_ROWS) {
      const m = Math.min(LOAD_ROWS, ids.length - row);
      const bytes = new Uint8Array(block.buffer, 0, m * dims * 4);
      if (file.read(bytes, row * dims * 4) !== bytes.byteLength) throw corrupt('vector file ends early');
      if (!LITTLE_ENDIAN) swap32(bytes);
      for (let i = 0; i < m; i++) {
        const r = row + i;
        quantizeRow(block, i * dims, dims, table.#codes.codes, r * dims, table.#meta, r * ROW_META);
        if (!rowFinite(table.#meta, r)) throw corrupt(`vector ${r} holds a non-finite value`);
      }
    }
    table.#adopt(ids, (row) => row);
    table.#file = file;
    return table;
  }

  /** Take `ids` as the rows, in order, each with the source `src(row)`. @throws MemoryError `index.corrupt`. */
  #adopt(ids: readonly unknown[], src: (row: number) => number): void {
    ids.forEach((id, row) => {
      if (typeof id !== 'string' || id.length === 0) throw corrupt(`vector id ${row} is not a non-empty string`);
      if (this.#rows.has(id)) throw corrupt(`vector id ${id} repeats`);
      this.#rows.set(id, row);
      this.#ids.push(id);
      this.#src[row] = src(row);
    });
  }
}

function checkLength(bytes: number, rows: number, dims: number): void {
  const expected = rows * dims * 4;
  if (bytes !== expected) {
    throw corrupt(`vector data has ${bytes} bytes; ${rows} ids × ${dims} dims need ${expected}`, {
      bytes,
      expected,
    });
  }
}

/** @throws MemoryError `index.corrupt` naming the first row (counted from `first`) with a non-finite value. */
function checkFinite(floats: Float32Array, first: number, dims: number): void {
  for (let i = 0; i < floats.length; i++) {
    if (!Number.isFinite(floats[i]!)) throw corrupt(`vector ${first + Math.floor(i / dims)} holds a non-finite value`);
  }
}

/**
 * Rows of the `w` highest bounds of `ub[0..n)`, highest first (ties: lower row first, so a wider
 * window starts with the narrower one). A bounded insertion while `w` is small next to `n`, else a sort.
 */
function byBound(ub: Float64Array, n: number, w: number): Int32Array {
  if (w * 8 >= n) {
    const all = new Int32Array(n);
    for (let r = 0; r < n; r++) all[r] = r;
    all.sort((a, b) => ub[b]! - ub[a]! || a - b);
    return all.subarray(0, w);
  }
  const best = new Int32Array(w);
  let len = 0;
  // The lowest bound kept once `best` is full (a local: most rows fall below it and cost one compare).
  let floor = -Infinity;
  for (let r = 0; r < n; r++) {
    const v = ub[r]!;
    if (len === w && !(v > floor)) continue;
    let i = len < w ? len++ : w - 1;
    while (i > 0 && v > ub[best[i - 1]!]!) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = r;
    if (len === w) floor = ub[best[w - 1]!]!;
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
