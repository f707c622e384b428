// The skeleton of one line of memory text, the way a language model reads it: invisible format
// characters dropped (a zero-width non-joiner, soft hyphen, word joiner, left-to-right mark,
// variation selector or Hangul filler inside "ig‌nore"), compatibility forms folded (fullwidth
// "ｉｇｎｏｒｅ", mathematical bold "𝐢𝐠𝐧𝐨𝐫𝐞", ligatures: Unicode NFKD), combining marks dropped,
// Cyrillic and Greek letters that look like Latin ones read as Latin ("іgnore" with U+0456),
// numeric character references and escapes decoded ("&#105;gnore", "\x69gnore" in a quoted YAML
// title) and markdown emphasis and code markers removed ("*ignore* previous", "ig**nore**").
// core/injection.ts matches its patterns against the skeleton when the line as written matched
// none (docs/bad-inputs.md R100). Pure.
//
// The look-alike table follows the Latin-looking letters of Unicode's confusables list
// (UTS #39) for the Cyrillic and Greek blocks.

/** A skeleton and where each of its UTF-16 units came from in the line. */
export interface Skeleton {
  readonly text: string;
  /** The UTF-16 index in the line of the character that produced `text[i]`. */
  readonly originOf: (i: number) => number;
}

/** Cyrillic and Greek letters drawn like Latin ones → the Latin letter. */
const LOOK_ALIKE: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w', ɡ: 'g', ı: 'i', ȷ: 'j',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y',
  І: 'I', Ј: 'J', Ѕ: 'S', Ԁ: 'D', Ӏ: 'I', Ԛ: 'Q', Ԝ: 'W',
  α: 'a', ο: 'o', ν: 'v', ρ: 'p', ι: 'i', κ: 'k', υ: 'u', τ: 't', ϲ: 'c', ϳ: 'j',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T',
  Υ: 'Y', Χ: 'X', Ϲ: 'C',
}; // prettier-ignore

/** Characters a reader does not see: format characters (Cf) and the Hangul fillers. */
const INVISIBLE = /^(?:\p{Cf}|[\u115F\u1160\u3164\uFFA0])$/u;
/** Combining marks, which include the variation selectors and the combining grapheme joiner: dropped too. */
const MARK = /^\p{M}$/u;
/** What the skeleton reads differently: a character reference or escape (`&#105;`, `\x69`, `\u0069`), an emphasis or code marker, a character outside ASCII. */
const SPECIAL =
  /&#(?:[xX]([0-9A-Fa-f]{1,6})|([0-9]{1,7}));|\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\})|[*`]|~~+|_+|\P{ASCII}/gu;

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9]/.test(c);

/** The character a numeric reference names, or undefined when it names none. */
function referenced(hex: string | undefined, dec: string | undefined): string | undefined {
  const cp = hex !== undefined ? parseInt(hex, 16) : Number(dec);
  return !Number.isInteger(cp) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)
    ? undefined
    : String.fromCodePoint(cp);
}

/** How the character `c` reads: '' when unseen, else its NFKD letters without marks, look-alikes as Latin. */
function readAs(c: string): string {
  if (INVISIBLE.test(c)) return '';
  let out = '';
  for (const d of c.normalize('NFKD')) if (!MARK.test(d) && !INVISIBLE.test(d)) out += LOOK_ALIKE[d] ?? d;
  return out;
}

/** How the special token `m` (at `m.index` of `line`) reads. */
function tokenReads(line: string, m: RegExpExecArray): string {
  const t = m[0];
  if (t.startsWith('&#')) return readAs(referenced(m[1], m[2]) ?? t);
  if (t.startsWith('\\')) return readAs(referenced(m[3] ?? m[4] ?? m[5], undefined) ?? t);
  if (t === '*' || t === '`' || t.startsWith('~')) return '';
  if (t.startsWith('_')) return isWordChar(line[m.index - 1]) && isWordChar(line[m.index + t.length]) ? t : '';
  return readAs(t);
}

/**
 * The skeleton of `line` (one line, no line ends), or undefined when it reads the same as written
 * (the common case: plain ASCII without markers).
 */
export function skeletonOf(line: string): Skeleton | undefined {
  // Runs of the skeleton: where each starts in it, where it came from in the line, copied or read.
  const runs: { at: number; from: number; copied: boolean }[] = [];
  let text = '';
  let last = 0;
  const add = (piece: string, from: number, copied: boolean) => {
    runs.push({ at: text.length, from, copied });
    text += piece;
  };
  SPECIAL.lastIndex = 0;
  for (let m = SPECIAL.exec(line); m; m = SPECIAL.exec(line)) {
    const reads = tokenReads(line, m);
    if (reads === m[0]) continue;
    if (m.index > last) add(line.slice(last, m.index), last, true);
    if (reads) add(reads, m.index, false);
    last = m.index + m[0].length;
  }
  if (!runs.length && last === 0) return undefined;
  if (last < line.length) add(line.slice(last), last, true);
  const originOf = (i: number): number => {
    let k = runs.length - 1;
    while (k > 0 && runs[k]!.at > i) k--;
    const r = runs[k]!;
    return r.copied ? r.from + (i - r.at) : r.from;
  };
  return { text, originOf };
}
