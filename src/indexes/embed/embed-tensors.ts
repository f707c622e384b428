// The tensors of one embedding batch (onnx-embedder.ts runs it): the word-piece ids and attention
// mask packed as int64 [rows, seq], and the model's token vectors mean-pooled over the mask and
// L2-normalised into one sentence vector per row. Pure: no I/O, no runtime. deps: none.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `input_ids` and `attention_mask` of a batch as int64 [rows, seq], rows right-padded with 0.
 * Writes the low 32-bit words directly (ids are < 2^31), so no BigInt is made per word-piece.
 */
export function int64Inputs(
  batch: readonly (readonly number[])[],
  seq: number,
): { ids: BigInt64Array; mask: BigInt64Array } {
  const ids = new BigInt64Array(batch.length * seq);
  const mask = new BigInt64Array(batch.length * seq);
  if (LITTLE_ENDIAN) {
    const ids32 = new Int32Array(ids.buffer);
    const mask32 = new Int32Array(mask.buffer);
    batch.forEach((row, r) => {
      for (let c = 0, o = 2 * r * seq; c < row.length; c++, o += 2) {
        ids32[o] = row[c]!;
        mask32[o] = 1;
      }
    });
  } else {
    batch.forEach((row, r) => {
      for (let c = 0; c < row.length; c++) {
        ids[r * seq + c] = BigInt(row[c]!);
        mask[r * seq + c] = 1n;
      }
    });
  }
  return { ids, mask };
}

/**
 * Mean of the first `lengths[r]` token vectors of each row (the attention mask is 1 exactly there),
 * then L2-normalised. `hidden` is [rows, seq, dims] row-major.
 * @returns one Float32Array of `dims` per row (all zeros only if the model output zeros).
 */
export function meanPoolNormalize(
  hidden: Float32Array,
  lengths: readonly number[],
  seq: number,
  dims: number,
): Float32Array[] {
  return lengths.map((len, r) => {
    const v = new Float32Array(dims);
    const acc = new Float64Array(dims);
    const base = r * seq * dims;
    for (let t = 0; t < len; t++) {
      const off = base + t * dims;
      for (let d = 0; d < dims; d++) acc[d]! += hidden[off + d]!;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      acc[d]! /= len || 1;
      norm += acc[d]! * acc[d]!;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dims; d++) v[d] = acc[d]! * inv;
    return v;
  });
}
