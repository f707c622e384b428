// Unit vector helpers: the normalised mean of unit vectors (one query vector for several embedded
// texts of one query, service/recall/query-embed.ts) and their dot product, the cosine (vector
// search, the dedupe rule by meaning). Pure: no imports.

/**
 * The normalised mean of `vectors` (equal length): the first vector itself when there is one,
 * undefined when there is none or the sum is the zero vector.
 */
export function meanUnitVector(vectors: readonly Float32Array[]): Float32Array | undefined {
  if (vectors.length <= 1) return vectors[0];
  const sum = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let i = 0; i < sum.length; i++) sum[i]! += v[i] ?? 0;
  let norm = 0;
  for (let i = 0; i < sum.length; i++) norm += sum[i]! * sum[i]!;
  if (!(norm > 0)) return undefined;
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < sum.length; i++) sum[i]! *= inv;
  return sum;
}

/** Dot product of two equal-length vectors (the cosine of two unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
