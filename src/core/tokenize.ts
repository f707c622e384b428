// The one tokenizer: keyword indexing AND querying (tokenize, analyze), and the plain word split of
// the ACE planners and the file backend's search (wordTokens, analyze's compounds). NFC, lowercase,
// Unicode word splitting, code-identifier parts, CJK bigrams, accent folding, a small stop list.
// In core so every layer may call it (ace/ imports only core). Pure: must not import lunr, npm
// packages or Node modules (only pure core helpers: core/words.ts cutUnits).
import { cutUnits } from './words.js';

/**
 * Bump whenever tokenisation changes (splitting, stop list, folding, limits): it belongs in the
 * index fingerprint, because an index built by another tokenizer answers queries wrongly.
 */
export const TOKENIZER_VERSION = 1;

/** Tokens longer than this are cut to this many UTF-16 code units (a pasted blob must not bloat the vocabulary). */
export const MAX_TOKEN_LENGTH = 64;

/** Most parts of one compound (`a_b_c…`) that still get a joined whole; longer chains are paths/URLs. */
const MAX_JOIN_PARTS = 8;

/**
 * Small English stop list, dropped from the text field and from queries. Negations (`not`, `no`,
 * `never`) are deliberately kept: "do not use X" must not match "use X" as strongly.
 * `s` and `t` are the tails of `user's` / `don't`, which split at the apostrophe.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'from',
  'has',
  'have',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  's',
  't',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'were',
  'will',
  'with',
]);

/** Options for {@link analyze} and {@link tokenize}. */
export interface TokenizeOptions {
  /** Drop {@link STOP_WORDS}. Default true. */
  readonly stopWords?: boolean;
  /** Also emit an accent-folded variant of Latin tokens (`café` → `cafe`). Default true. */
  readonly fold?: boolean;
}

/** One part of a compound: the token plus its variants (the accent-folded form, when different). */
export interface TokenPart {
  readonly token: string;
  readonly variants: readonly string[];
}

/**
 * A whitespace/punctuation-delimited run such as `getUserName`, `application/json` or
 * `東京でミーティング`: its parts (identifier pieces, or CJK bigrams) and, for multi-part
 * identifiers, the joined whole (`getusername`) with its variants.
 */
export interface TokenCompound {
  /** The compound as it appears in the (NFC, comment-free) text. */
  readonly source: string;
  readonly parts: readonly TokenPart[];
  /** Joined whole and its variants; empty for single-part compounds and CJK. */
  readonly joined: readonly string[];
}

