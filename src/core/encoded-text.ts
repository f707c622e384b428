// Readings of one line of memory text that a language model decodes without being asked: a base64
// token ("aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM="), a run of hex bytes ("69 67 6e 6f 72 65",
// "\x69\x67…", "%69%67…"), letters spaced out ("i g n o r e  a l l  p r e v i o u s", "i.g.n.o.r.e"),
// text written backwards ("snoitcurtsni suoiverp lla erongi", or word by word) and ROT13
// ("vtaber nyy cerivbhf vafgehpgvbaf"). core/injection.ts runs its patterns on each reading when the
// line as written and its skeleton matched none (docs/bad-inputs.md R150). Pure.
//
// A reading is only made where the line has the shape (a token of the base64 alphabet with both
// cases, ten or more hex bytes, six or more single letters in a row) or a cue word of the attack
// classes spelled backwards or in ROT13, so plain prose costs one scan of a few cheap expressions.
// A decoded token must be valid UTF-8 without control characters: a hash, key or binary blob reads
// as nothing.

/** One reading: the decoded text, how it was encoded, and where (0-based UTF-16 index) it starts in the line. */
export interface EncodedReading {
  readonly text: string;
  readonly how: 'base64' | 'hex' | 'letter-spaced' | 'reversed' | 'ROT13';
  readonly start: number;
}

/** Tokens shorter than this are not read as base64 (12 bytes of text). */
const BASE64_MIN = 16;
/** Each base64 (or base64url) character's 6-bit value by its char code, -1 for other characters. */
const SEXTET = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].forEach((c, i) => {
  SEXTET[c.charCodeAt(0)] = i;
});
SEXTET['-'.charCodeAt(0)] = 62;
SEXTET['_'.charCodeAt(0)] = 63;
/** A cheaper test a line must pass first: 16 characters starting a run, shaped as base64 of ASCII ({@link asciiRun}). */
const BASE64_GATE = /(?<![\w+/-])(?:[A-Za-f][A-HQ-Xg-nw-z0-3][\w+/-]{2}){4}/;
/**
 * Ten or more hex bytes of printable ASCII (0x20–0x7F: a digit 2–7 first), each alone or with a `\x`,
 * `0x` or `%` prefix, maybe separated by up to two spaces, commas, colons. Prose fails at its first letter.
 */
const HEX = /(?:(?:\\x|0x|%)?[2-7][0-9A-Fa-f][\s,:]{0,2}){10,}/g;
/** Six or more single letters, each followed by one to three separators (spaces, dots, dashes, underscores, stars, bars, slashes). */
const SPACED = /(?<![A-Za-z])(?:[A-Za-z](?:[ .\-_*|/]{1,3}|\t)){5,}[A-Za-z](?![A-Za-z])/g;
/** A cheaper test a line must pass first: four single letters in a row. */
const SPACED_GATE = /\b[A-Za-z][ .\-_*|/\t]{1,3}[A-Za-z][ .\-_*|/\t]{1,3}[A-Za-z][ .\-_*|/\t]{1,3}[A-Za-z]\b/;
/** Where the words of spaced letters break: two or more spaces, a slash or bar with spaces around it. */
const SPACED_WORD_BREAK = /\s{2,}|\s*[/|]\s+|\s+[/|]\s*/;

/** Either set of cue words below: one test for plain lines. */
const TURNED_CUE =
  /snoitcurtsni|tpmorp|suoiverp|roirp|erongi|dragersid|tegrof|edirrevo|tnatsissa|metsys|won era uoy|lanigiro|laevre|esolcsid|fr- mr|hss\/~|vafgehpgvba|cebzcg|cerivbhf|cevbe|vtaber|qvfertneq|sbetrg|bireevqr|nffvfgnag|flfgrz|lbh ner abj|bevtvany|erirny|qvfpybfr|ez -es/i;
/** Cue words of the injection patterns, spelled backwards. */
const REVERSED_CUE =
  /snoitcurtsni|tpmorp|suoiverp|roirp|erongi|dragersid|tegrof|edirrevo|tnatsissa|metsys|won era uoy|lanigiro|laevre|esolcsid|fr- mr|hss\/~/i;
/** The same cue words in ROT13. */
const ROT13_CUE =
  /vafgehpgvba|cebzcg|cerivbhf|cevbe|vtaber|qvfertneq|sbetrg|bireevqr|nffvfgnag|flfgrz|lbh ner abj|bevtvany|erirny|qvfpybfr|ez -es/i;

/** Control characters other than tab, line feed and carriage return: decoded binary. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD]/;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** `bytes` read as UTF-8 text on one line, or undefined when they are not readable text. */
function readable(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  if (text.length < 8 || CONTROL.test(text) || !/[A-Za-z]{2}/.test(text)) return undefined;
  return text.replace(/\s+/g, ' ');
}

