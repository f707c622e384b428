// Bytes → text for memory files: UTF-8 only, BOM noted, binary detected. Pure; no imports.

export interface DecodedText {
  /** Decoded text, BOM included when present (parse/ strips and records it). */
  readonly text: string;
  /** `binary` when the bytes hold NUL (not text); `invalid-utf8` when replacement was needed. */
  readonly problem: 'binary' | 'invalid-utf8' | undefined;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Decode memory-file bytes. Never throws. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const probe = bytes.subarray(0, Math.min(bytes.length, 8192));
  if (probe.includes(0)) return { text: '', problem: 'binary' };
  try {
    return { text: strict.decode(bytes), problem: undefined };
  } catch {
    return { text: lenient.decode(bytes), problem: 'invalid-utf8' };
  }
}