/** Letters, numbers and combining marks (marks keep Indic and other scripts' words whole). */
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:[_\-./:\\@'’]+[\p{L}\p{N}\p{M}]+)*/gu;
const PIECE = /[\p{L}\p{N}\p{M}]+/gu;
const CJK_CHAR = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const CJK_RUNS =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+|[^\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;
const LATIN_WORD = /^[\p{sc=Latin}\p{N}\p{M}]+$/u;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;
const PLAIN_WORD = /^[a-z0-9]+$/;
const COMBINING = /\p{Mn}+/gu;
const SPECIAL_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const SPECIAL_FOLD_RE = /[ßæœøłđðþı]/g;

/** @returns true when `token` is Latin script (plus digits/marks), i.e. stemmable and foldable. */
export function isLatinToken(token: string): boolean {
  return LATIN_WORD.test(token);
}

/** @returns true when `s` contains a Han, Hiragana, Katakana or Hangul character. */
export function hasCjk(s: string): boolean {
  return CJK_CHAR.test(s);
}

/**
 * Accent-fold a Latin token (`café` → `cafe`, `straße` → `strasse`).
 * @returns the token unchanged when it is not Latin script or has nothing to fold.
 */
export function foldAccents(token: string): string {
  if (ASCII.test(token) || !isLatinToken(token)) return token;
  const folded = token
    .normalize('NFD')
    .replace(COMBINING, '')
    .replace(SPECIAL_FOLD_RE, (c) => SPECIAL_FOLDS[c] ?? c)
    .normalize('NFC');
  return folded.length > 0 ? folded : token;
}

/** Normalise raw text the same way at index and query time: NFC, HTML comments removed. */
export function normalizeText(text: string): string {
  return text.normalize('NFC').replace(HTML_COMMENT, ' ');
}

/** Never keeps half a surrogate pair (core/words.ts cutUnits). */
function cut(token: string): string {
  return cutUnits(token, MAX_TOKEN_LENGTH);
}

/** camelCase / PascalCase / `HTMLParser` / `getV2Config` → pieces (letters+digits stay together: `utf8`). */
function camelPieces(run: string): string[] {
  return run
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1\u0000$2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1\u0000$2')
    .split('\u0000')
    .filter((p) => p.length > 0);
}

/** Character bigrams of a CJK run (code points, so astral Han characters stay whole). */
function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length <= 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

function withVariants(token: string, fold: boolean): TokenPart {
  const t = cut(token);
  const f = fold ? cut(foldAccents(t)) : t;
  return { token: t, variants: f !== t ? [f] : [] };
}

/**
 * Split `text` into {@link TokenCompound}s. Never throws; empty input gives `[]`.
 * Separators are everything that is not a letter, number or mark; `_ - . / : \ @ '` glue the
 * pieces of one compound so that identifiers and paths also yield their joined whole.
 */
export function analyze(text: string, options: TokenizeOptions = {}): TokenCompound[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const dropStop = options.stopWords !== false;
  const fold = options.fold !== false;
  const out: TokenCompound[] = [];
  for (const m of normalizeText(text).matchAll(COMPOUND)) {
    const c = analyzeCompound(m[0], dropStop, fold);
    if (c) out.push(c);
  }
  return out;
}

/** One compound of {@link analyze}: its parts and joined whole; undefined when it yields no token. */
function analyzeCompound(source: string, dropStop: boolean, fold: boolean): TokenCompound | undefined {
  if (PLAIN_WORD.test(source)) {
    // Fast path for the common case (a lowercase ASCII word): nothing to split, fold or join.
    if (dropStop && STOP_WORDS.has(source)) return undefined;
    return { source, parts: [{ token: cut(source), variants: [] }], joined: [] };
  }
  const parts: TokenPart[] = [];
  const pieces: string[] = []; // lowercase non-CJK pieces, stop words included, for the joined whole
  let cjk = false;
  for (const p of source.matchAll(PIECE)) {
    for (const r of p[0].matchAll(CJK_RUNS)) {
      const run = r[0];
      if (hasCjk(run)) {
        cjk = true;
        for (const b of bigrams(run)) parts.push({ token: b, variants: [] });
        continue;
      }
      for (const piece of camelPieces(run)) {
        const lower = piece.toLowerCase();
        pieces.push(lower);
        if (dropStop && STOP_WORDS.has(lower)) continue;
        parts.push(withVariants(lower, fold));
      }
    }
  }
  const joined: string[] = [];
  if (!cjk && pieces.length >= 2 && pieces.length <= MAX_JOIN_PARTS) {
    const whole = pieces.join('');
    if (whole.length <= MAX_TOKEN_LENGTH && !(dropStop && STOP_WORDS.has(whole))) {
      const j = withVariants(whole, fold);
      joined.push(j.token, ...j.variants);
    }
  }
  return parts.length > 0 || joined.length > 0 ? { source, parts, joined } : undefined;
}

/** Flat tokens of one compound: every part, its variants, then the joined whole and its variants. */
function flatTokens(c: TokenCompound | undefined): readonly string[] {
  if (!c) return NO_TOKENS;
  const out: string[] = [];
  for (const p of c.parts) out.push(p.token, ...p.variants);
  out.push(...c.joined);
  return out;
}

const NO_TOKENS: readonly string[] = [];

/**
 * Flat tokens per compound source under the default options (stop words dropped, accents folded):
 * the analysis is a pure function of the compound, and words repeat (Zipf), so a keyword build
 * splits each distinct word once. Bounded: cleared when full.
 */
const compoundTokens = new Map<string, readonly string[]>();
const COMPOUND_MEMO_MAX = 1 << 16;

/**
 * The tokens {@link tokenize} gives one compound of {@link compoundsOf} under the default options
 * (shared and frozen in spirit: callers must not change the array).
 */
export function defaultTokensOf(source: string): readonly string[] {
  let toks = compoundTokens.get(source);
  if (toks === undefined) {
    toks = flatTokens(analyzeCompound(source, true, true));
    if (compoundTokens.size >= COMPOUND_MEMO_MAX) compoundTokens.clear();
    compoundTokens.set(source, toks);
  }
  return toks;
}

/**
 * Flat token list for indexing: every part, its variants and joined wholes, in text order,
 * duplicates kept (term frequency matters). Used at index time and, via {@link analyze}, at query time.
 * @example tokenize('getUserName') → ['get', 'user', 'name', 'getusername']
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const out: string[] = [];
  if (options.stopWords === false || options.fold === false) {
    for (const c of analyze(text, options)) out.push(...flatTokens(c));
    return out;
  }
  if (typeof text !== 'string' || text.length === 0) return out;
  for (const m of normalizeText(text).matchAll(COMPOUND)) {
    const toks = defaultTokensOf(m[0]);
    for (let i = 0; i < toks.length; i++) out.push(toks[i]!);
  }
  return out;
}

/**
 * The compounds of `text` in order (NFC, HTML comments removed), the units {@link tokenize} splits:
 * `tokenize(text)` is the concatenation of {@link defaultTokensOf} over them.
 */
export function compoundsOf(text: string): string[] {
  const out: string[] = [];
  if (typeof text !== 'string' || text.length === 0) return out;
  for (const m of normalizeText(text).matchAll(COMPOUND)) out.push(m[0]);
  return out;
}

/**
 * Plain lowercase words of `text`, in order, duplicates kept: the parts {@link analyze} finds with
 * stop words kept and no accent folding (identifier pieces: `findWithEvents` → find, with, events;
 * a CJK run as its character bigrams, one character alone as itself), no joined wholes.
 * @example wordTokens('findWithEvents in src/a_b.ts') → ['find', 'with', 'events', 'in', 'src', 'a', 'b', 'ts']
 */
export function wordTokens(text: string): string[] {
  const out: string[] = [];
  for (const c of analyze(text, { stopWords: false, fold: false })) for (const p of c.parts) out.push(p.token);
  return out;
}
