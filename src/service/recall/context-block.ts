// The one context-block packer: recall results → the `### Recalled Context` block an agent's prompt
// receives, within a UTF-8 byte budget. Most relevant spans first, grouped under their file (path
// once, each line with its number, so adjacent spans merge), repeated lines shown once, a long line
// cut to its best-matching sentences, never splitting a character. Used by `recall --budget`, MCP
// `memory_recall` `budget`, `gitmem context` and the lifecycle hooks. deps: indexes/evidence.
import { lineScore, NEAR_DECAY, nearness, sentences, type QueryWeights } from '../../indexes/evidence.js';

/** One item to render: where it is and the text of its lines (`text` line i is file line startLine + i). */
export interface ContextItem {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly headingPath?: readonly string[];
  readonly text: string;
  /** The retrieved chunk around the span: its lines fill the budget left after every item's span. */
  readonly chunk?: { readonly startLine: number; readonly text: string };
}

/** Options of {@link renderContextBlock}. */
export interface PackOptions {
  /** Query weights: which sentences of a long line to keep. Without them, the first sentences stay. */
  readonly terms?: QueryWeights;
  /** A line longer than this many UTF-8 bytes is cut to its best sentences. Default: half the budget, at least 160. */
  readonly lineBytes?: number;
  /** Show each file's heading (the last heading above its first item). Default false: path and lines only. */
  readonly headings?: boolean;
}

/** The rendered block. */
export interface ContextBlock {
  /** The block; empty when there is nothing or the budget cannot hold the header. */
  readonly text: string;
  /** Results shown in it, whole or in part. */
  readonly items: number;
  /** UTF-8 bytes of `text` (never above the budget). */
  readonly bytes: number;
}

const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const HEADER = '### Recalled Context\n';
const ELLIPSIS = '…';
/** Below this many free bytes no further item is tried. */
const MIN_ITEM_BYTES = 24;
/** Longest heading shown next to a path, in characters. */
const HEADING_CHARS = 48;

/** `s` cut to at most `max` UTF-8 bytes, on a grapheme (user-perceived character) boundary. */
export function clipUtf8(s: string, max: number): string {
  if (max <= 0) return '';
  if (bytes(s) <= max) return s;
  let used = 0;
  let out = '';
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
  const scored = ss.map((s, i) => ({ i, s: terms ? lineScore(terms, s.text) : 0 }));
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
  for (const { i } of scored) {
    keep.add(i);
    if (bytes(render(keep)) > max) keep.delete(i);
  }
  if (keep.size === 0) return clipWords(render(new Set([scored[0]!.i])), max);
  return render(keep);
}

interface Group {
  readonly path: string;
  readonly heading: string | undefined;
  readonly lines: Map<number, string>;
}

function renderGroups(groups: readonly Group[]): string {
  let out = HEADER;
  for (const g of groups) {
    out += `- ${g.path}${g.heading ? ` (${g.heading})` : ''}\n`;
    for (const n of [...g.lines.keys()].sort((a, b) => a - b)) out += `  ${n}: ${g.lines.get(n)}\n`;
  }
  return out;
}

function shortHeading(h: readonly string[] | undefined): string | undefined {
  const last = h && h.length ? h[h.length - 1]!.trim() : '';
  if (!last) return undefined;
  return last.length > HEADING_CHARS ? `${last.slice(0, HEADING_CHARS - 1).trimEnd()}${ELLIPSIS}` : last;
}

/** Weight of the item at rank r: 1 / r^RANK_DECAY (evidence thins out fast below the first hits). */
const RANK_DECAY = 2;

const normal = (s: string) => s.replace(/\s+/gu, ' ').trim().toLowerCase();

/**
 * Pack `items` (best first) into a block of at most `budget` UTF-8 bytes.
 * Each item's lines go under its file's entry, numbered; a line already shown (same text, any file)
 * is not repeated; a line longer than `lineBytes` is cut to its best sentences; an item that does not
 * fit whole is cut to what fits, and smaller later items may still fill the rest.
 */
