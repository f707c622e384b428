// The dot-product kernels of the vector table: a 262-byte WebAssembly SIMD module that scores f32
// rows held in its own memory against one query (~6x a JS loop), a 200-byte one that takes the
// exact integer dot products of int8 codes, the arenas that hold their rows, and the JS loops used
// where WebAssembly SIMD is missing. Pure: no imports, no node: modules.

/**
 * WebAssembly module (SIMD) exporting `scores(q, data, n, dims, out)`: for each of `n` rows of
 * `dims` f32 at byte offset `data`, out[r] = row · q. Needs dims % 8 === 0. Imports memory `e.m`.
 * Source: ./scores.wat; `node scripts/build-kernels.mjs` assembles it (wabt) and checks these bytes.
 */
const SCORES_WASM =
  'AGFzbQEAAAABCQFgBX9/f39/AAIIAQFlAW0CAAEDAgEABwoBBnNjb3JlcwAACtYBAdMBAwJ/AnsCfyADQQJ0IQogASEJQQAhBQJAIAUgAk8NAANA/QwAAAAAAAAAAAAAAAAAAAAAIQf9DAAAAAAAAAAAAAAAAAAAAAAhCEEAIQYDQCAHIAkgBmr9AAIAIAAgBmr9AAIA/eYB/eQBIQcgCCAJIAZq/QACECAAIAZq/QACEP3mAf3kASEIIAZBIGoiBiAKSQ0ACyAEIAVBAnRqIAcgCP3kASIH/R8AIAf9HwGSIAf9HwKSIAf9HwOSOAIAIAkgCmohCSAFQQFqIgUgAkkNAAsLCw==';

