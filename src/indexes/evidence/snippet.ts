// Bounded recall snippets: whitespace collapsed, centred on the first query match, `…` at cut
// ends, never splitting a surrogate pair or a base character from its marks. Pure: must not
// import lunr, npm packages or Node modules.
import { analyze, hasCjk, normalizeText, tokenize } from '../../core/tokenize.js';

/** Default snippet length in UTF-16 code units (docs/DESIGN.md §3). */
const DEFAULT_SNIPPET_CHARS = 320;

const ELLIPSIS = '…';
/** Only this much text is scanned for a match; chunks are small, this bounds pathological input. */
const SCAN_LIMIT = 100_000;
/** How far a cut may move to land on a space instead of inside a word. */
const WORD_SNAP = 16;
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:[_\-./:\\@'’]+[\p{L}\p{N}\p{M}]+)*/gu;

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Characters that belong to the preceding one: marks, ZWJ, variation selectors, emoji modifiers. */
function isJoiner(s: string, i: number): boolean {
  const cp = s.codePointAt(i);
  if (cp === undefined) return false;
  return (
    cp === 0x200d ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
    /\p{M}/u.test(String.fromCodePoint(cp))
  );
}

/** Move a start offset forward to a character boundary. */
function safeStart(s: string, i: number): number {
  let k = i;
  while (k < s.length && (isLow(s.charCodeAt(k)) || isJoiner(s, k))) k++;
  return k;
}

/** Move an end offset backward so that s[end-1] is complete and s[end] does not attach to it. */
function safeEnd(s: string, end: number, min: number): number {
  let k = end;
  for (;;) {
    if (k > min && isHigh(s.charCodeAt(k - 1))) k--;
    else if (k > min && k < s.length && (isLow(s.charCodeAt(k)) || isJoiner(s, k))) k--;
    else return k;
  }
}

/** Offset and length of the first word in `text` that matches one of `wanted` (tokens). */
function firstMatch(text: string, wanted: ReadonlySet<string>): { at: number; len: number } | undefined {
  if (wanted.size === 0) return undefined;
  const cjk = [...wanted].filter(hasCjk);
  const long = [...wanted].filter((w) => w.length >= 3 && !hasCjk(w));
  const scan = text.length > SCAN_LIMIT ? text.slice(0, SCAN_LIMIT) : text;
  for (const m of scan.matchAll(COMPOUND)) {
    const word = m[0];
    const at = m.index;
    if (hasCjk(word)) {
      let best = -1;
      let len = 0;
      for (const w of cjk) {
        const i = word.indexOf(w);
        if (i >= 0 && (best < 0 || i < best)) {
          best = i;
          len = w.length;
        }
      }
      if (best >= 0) return { at: at + best, len };
    }
    for (const c of analyze(word, { stopWords: false })) {
      for (const p of c.parts) {
        const forms = [p.token, ...p.variants];
        // Prefix either way stands in for stemming: `module` ~ `modules`, `configuration` ~ `config`.
        if (
          forms.some((f) => wanted.has(f) || long.some((w) => f.length >= 3 && (f.startsWith(w) || w.startsWith(f))))
        ) {
          return { at, len: word.length };
        }
      }
      if (c.joined.some((j) => wanted.has(j))) return { at, len: word.length };
    }
  }
  return undefined;
}

/**
 * A bounded snippet of `text` around the first word matching `queryTokens`.
 * Whitespace runs collapse to one space and HTML comments are dropped; when the text is longer
 * than `maxChars`, the window is centred on the match (or starts at the beginning when nothing
 * matches) and each cut end gets `…`. The result never exceeds `maxChars` UTF-16 code units.
 * @param queryTokens query tokens or raw query words (they are tokenised again, so both work).
 */
export function makeSnippet(
  text: string,
  queryTokens: readonly string[],
  maxChars: number = DEFAULT_SNIPPET_CHARS,
): string {
  const max = Math.floor(Number.isFinite(maxChars) ? maxChars : DEFAULT_SNIPPET_CHARS);
  if (typeof text !== 'string' || max <= 0) return '';
  const clean = normalizeText(text).replace(/\s+/gu, ' ').trim();
  if (clean.length <= max) return clean;
  if (max < 3) return clean.slice(0, safeEnd(clean, max, 0));
  const wanted = new Set<string>();
  for (const q of queryTokens) for (const t of tokenize(String(q), { stopWords: false })) wanted.add(t);
  const hit = firstMatch(clean, wanted) ?? { at: 0, len: 0 };

  // The window holds max-2 characters between two ellipses, or max-1 when it touches either end.
  let start = Math.floor(hit.at + hit.len / 2 - (max - 2) / 2);
  let end: number;
  if (start <= 0) {
    start = 0;
    end = max - 1;
  } else if (start + (max - 2) >= clean.length) {
    end = clean.length;
    start = clean.length - (max - 1);
  } else {
    end = start + (max - 2);
  }

  // Prefer cutting at spaces when that does not drop the match.
  if (start > 0) {
    const sp = clean.indexOf(' ', start);
    if (sp >= 0 && sp - start < WORD_SNAP && sp + 1 <= hit.at) start = sp + 1;
  }
  if (end < clean.length) {
    const sp = clean.lastIndexOf(' ', end);
    if (sp > start && end - sp < WORD_SNAP && sp >= hit.at + hit.len) end = sp;
  }
  start = safeStart(clean, start);
  end = safeEnd(clean, end, start);
  const body = clean.slice(start, end).trim();
  return (start > 0 ? ELLIPSIS : '') + body + (end < clean.length ? ELLIPSIS : '');
}
