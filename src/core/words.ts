// Shared text helpers, one owner: the light stemmer, the dedupe normal form, file-name slugs and a
// cut that never splits a surrogate pair. Used by the ACE planners (ace/), the write checks
// (service/shared/), the id of a new entry (core/entry-id.ts) and the editor. Words come from the one
// tokenizer, core/tokenize.ts (wordTokens); the keyword index keeps its Porter stemmer
// (indexes/lexical/lexical-stem.ts), part of its on-disk format. Pure; imports nothing.

/** Light English suffix stemmer: enough for "retries/retry/retried", "timers/timer", "parsing/parse". */
export function stemWord(w: string): string {
  if (w.length <= 3) return w;
  if (w.length === 4) return /[^s]s$/.test(w) && !/(us|is|ss)$/.test(w) ? w.slice(0, -1) : w;
  if (w.endsWith('ies') && w.length > 5) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ied') && w.length > 5) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ing') && w.length > 6) return w.slice(0, -3).replace(/(.)\1$/, '$1');
  if (w.endsWith('ed') && w.length > 5) return w.slice(0, -2).replace(/(.)\1$/, '$1');
  if (w.endsWith('es') && /(ss|sh|ch|x)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

/** Normal form for exact-duplicate checks: NFC, trimmed, lowercase, collapsed whitespace, no trailing punctuation. */
export function normalise(text: string): string {
  return text
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\p{P}\s]+$/u, '');
}

/** A file-name slug: letters and digits kept (NFC, lowercase), every other run `-`, at most 60 code points; `memory` when empty. */
export function slug(text: string): string {
  const s = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = [...s].slice(0, 60).join('').replace(/-+$/, '');
  return cut || 'memory';
}

/**
 * The longest prefix of `text` of at most `max` UTF-16 units that does not end in the first half of
 * a surrogate pair (so never a lone surrogate, which encodes as U+FFFD). `text` itself when it fits.
 */
export function cutUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}
