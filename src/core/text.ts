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

/**
 * `text` with every line break written as LF: CRLF and CR, and the characters some editors and
 * parsers also end a line at (U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR, U+0085 NEXT LINE,
 * vertical tab, form feed), which git, markdown and the language server do not. Text a write adds
 * keeps one notion of a line, so a "continuation" cannot show as a bullet of its own in one tool
 * while being part of the line before in another (docs/bad-inputs.md U20).
 */
export function toLineFeeds(text: string): string {
  // eslint-disable-next-line no-control-regex -- vertical tab and form feed are among the breaks replaced
  return text.replace(/\r\n?|[\u2028\u2029\u0085\u000b\u000c]/g, '\n');
}
