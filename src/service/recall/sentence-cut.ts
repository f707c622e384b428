// A long line cut to what the question asks for: its best-matching sentences within a UTF-8 byte
// budget (context-block.ts cuts every line over its per-line cap with it), and the byte-exact clip on
// a grapheme or word boundary under it.
// Pure; deps: indexes/evidence.
import { isFiller, sentenceScores, sentences, type QueryWeights } from '../../indexes/evidence/evidence.js';

const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;
// Made on first use (the first Intl.Segmenter loads ICU break data; see indexes/evidence/evidence.ts sentences).
let graphemes: Intl.Segmenter | undefined;
/** Shown where text was left out. */
export const ELLIPSIS = '…';

/** `s` with its whitespace runs made one space, trimmed, lower case (the key of a line shown once). */
export const normal = (s: string) => s.replace(/\s+/gu, ' ').trim().toLowerCase();

/** `s` cut to at most `max` UTF-8 bytes, on a grapheme (user-perceived character) boundary. */
export function clipUtf8(s: string, max: number): string {
  if (max <= 0) return '';
  if (bytes(s) <= max) return s;
  let used = 0;
  let out = '';
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(s)) {
    const n = bytes(segment);
    if (used + n > max) break;
    out += segment;
    used += n;
  }
  return out;
}

/** `s` cut to at most `max` bytes at a word boundary when one is near, with `…` at the cut. */
function clipWords(s: string, max: number): string {
  if (bytes(s) <= max) return s;
  const room = max - bytes(ELLIPSIS);
  if (room <= 0) return '';
  let cut = clipUtf8(s, room);
  const sp = cut.lastIndexOf(' ');
  if (sp > cut.length * 0.6) cut = cut.slice(0, sp);
  return cut.trimEnd() + ELLIPSIS;
}

/** A list marker and a short `Name:` label at the start of a line (kept when its first sentence is cut). */
const LEAD = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,30}:\s)?/u;

/**
 * `line` cut to at most `max` UTF-8 bytes: its best-matching sentences (by BM25 line score against
 * `terms`) in their original order, `…` where text was left out; a single sentence is cut at a word.
 */
export function bestSentences(line: string, max: number, terms?: QueryWeights): string {
  if (bytes(line) <= max) return line;
  const ss = sentences(line);
  if (ss.length <= 1) return clipWords(line, max);
  const weights = terms
    ? sentenceScores(
        terms,
        ss.map((s) => s.text),
      )
    : ss.map(() => 0);
  // An acknowledgement or pleasantry ("Thanks, Mel!") ranks below every sentence with content (-1).
  const scored = ss.map((s, i) => ({ i, s: isFiller(terms, s.text) ? -1 : weights[i]! }));
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  const lead = (LEAD.exec(line)?.[0] ?? '').trimEnd();
  const render = (keep: ReadonlySet<number>) => {
    let out = '';
    let gap = false;
    for (let i = 0; i < ss.length; i++) {
      if (!keep.has(i)) {
        gap = true;
        continue;
      }
      let t = ss[i]!.text.trim();
      if (i > 0 && out === '' && lead && !t.startsWith(lead)) t = `${lead} ${ELLIPSIS} ${t}`;
      else if (gap && out !== '') t = `${ELLIPSIS} ${t}`;
      out += (out ? ' ' : '') + t;
      gap = false;
    }
    return gap ? `${out} ${ELLIPSIS}` : out;
  };
  const keep = new Set<number>();
  const kept = new Set<string>();
  for (const { i } of scored) {
    // A sentence repeated within the line is shown once.
    const key = normal(ss[i]!.text);
    if (kept.has(key)) continue;
    kept.add(key);
    keep.add(i);
    if (bytes(render(keep)) > max) keep.delete(i);
  }
  if (keep.size === 0) return clipWords(render(new Set([scored[0]!.i])), max);
  return render(keep);
}
