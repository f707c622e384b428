// The f32 dot-product kernel of the vector table: a 262-byte WebAssembly SIMD module that scores
// rows held in its own memory against one query (~6x a JS loop), and the arena that holds them.
// Pure: no imports, no node: modules.

/**
 * WebAssembly module (SIMD) exporting `scores(q, data, n, dims, out)`: for each of `n` rows of
 * `dims` f32 at byte offset `data`, out[r] = row · q. Needs dims % 8 === 0. Imports memory `e.m`.
 * Source (WAT), assembled by hand:
 *   (func (export "scores") (param $q i32) (param $data i32) (param $n i32) (param $dims i32) (param $out i32)
 *     (local $r i32) (local $d i32) (local $acc0 v128) (local $acc1 v128) (local $row i32) (local $rowbytes i32)
 *     (local.set $rowbytes (i32.shl (local.get $dims) (i32.const 2)))  (local.set $row (local.get $data))
 *     (block (br_if 0 (i32.ge_u (local.get $r) (local.get $n)))
 *       (loop $rows  (acc0, acc1, d) := (0, 0, 0)
 *         (loop $cols
 *           acc0 += f32x4.mul(v128.load(row + d), v128.load(q + d))
 *           acc1 += f32x4.mul(v128.load offset=16 (row + d), v128.load offset=16 (q + d))
 *           (br_if $cols (i32.lt_u (local.tee $d (i32.add (local.get $d) (i32.const 32))) (local.get $rowbytes))))
 *         (f32.store (out + r*4) (sum of the 4 lanes of acc0 + acc1))
 *         row += rowbytes
 *         (br_if $rows (i32.lt_u (local.tee $r (i32.add (local.get $r) (i32.const 1))) (local.get $n))))))
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
let wasmModule: object | null | undefined;

/** The compiled kernel, or null when this runtime has no WebAssembly SIMD (then a JS loop is used). */
function scoresModule(): object | null {
  if (wasmModule === undefined) {
    try {
      const bin = atob(SCORES_WASM);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      wasmModule = WASM ? new WASM.Module(bytes) : null;
    } catch {
      wasmModule = null;
    }
  }
  return wasmModule;
}

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