export function renderContextBlock(
  items: readonly ContextItem[],
  budget = 800,
  options: PackOptions = {},
): ContextBlock {
  if (items.length === 0 || budget < bytes(HEADER) + MIN_ITEM_BYTES) return { text: '', items: 0, bytes: 0 };
  const lineBytes = options.lineBytes ?? Math.max(160, Math.floor(budget / 2));
  const groups: Group[] = [];
  const seen = new Set<string>();
  const shown = new Set<number>();
  let text = HEADER;

  /** Add `cand` (file lines of item `idx`) if it fits, cut to the best line when it does not fit whole. */
  const add = (
    it: ContextItem,
    idx: number,
    cand: readonly { n: number; text: string }[],
    shrink: boolean,
  ): boolean => {
    const free = budget - bytes(text);
    if (free < MIN_ITEM_BYTES) return false;
    const lines = cand
      .map((l) => ({ n: l.n, text: l.text.trim() }))
      .filter((l) => l.text && !seen.has(normal(l.text)))
      .map((l) => ({ n: l.n, raw: l.text, text: bestSentences(l.text, lineBytes, options.terms) }));
    if (lines.length === 0) return false;
    let group = groups.find((g) => g.path === it.path);
    const fresh = !group;
    if (!group)
      group = { path: it.path, heading: options.headings ? shortHeading(it.headingPath) : undefined, lines: new Map() };
    const before = new Map(group.lines);
    const attempt = (ls: readonly { n: number; text: string }[]) => {
      group!.lines.clear();
      for (const [k, v] of before) group!.lines.set(k, v);
      for (const l of ls) group!.lines.set(l.n, group!.lines.has(l.n) ? `${group!.lines.get(l.n)} ${l.text}` : l.text);
      return renderGroups(fresh ? [...groups, group!] : groups);
    };
    let out = attempt(lines);
    let used = lines;
    if (bytes(out) > budget) {
      out = '';
      if (shrink) {
        // The best-scoring line alone, cut to the bytes that are left.
        const best = options.terms
          ? lines.reduce((a, b) => (lineScore(options.terms!, b.raw) > lineScore(options.terms!, a.raw) ? b : a))
          : lines[0]!;
        const room = budget - bytes(attempt([{ ...best, text: '' }]));
        if (room >= MIN_ITEM_BYTES) {
          out = attempt([{ ...best, text: bestSentences(best.raw, room, options.terms) }]);
          used = [best];
        }
      }
      if (!out || bytes(out) > budget) {
        group.lines.clear();
        for (const [k, v] of before) group.lines.set(k, v);
        return false;
      }
    }
    if (fresh) groups.push(group);
    for (const l of used) seen.add(normal(l.raw));
    shown.add(idx);
    text = out;
    return true;
  };
  const numbered = (start: number, end: number, t: string) =>
    t.split('\n').map((line, i) => ({ n: Math.min(start + i, Math.max(start, end)), text: line }));

  // Every line of every retrieved chunk competes for the budget: priority = item weight (1/rank^RANK_DECAY)
  // × the line's nearness to a matching line (its own BM25 line score, relative to the item's best
  // line, or a decayed share of a matching neighbour's: the line after a match often holds the
  // answer). Lines go in priority order; each item's evidence span is always eligible first.
  const cands: { i: number; n: number; text: string; p: number }[] = [];
  items.forEach((it, i) => {
    const span = numbered(it.startLine, it.endLine, it.text);
    const around = it.chunk ? numbered(it.chunk.startLine, Number.MAX_SAFE_INTEGER, it.chunk.text) : span;
    const near = options.terms
      ? nearness(
          options.terms,
          around.map((l) => l.text),
        )
      : around.map(() => 0);
    const w = 1 / Math.pow(i + 1, RANK_DECAY);
    around.forEach((l, k) => {
      const inSpan = l.n >= it.startLine && l.n <= it.endLine;
      cands.push({ i, n: l.n, text: l.text, p: w * Math.max(near[k]!, inSpan ? NEAR_DECAY : 0) });
    });
  });
  cands.sort((a, b) => b.p - a.p || a.i - b.i || a.n - b.n);
  const tried = new Set<number>();
  for (const c of cands) {
    if (c.p <= 0) break;
    add(items[c.i]!, c.i, [c], !tried.has(c.i));
    tried.add(c.i);
  }
  if (shown.size === 0) return { text: '', items: 0, bytes: 0 };
  return { text, items: shown.size, bytes: bytes(text) };
}