type ScoresFn = (q: number, data: number, n: number, dims: number, out: number) => void;
/** The slice of the WebAssembly API used here (lib ES2023 has no WebAssembly types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (d: { initial: number; maximum?: number }) => { readonly buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}
const WASM = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
const modules = new Map<string, object | null>();

/** A compiled kernel, or null when this runtime has no WebAssembly SIMD (then a JS loop is used). */
function compiled(base64: string): object | null {
  let mod = modules.get(base64);
  if (mod === undefined) {
    try {
      const bin = atob(base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      mod = WASM ? new WASM.Module(bytes) : null;
    } catch {
      mod = null;
    }
    modules.set(base64, mod);
  }
  return mod;
}

const scoresModule = () => compiled(SCORES_WASM);

/** Rows, a query slot and a score slot in one WebAssembly memory; fixed capacity (grow = replace). */
export class Arena {
  readonly data: Float32Array;
  readonly #q: Float32Array;
  readonly #out: Float32Array;
  readonly #fn: ScoresFn;
  readonly #dataOff: number;
  readonly #outOff: number;

  private constructor(
    fn: ScoresFn,
    memory: { readonly buffer: ArrayBuffer },
    dims: number,
    capacity: number,
    outOff: number,
    dataOff: number,
  ) {
    this.#fn = fn;
    this.#q = new Float32Array(memory.buffer, 0, dims);
    this.#out = new Float32Array(memory.buffer, outOff, capacity);
    this.data = new Float32Array(memory.buffer, dataOff, capacity * dims);
    this.#outOff = outOff;
    this.#dataOff = dataOff;
  }

  /** @returns undefined when SIMD is unavailable, dims is not a multiple of 8, or memory is refused. */
  static tryCreate(dims: number, capacity: number): Arena | undefined {
    const mod = dims % 8 === 0 ? scoresModule() : null;
    if (!mod || !WASM) return undefined;
    const round = (b: number) => Math.ceil(b / 16) * 16;
    const outOff = round(dims * 4);
    const dataOff = outOff + round(capacity * 4);
    const bytes = dataOff + capacity * dims * 4;
    const pages = Math.ceil(bytes / 65536) || 1;
    if (pages > 65536) return undefined;
    try {
      const memory = new WASM.Memory({ initial: pages, maximum: pages });
      const inst = new WASM.Instance(mod, { e: { m: memory } });
      return new Arena(inst.exports.scores as ScoresFn, memory, dims, capacity, outOff, dataOff);
    } catch {
      return undefined;
    }
  }

  /**
   * Scores of the first `n` rows against `query`, in this arena's score slot: a view that the next
   * call overwrites (copy it to keep it).
   */
  scores(query: Float32Array, n: number, dims: number): Float32Array {
    this.#q.set(query);
    this.#fn(0, this.#dataOff, n, dims, this.#outOff);
    return this.#out.subarray(0, n);
  }
}

/**
 * `out[r] = row r · query` for the first `n` rows of `data` (`dims` floats each), the loop used
 * where the WebAssembly kernel is not: four accumulators break the add dependency chain (V8 does
 * not vectorise; ~2x a naive loop). `out` is float32, so each score is rounded once, as the kernel's.
 */
export function scoreRowsJs(data: Float32Array, query: Float32Array, n: number, dims: number, out: Float32Array): void {
  const tail = dims - (dims % 4);
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
}

/**
 * WebAssembly module (SIMD) exporting `idots(q, data, n, dims, out)`: for each of `n` rows of
 * `dims` int8 codes at byte offset `data`, out[r] = row · q as an exact i32 (|sum| <= dims·127²).
 * Needs dims % 16 === 0. Imports memory `e.m`. Source: ./idots.wat; `node scripts/build-kernels.mjs`
 * assembles it (wabt) and checks these bytes.
 */
const DOTS_WASM =
  'AGFzbQEAAAABCQFgBX9/f39/AAIIAQFlAW0CAAEDAgEABwkBBWlkb3RzAAAKsAEBrQECA38DeyABIQcCQCAFIAJPDQADQP0MAAAAAAAAAAAAAAAAAAAAACEIQQAhBgNAIAcgBmr9AAAAIQkgACAGav0AAAAhCiAIIAn9hwEgCv2HAf26Af2uASAJ/YgBIAr9iAH9ugH9rgEhCCAGQRBqIgYgA0kNAAsgBCAFQQJ0aiAI/RsAIAj9GwFqIAj9GwJqIAj9GwNqNgIAIAcgA2ohByAFQQFqIgUgAkkNAAsLCw==';

type DotsFn = (q: number, data: number, n: number, dims: number, out: number) => void;

/**
 * int8 codes of `capacity` rows, an int8 query slot and an int32 result slot, in one WebAssembly
 * memory when SIMD is there and dims % 16 === 0, else in plain arrays (a JS loop); fixed capacity.
 */
export class CodeArena {
  /** `capacity × dims` codes, row-major. */
  readonly codes: Int8Array;
  readonly query: Int8Array;
  readonly #out: Int32Array;
  readonly #fn: DotsFn | undefined;
  readonly #dims: number;
  readonly #offs: readonly [q: number, data: number, out: number];

  private constructor(dims: number, capacity: number, buffer: ArrayBuffer | undefined, fn: DotsFn | undefined) {
    const round = (b: number) => Math.ceil(b / 16) * 16;
    const outOff = round(dims);
    const dataOff = outOff + round(capacity * 4);
    const buf = buffer ?? new ArrayBuffer(dataOff + capacity * dims);
    this.query = new Int8Array(buf, 0, dims);
    this.#out = new Int32Array(buf, outOff, capacity);
    this.codes = new Int8Array(buf, dataOff, capacity * dims);
    this.#fn = fn;
    this.#dims = dims;
    this.#offs = [0, dataOff, outOff];
  }

  /** An arena for `capacity` rows of `dims` codes (WebAssembly when it can, else plain arrays). */
  static create(dims: number, capacity: number): CodeArena {
    const mod = dims % 16 === 0 ? compiled(DOTS_WASM) : null;
    if (mod && WASM) {
      const round = (b: number) => Math.ceil(b / 16) * 16;
      const bytes = round(dims) + round(capacity * 4) + capacity * dims;
      const pages = Math.ceil(bytes / 65536) || 1;
      if (pages <= 65536) {
        try {
          const memory = new WASM.Memory({ initial: pages, maximum: pages });
          const inst = new WASM.Instance(mod, { e: { m: memory } });
          return new CodeArena(dims, capacity, memory.buffer, inst.exports.idots as DotsFn);
        } catch {
          /* memory refused: plain arrays below */
        }
      }
    }
    return new CodeArena(dims, capacity, undefined, undefined);
  }

  /** True when the WebAssembly kernel runs. */
  get accelerated(): boolean {
    return this.#fn !== undefined;
  }

  /**
   * Exact integer dot products of {@link query} with the first `n` rows: a view of this arena's
   * result slot that the next call overwrites.
   */
  dots(n: number): Int32Array {
    const dims = this.#dims;
    const out = this.#out;
    if (this.#fn) this.#fn(this.#offs[0], this.#offs[1], n, dims, this.#offs[2]);
    else {
      const c = this.codes;
      const q = this.query;
      for (let r = 0, off = 0; r < n; r++, off += dims) {
        let s = 0;
        for (let d = 0; d < dims; d++) s += c[off + d]! * q[d]!;
        out[r] = s;
      }
    }
    return out.subarray(0, n);
  }
}
