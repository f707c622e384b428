// Content hashing; the only crypto user in core. Imports only node:crypto, on first use: the process
// entry and a call a running host answers reach this module but rarely hash anything, and loading
// node:crypto costs ~7 ms CPU.
const createHash: typeof import('node:crypto').createHash = (algorithm) =>
  process.getBuiltinModule('node:crypto').createHash(algorithm);

/** SHA-256 hex of the UTF-8 bytes of `text`, exactly as given. */
export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** SHA-256 hex of the concatenation of `chunks` (each is hashed as it comes; a buffer may be reused). */
export function sha256Of(chunks: Iterable<Uint8Array>): string {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest('hex');
}

/** SHA-256 hex of text with line ends normalised to \n and a BOM removed (stable across CRLF/LF). */
export function contentHash(text: string): string {
  return sha256(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
}

/** Git's blob id of `bytes` (SHA-1 of `blob <length>\0` + the bytes), as `git hash-object` prints it. */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
