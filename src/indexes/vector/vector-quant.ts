// int8 codes of vector rows with each row's exact quantisation error, and the upper bound on a row's
// float32 score that they give: the vector table ranks by the codes and re-scores from the float32
// rows only those whose bound can still reach the top k. Pure: no imports, no node: modules.
//
// A row x is kept as codes c (int8, |c_i| <= 127) and a scale s = max|x_i| / 127, so x = s·c + e.
// A query q likewise as codes p and scale t: q = t·p + f. Then exactly
//   q·x = t·s·(p·c) + q·e + s·(f·c)
// and by Cauchy–Schwarz |q·e| <= ‖q‖·‖e‖ and |s·(f·c)| <= ‖f‖·‖s·c‖, with p·c an exact integer
// (the int8 kernel). The float32 score the table returns is the f32 kernel's dot product, which
// differs from q·x by at most γ(n)·Σ|q_i·x_i| <= γ(n)·‖q‖·‖x‖ (n = dims + 2 rounding steps along any
// summation order, γ(n) = n·u / (1 − n·u), u = 2⁻²⁴), and ‖x‖ <= ‖s·c‖ + ‖e‖. The norms are taken in
// float64; a 1e-12 relative slack covers that arithmetic and an absolute 1e-30 any f32 underflow.

/** Per-row numbers kept beside the codes, in a Float64Array with this stride. */
export const ROW_META = 3;
/** Offsets in a row's meta: scale s, error norm ‖e‖ (rounded up), code norm ‖s·c‖ (rounded up). */
const SCALE = 0;
const ERR = 1;
const NORM = 2;

const UP = 1 + 1e-12;

/** max |x_i| over `dims` values from `off`, or −1 when one of them is NaN or infinite (a row or query scan). */
function finiteAbsMax(x: ArrayLike<number>, off: number, dims: number): number {
  let max = 0;
  let nan = false;
  for (let i = 0; i < dims; i++) {
    const a = Math.abs(x[off + i]!);
    if (a > max) max = a;
    else if (a !== a) nan = true;
  }
  return !nan && max <= Number.MAX_VALUE ? max : -1;
}

/**
 * Quantise `dims` floats of `x` from `xOff` into `codes` from `cOff` and write the row's scale,
 * error norm and code norm to `meta` from `mOff`. A row holding a non-finite value gets an
 * infinite error norm (its bound is then +Infinity: it is always re-scored).
 */
export function quantizeRow(
  x: ArrayLike<number>,
  xOff: number,
  dims: number,
  codes: Int8Array,
  cOff: number,
  meta: Float64Array,
  mOff: number,
): void {
  const max = finiteAbsMax(x, xOff, dims);
  const finite = max >= 0;
  const s = finite ? max / 127 : 0;
  // |v·inv| <= 127, so the code fits an int8 (rounded half up by truncating a positive number:
  // Math.round is several times slower here); e is taken from the code chosen, whatever it is.
  const inv = s > 0 ? 127 / max : 0;
  let e2 = 0;
  let c2 = 0;
  for (let i = 0; i < dims; i++) {
    const v = x[xOff + i]!;
    const c = finite ? ((v * inv + 128.5) | 0) - 128 : 0;
    codes[cOff + i] = c;
    const e = v - s * c;
    e2 += e * e;
    c2 += c * c;
  }
  meta[mOff + SCALE] = s;
  meta[mOff + ERR] = finite ? Math.sqrt(e2) * UP : Infinity;
  meta[mOff + NORM] = s * Math.sqrt(c2) * UP;
}

/** False when row `row` of `meta` (quantised by {@link quantizeRow}) holds a non-finite value. */
export function rowFinite(meta: Float64Array, row: number): boolean {
  return meta[row * ROW_META + ERR] !== Infinity;
}

/**
 * Numbers of a quantised query in a Float64Array of this length (numbers in a typed array, not an
 * object: the bound loop then reads no named property and V8 keeps it optimised; a deopted loop
 * boxed one number per row, 0.8 MB of garbage per query at 50k rows).
 */
export const QUERY_META = 4;
/** Offsets in a query's meta: scale t, ‖q‖ (rounded up), ‖f‖ = ‖q − t·p‖ (rounded up), 1 when finite. */
const Q_SCALE = 0;
const Q_NORM = 1;
const Q_RESIDUAL = 2;
const Q_FINITE = 3;

/** Quantise `query` into `codes` (its first `query.length` bytes) and its numbers into `out` ({@link QUERY_META}). */
export function quantizeQuery(query: Float32Array, codes: Int8Array, out: Float64Array): void {
  const dims = query.length;
  const max = finiteAbsMax(query, 0, dims);
  const finite = max >= 0;
  const t = finite ? max / 127 : 0;
  const inv = t > 0 ? 127 / max : 0;
  let q2 = 0;
  let f2 = 0;
  for (let i = 0; i < dims; i++) {
    const v = query[i]!;
    const p = finite ? ((v * inv + 128.5) | 0) - 128 : 0;
    codes[i] = p;
    const f = v - t * p;
    q2 += v * v;
    f2 += f * f;
  }
  out[Q_SCALE] = t;
  out[Q_NORM] = Math.sqrt(q2) * UP;
  out[Q_RESIDUAL] = Math.sqrt(f2) * UP;
  out[Q_FINITE] = finite ? 1 : 0;
}

/**
 * Upper bounds on the float32 scores of rows `0..n-1` against the query of `q` ({@link quantizeQuery}),
 * into `out`: `dots[r]` is the exact integer dot product of the row's codes with the query's.
 */
export function upperBounds(
  q: Float64Array,
  dots: Int32Array,
  meta: Float64Array,
  n: number,
  dims: number,
  out: Float64Array,
): void {
  if (q[Q_FINITE] !== 1) {
    out.fill(Infinity, 0, n);
    return;
  }
  const u = 2 ** -24;
  const gamma = ((dims + 2) * u) / (1 - (dims + 2) * u) + 1e-12;
  const t = q[Q_SCALE]!;
  const qn = q[Q_NORM]!;
  const fn = q[Q_RESIDUAL]!;
  const slack = gamma * (qn + fn);
  for (let r = 0, m = 0; r < n; r++, m += ROW_META) {
    const s = meta[m + SCALE]!;
    const err = meta[m + ERR]!;
    const norm = meta[m + NORM]!;
    const b = t * s * dots[r]! + qn * err + fn * norm + slack * (norm + err) + 1e-30;
    out[r] = b === b ? b : Infinity; // NaN from 0·∞ (a zero query, a non-finite row): always re-scored
  }
}
