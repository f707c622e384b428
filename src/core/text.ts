// Bytes → text for memory files: UTF-8 only, BOM noted, binary detected; text as a write adds it and
// as a terminal line shows it. Pure; no imports.

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

/** Lowest and highest second byte of a UTF-8 sequence led by `lead` (RFC 3629 table 3-7). */
function secondRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f]; // no surrogates
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f]; // nothing past U+10FFFF
  return [0x80, 0xbf];
}

/** Continuation bytes a UTF-8 sequence led by `lead` needs (-1: `lead` cannot start one). */
function tailLength(lead: number): number {
  if (lead < 0x80) return 0;
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  return lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
}

/**
 * Byte offset (0-based) where `bytes` stop being valid UTF-8 (the start of the first sequence a
 * decoder would replace with U+FFFD), or undefined when they are valid UTF-8 throughout.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  try {
    strict.decode(bytes);
    return undefined;
  } catch {
    // find where, below
  }
  for (let i = 0; i < bytes.length;) {
    const n = tailLength(bytes[i]!);
    if (n === 0) {
      i++;
      continue;
    }
    if (n < 0 || i + n >= bytes.length) return i;
    const [lo, hi] = secondRange(bytes[i]!);
    if (bytes[i + 1]! < lo || bytes[i + 1]! > hi) return i;
    for (let k = 2; k <= n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return bytes.length;
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

// Terminal escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`), and the
// other two-character ESC sequences. C1 CSI (U+009B) too.
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- escape sequences are exactly what this removes
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// Control characters a write never adds raw: C0 except tab and LF, DEL, C1 (NUL has its own refusal),
// and the bidirectional embeddings, overrides and isolates that reorder how a line is shown.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
const WRITTEN_CONTROL = /[\u0001-\u0008\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text a write adds to a memory file (remember, append / observe, state set, complete-task), as it
 * is written: line breaks as LF ({@link toLineFeeds}), terminal escape sequences (colour codes of
 * captured tool output, a title change, a screen clear) removed, and every other control character
 * written as its visible symbol (ESC → ␛, BS → ␈, BEL → ␇, DEL → ␡; a C1 character or a bidi
 * override, embedding or isolate → U+FFFD). Raw, they reach the terminal of whoever runs `cat`, `git
 * diff` or `git log -p` on the file, and a backspace, carriage return or right-to-left override makes
 * the text a reviewer sees differ from the text an agent reads (docs/bad-inputs.md U27). NUL is left
 * for the file system's own refusal (U11).
 */
export function writtenText(text: string): string {
  return toLineFeeds(text)
    .replace(ESCAPE_SEQUENCE, '')
    .replace(WRITTEN_CONTROL, (ch) => {
      const code = ch.charCodeAt(0);
      if (code < 0x20) return String.fromCharCode(0x2400 + code);
      return code === 0x7f ? '\u2421' : '\ufffd';
    });
}

// Control characters a human line never prints raw: C0 but tab and LF, DEL, C1, the line and
// paragraph separators, and the bidirectional embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
const SHOWN_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` as a terminal line may show it: every control character but tab and LF written as its
 * visible symbol (ESC → ␛, BEL → ␇, CR → ␍, DEL → ␡; a C1 character, a line or paragraph separator or
 * a bidi control → U+FFFD), so no escape sequence from a memory file, a file name or an id reaches the
 * terminal (docs/bad-inputs.md U17, B48). The text is otherwise unchanged; the file is never touched.
 */
export function shownControls(text: string): string {
  return text.replace(SHOWN_CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? '\u2421' : '\ufffd';
  });
}

/**
 * `value` for a line that other tools print raw (a git commit message's summary and trailers):
 * unchanged when it holds no control character {@link shownControls} would replace and does not
 * start with `"`; else a JSON string literal with each such character as `\uXXXX` (B57), which
 * {@link unquotedValue} reads back exactly.
 */
export function quotedValue(value: string): string {
  SHOWN_CONTROL.lastIndex = 0;
  if (!SHOWN_CONTROL.test(value) && !value.startsWith('"')) return value;
  return JSON.stringify(value).replace(SHOWN_CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The value {@link quotedValue} wrote: a JSON string literal decoded, anything else unchanged. */
export function unquotedValue(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' ? v : text;
  } catch {
    return text;
  }
}