/** The 6-bit value of the character at `i` of `line`, -1 when it is not a base64 character. */
const sextetAt = (line: string, i: number): number => {
  const code = line.charCodeAt(i);
  return code < 128 ? SEXTET[code]! : -1;
};

/**
 * The run of base64 characters from `from` in `line`, and whether it can be base64 of ASCII text:
 * every byte under 0x80 puts a 0 bit in the first, second and third character of each group of four
 * (values < 32, bit 3 clear, bit 1 clear), so words, paths and identifiers of the same alphabet fail
 * within a few characters; an order in another script is not one the patterns read anyway.
 */
function asciiRun(line: string, from: number): { end: number; shaped: boolean } {
  let shaped = true;
  let i = from;
  for (let v = sextetAt(line, i); v >= 0; v = sextetAt(line, ++i)) {
    const at = (i - from) % 4;
    if ((at === 0 && v >= 32) || (at === 1 && v & 8) || (at === 2 && v & 2)) shaped = false;
  }
  return { end: i, shaped };
}

/** The bytes of a base64 or base64url token, or undefined when it is not one. */
function base64Bytes(token: string): Uint8Array | undefined {
  const bare = token.replace(/-/g, '+').replace(/_/g, '/');
  if (bare.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(bare + '='.repeat((4 - (bare.length % 4)) % 4));
  } catch {
    return undefined;
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function* base64Readings(line: string): Generator<EncodedReading> {
  if (!BASE64_GATE.test(line)) return;
  for (let i = 0; i < line.length;) {
    if (sextetAt(line, i) < 0) {
      i++;
      continue;
    }
    const { end, shaped } = asciiRun(line, i);
    const token = line.slice(i, end);
    // Encoded words mix cases; a hex digest, a slug or an all-caps constant does not.
    if (shaped && end - i >= BASE64_MIN && /[a-z]/.test(token) && /[A-Z]/.test(token)) {
      const text = readable(base64Bytes(token));
      if (text) yield { text, how: 'base64', start: i };
    }
    i = end;
  }
}

function* hexReadings(line: string): Generator<EncodedReading> {
  HEX.lastIndex = 0;
  for (let m = HEX.exec(line); m; m = HEX.exec(line)) {
    const digits = m[0].replace(/\\x|0x|%|[\s,:]/g, '');
    if (digits.length % 2) continue;
    const bytes = Uint8Array.from(digits.match(/../g)!, (b) => parseInt(b, 16));
    const text = readable(bytes);
    if (text) yield { text, how: 'hex', start: m.index };
  }
}

function* spacedReadings(line: string): Generator<EncodedReading> {
  if (!SPACED_GATE.test(line)) return;
  SPACED.lastIndex = 0;
  for (let m = SPACED.exec(line); m; m = SPACED.exec(line)) {
    const words = m[0].split(SPACED_WORD_BREAK).map((w) => w.replace(/[^A-Za-z]/g, ''));
    yield { text: words.filter(Boolean).join(' '), how: 'letter-spaced', start: m.index };
  }
}

/** `s` with each ASCII letter moved 13 places. */
export function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** Where the word holding the first match of `cue` starts in `line` (0-based), or -1. */
function cueAt(cue: RegExp, line: string): number {
  const m = cue.exec(line);
  return m ? line.slice(0, m.index).search(/\S*$/) : -1;
}

function* turnedReadings(line: string): Generator<EncodedReading> {
  if (!TURNED_CUE.test(line)) return;
  const backwards = cueAt(REVERSED_CUE, line);
  if (backwards >= 0) {
    yield { text: [...line].reverse().join(''), how: 'reversed', start: backwards };
    yield { text: line.replace(/\S+/g, (w) => [...w].reverse().join('')), how: 'reversed', start: backwards };
  }
  const rotated = cueAt(ROT13_CUE, line);
  if (rotated >= 0) yield { text: rot13(line), how: 'ROT13', start: rotated };
}

/**
 * The encoded readings of `line` (one line, no line ends), in the order base64, hex, letter-spaced,
 * reversed, ROT13; none for plain text. Lazy: a caller that stops at the first match decodes no more.
 */
export function* encodedReadings(line: string): Generator<EncodedReading> {
  yield* base64Readings(line);
  yield* hexReadings(line);
  yield* spacedReadings(line);
  yield* turnedReadings(line);
}

/** Letters only, lower case: how a phrase spelled letter by letter without word breaks reads. */
export function lettersOnly(s: string): string {
  return s.replace(/[^A-Za-z]/g, '').toLowerCase();
}
