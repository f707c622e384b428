// The one context-block packer: recall results → the `### Recalled Context` block an agent's prompt
// receives, within a UTF-8 byte budget. Every line of the retrieved chunks (and a few lines around
// them) competes for the bytes; most relevant first, grouped under their file (path once, each line
// with its number, so adjacent spans merge), repeated lines shown once, a long line cut to its
// best-matching sentences, never splitting a character. Used by `recall --budget`, MCP
// `memory_recall` `budget` and `gitmem context --budget` (the command a prompt hook runs). Memory
// is data: a line that looks like an injected instruction is shown labelled `[suspected
// instruction, quoted]` and hidden characters escaped (core/injection.ts), the label counted
// against the budget.
// deps: core (injection), indexes/evidence/evidence.
import { INJECTION_LABEL, flaggedLines, labelLine, showHidden } from '../../core/injection.js';
import { bestSentences, ELLIPSIS, normal } from './sentence-cut.js';
import { isFiller, lineScore, nearness, type QueryWeights } from '../../indexes/evidence/evidence.js';

export { bestSentences, clipUtf8 } from './sentence-cut.js';

/** One item to render: where it is and the text of its lines (`text` line i is file line startLine + i). */
export interface ContextItem {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly headingPath?: readonly string[];
  readonly text: string;
  /** The item's recall score (fused, after priors; higher is better). When every item has one, it weighs the item's lines. */
  readonly score?: number;
  /** The retrieved chunk around the span: its lines compete for the budget too. */
  readonly chunk?: { readonly startLine: number; readonly text: string };
  /**
   * The lines that compete for the budget, with their file line numbers (the chunk and a few lines
   * around it; gaps allowed). Default: the chunk's lines, else the span's.
   */
  readonly around?: readonly { readonly line: number; readonly text: string }[];
  /** A trust label shown after the path, e.g. `code changed: src/x.ts` (service/trust/recall-code.ts). */
  readonly label?: string;
  /** The item's date (YYYY-MM-DD; a daily note's day), for `byDate`. */
  readonly date?: string;
  /** Trust labels shown beside the file's path (service/trust/stage.ts blockLabel), e.g. `a1b2c3d Ana 2026-11-02 · unreviewed`. */
  readonly labels?: string;
  /** Newer items it contradicts (entry id or `path:line`): its first shown line ends with `[conflicts with …]`. */
  readonly conflictsWith?: readonly string[];
}

/** Options of {@link renderContextBlock}. */
export interface PackOptions {
  /** Query weights: which sentences of a long line to keep. Without them, the first sentences stay. */
  readonly terms?: QueryWeights;
  /** A line longer than this many UTF-8 bytes is cut to its best sentences. Default: 3/8 of the budget, at least 160. */
  readonly lineBytes?: number;
  /** Show each file's heading (the last heading above its first item). Default false: path and lines only. */
  readonly headings?: boolean;
  /** List the files by their items' dates, oldest first (undated last), instead of by relevance (history). */
  readonly byDate?: boolean;
  /** Cover more files: a line of a file already in the block weighs SPREAD_SHARE (history: the sessions involved). */
  readonly spread?: boolean;
  /** Lines right under the header, inside the budget: the framing preface and the withheld note (service/trust/). */
  readonly preface?: readonly string[];
  /** When no item is shown, still render the header and preface (a withheld note has something to say). */
  readonly keepPreface?: boolean;
  /**
   * The first preface line frames the items (service/trust/stage.ts BLOCK_PREFACE): it is never
   * dropped while a memory line is shown; when the budget cannot hold the header, it and one line,
   * no memory line is shown and `note` says so (docs/trust.md).
   */
  readonly framing?: boolean;
}

/** The rendered block. */
export interface ContextBlock {
  /** The block; empty when there is nothing or the budget cannot hold the header. */
  readonly text: string;
  /** Results shown in it, whole or in part. */
  readonly items: number;
  /** UTF-8 bytes of `text` (never above the budget). */
  readonly bytes: number;
  /** Why no memory line is shown though there were items: {@link TOO_SMALL_NOTE}. */
  readonly note?: string;
}

/** Said when the budget cannot hold the header, the framing line and one memory line. */
export const TOO_SMALL_NOTE = 'budget too small for the header, the framing line and one memory line: no memory shown';

const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;
const HEADER = '### Recalled Context\n';
/** Below this many free bytes no further item is tried. */
const MIN_ITEM_BYTES = 24;
/** The preface lines take at most 1/PREFACE_SHARE of the budget (the framing line is dropped first). */
const PREFACE_SHARE = 4;
/** Longest heading shown next to a path, in characters. */
const HEADING_CHARS = 48;

interface Group {
  readonly path: string;
  readonly date?: string | undefined;
  readonly heading: string | undefined;
  readonly labels?: string | undefined;
  readonly lines: Map<number, string>;
  /** Trust labels of the items shown under the path, joined with `; `. */
  label?: string | undefined;
}

/** `label` plus `more` when it is not in it yet. */
const withLabel = (label: string | undefined, more: string | undefined) =>
  !more || label?.split('; ').includes(more) ? label : label ? `${label}; ${more}` : more;

const MARKER = /^[-*+]\s+/u;

function renderGroups(groups: readonly Group[], head = HEADER, byDate = false): string {
  let out = head;
  const day = (g: Group) => g.date ?? '\uffff';
  const ordered = byDate ? [...groups].sort((a, b) => (day(a) < day(b) ? -1 : day(a) > day(b) ? 1 : 0)) : groups;
  for (const g of ordered) {
    out += `- ${g.path}${g.heading ? ` (${g.heading})` : ''}${g.label ? ` [${g.label}]` : ''}${g.labels ? ` · ${g.labels}` : ''}\n`;
    // `N: text`, the line's own list marker dropped: the number already marks the item.
    for (const n of [...g.lines.keys()].sort((a, b) => a - b)) out += `${n}: ${g.lines.get(n)!.replace(MARKER, '')}\n`;
  }
  return out;
}

function shortHeading(h: readonly string[] | undefined): string | undefined {
  const last = h && h.length ? h[h.length - 1]!.trim() : '';
  if (!last) return undefined;
  return last.length > HEADING_CHARS ? `${last.slice(0, HEADING_CHARS - 1).trimEnd()}${ELLIPSIS}` : last;
}

/** Weight of an item: (its score ÷ the first item's)^SCORE_POWER, so a close second keeps most of its weight and a distant tail little… */
const SCORE_POWER = 2;
/** …or, without scores, 1 / rank^RANK_DECAY. */
const RANK_DECAY = 1;
/** A line d lines after a matching line gets AFTER^d of that line's relevance (the answer often follows)… */
const AFTER = 0.7;
/** …and a line before it that times BEFORE (a reply often repeats the words of what it answers). */
const BEFORE = 0.8;
/** A span line that matches nothing still weighs this share of its item's best line… */
const SPAN_FLOOR = 0.45;
/** …and that line at least this share of the best line of all items (a hit found by its title, tags or embedding). */
const MIN_SHARE = 0.2;

/** With `spread`, a further line of a file already in the block weighs this share. */
const SPREAD_SHARE = 0.5;
/** Priority share of a filler line ("Good.", "Ready when you are."): below any line with content. */
const FILLER_SHARE = 0.01;

interface Cand {
  readonly item: number;
  readonly n: number;
  readonly raw: string;
  readonly key: string;
  /** Relevance on one scale for every item: the line's BM25 score, or a decayed share of a matching neighbour's, ÷ the best line of all items. */
  readonly base: number;
  /** The line looks like an injected instruction: shown labelled. */
  readonly flagged: boolean;
}

/** UTF-8 bytes the label adds to a flagged line. */
const LABEL_BYTES = new TextEncoder().encode(`${INJECTION_LABEL} `).length;

/**
 * Pack `items` (best first) into a block of at most `budget` UTF-8 bytes.
 *
 * Every candidate line (each item's `around` lines, else its chunk or span) gets a priority:
 * item weight ((score ÷ the first item's score)^SCORE_POWER when every item has a score, else
 * 1/rank) × its relevance on one scale for all items — its BM25 line score against
 * `terms` ÷ the best line score of all items, or a decayed share of a matching neighbour's
 * (AFTER^d after it, BEFORE × AFTER^d before it); a line of the evidence span weighs at least
 * SPAN_FLOOR of its item's best line. Lines are taken greedily by priority while they fit. Each goes
 * under its file's entry (`- path`, then `N: text`; lines of one file merge in line order), a line
 * already shown (same text, any file) is skipped, a line longer than `lineBytes` is cut to its
 * best sentences, and the first line that no longer fits whole is cut to its best sentences for
 * the bytes left. Never exceeds `budget`; never splits a character.
 * @returns the block, the number of items shown in part or whole, and its UTF-8 bytes.
 */
export function renderContextBlock(
  items: readonly ContextItem[],
  budget = 800,
  options: PackOptions = {},
): ContextBlock {
  // The preface lines that fit with room for an item: the first goes first when they do not, unless
  // it is the framing line, which stays (outside the share) while any memory line is shown.
  const framing = options.framing && options.preface?.length ? [options.preface[0]!] : [];
  const pre = [...(options.preface ?? [])].slice(framing.length);
  const fixed = bytes(HEADER) + bytes(framing.map((l) => `${l}\n`).join(''));
  const preBytes = () => bytes(pre.map((l) => `${l}\n`).join(''));
  while (pre.length && (fixed + preBytes() + MIN_ITEM_BYTES > budget || preBytes() > budget / PREFACE_SHARE))
    pre.shift();
  const head = HEADER + [...framing, ...pre].map((l) => `${l}\n`).join('');
  // Nothing to show but a withheld note: the header and the note say so.
  const bare = () =>
    options.keepPreface && pre.length && bytes(head) <= budget
      ? { text: head, items: 0, bytes: bytes(head) }
      : { text: '', items: 0, bytes: 0 };
  if (items.length === 0) return bare();
  if (budget < fixed + MIN_ITEM_BYTES) return framing.length ? { ...bare(), note: TOO_SMALL_NOTE } : bare();
  const lineBytes = options.lineBytes ?? Math.max(160, Math.floor((budget * 3) / 8));
  const q = options.terms;
  const groups: Group[] = [];
  const seen = new Set<string>();
  const shown = new Set<number>();
  let text = head;

  const numbered = (start: number, end: number, t: string) =>
    t.split('\n').map((line, i) => ({ n: Math.min(start + i, Math.max(start, end)), text: line }));

  // Candidates: every line of every retrieved chunk (the evidence span's lines when no chunk is given).
  const cands: Cand[] = [];
  let top = 0;
  const perItem = items.map((it) => {
    const span = numbered(it.startLine, it.endLine, it.text);
    const around = it.around
      ? it.around.map((l) => ({ n: l.line, text: l.text }))
      : it.chunk
        ? numbered(it.chunk.startLine, Number.MAX_SAFE_INTEGER, it.chunk.text)
        : span;
    const scores = around.map((l) => (q && l.text.trim() ? lineScore(q, l.text) : 0));
    top = Math.max(top, ...scores);
    return { it, span, around, scores };
  });
  perItem.forEach(({ it, around, scores }, i) => {
    const best = Math.max(0, ...scores);
    // An order split across two lines flags both (core/injection.ts flaggedLines, R152).
    const flagged = flaggedLines(around.map((l) => ({ line: l.n, text: l.text })));
    const near = q
      ? nearness(
          q,
          around.map((l) => l.text),
          { after: AFTER, before: BEFORE },
        )
      : around.map(() => 0);
    around.forEach((l, k) => {
      const raw = showHidden(l.text).trim();
      if (!raw) return;
      const inSpan = l.n >= it.startLine && l.n <= it.endLine;
      // Without query weights (or no match anywhere) rank and the evidence span decide alone.
      const rel = top > 0 ? (near[k]! * best) / top : 0;
      const base = Math.max(rel, inSpan ? SPAN_FLOOR * (top > 0 ? Math.max(MIN_SHARE, best / top) : 1) : 0);
      // An acknowledgement or pleasantry only fills bytes nothing else wants.
      const filler = isFiller(q, raw) ? FILLER_SHARE : 1;
      cands.push({
        item: i,
        n: l.n,
        raw,
        key: normal(raw),
        base: base * filler,
        flagged: flagged.has(l.n),
      });
    });
  });

  const s0 = items[0]!.score ?? 0;
  const byScore = s0 > 0 && items.every((it) => typeof it.score === 'number' && Number.isFinite(it.score));
  const weight = (i: number) =>
    byScore ? Math.pow(Math.max(0, items[i]!.score!) / s0, SCORE_POWER) : 1 / Math.pow(i + 1, RANK_DECAY);
  const render = (extra?: {
    path: string;
    heading: string | undefined;
    labels?: string | undefined;
    n: number;
    text: string;
    label?: string;
    date?: string | undefined;
  }) => {
    if (!extra) return renderGroups(groups, head, options.byDate);
    const g = groups.find((x) => x.path === extra.path);
    if (g) {
      const lines = new Map(g.lines);
      lines.set(extra.n, lines.has(extra.n) ? `${lines.get(extra.n)} ${extra.text}` : extra.text);
      return renderGroups(
        groups.map((x) => (x === g ? { ...g, lines, label: withLabel(g.label, extra.label) } : x)),
        head,
        options.byDate,
      );
    }
    return renderGroups(
      [
        ...groups,
        {
          path: extra.path,
          heading: extra.heading,
          date: extra.date,
          labels: extra.labels,
          lines: new Map([[extra.n, extra.text]]),
          label: extra.label,
        },
      ],
      head,
      options.byDate,
    );
  };
  const commit = (c: Cand, shownText: string) => {
    const it = items[c.item]!;
    let g = groups.find((x) => x.path === it.path);
    if (!g) {
      g = {
        path: it.path,
        heading: options.headings ? shortHeading(it.headingPath) : undefined,
        date: it.date,
        labels: it.labels,
        lines: new Map(),
      };
      groups.push(g);
    }
    g.lines.set(c.n, g.lines.has(c.n) ? `${g.lines.get(c.n)} ${shownText}` : shownText);
    g.label = withLabel(g.label, it.label);
    seen.add(c.key);
    shown.add(c.item);
    text = renderGroups(groups, head, options.byDate);
  };

  // An item that conflicts with newer ones carries the label on its first shown line.
  const labelled = (c: Cand, t: string) => {
    const w = items[c.item]!.conflictsWith;
    return w?.length && !shown.has(c.item) ? `${t} [conflicts with ${w.join(', ')}]` : t;
  };
  const left = new Set(cands.map((_, k) => k));
  const cutCache = new Map<Cand, string>();
  const cut = (c: Cand) => {
    let t = cutCache.get(c);
    if (t === undefined) {
      t = c.flagged ? labelLine(bestSentences(c.raw, lineBytes - LABEL_BYTES, q)) : bestSentences(c.raw, lineBytes, q);
      cutCache.set(c, t);
    }
    return t;
  };
  for (;;) {
    const free = budget - bytes(text);
    if (free < MIN_ITEM_BYTES || left.size === 0) break;
    let pick = -1;
    let pickP = 0;
    for (const k of left) {
      const c = cands[k]!;
      if (seen.has(c.key)) {
        left.delete(k);
        continue;
      }
      const spreadBy = options.spread && groups.some((g) => g.path === items[c.item]!.path) ? SPREAD_SHARE : 1;
      const v = weight(c.item) * c.base * spreadBy;
      if (v <= 0) {
        left.delete(k);
        continue;
      }
      if (v > pickP) {
        pick = k;
        pickP = v;
      }
    }
    if (pick < 0) break;
    const c = cands[pick]!;
    left.delete(pick);
    const it = items[c.item]!;
    const heading =
      options.headings && !groups.some((g) => g.path === it.path) ? shortHeading(it.headingPath) : undefined;
    const whole = labelled(c, cut(c));
    const label = it.label;
    const labels = it.labels;
    const out = render({
      path: it.path,
      heading,
      labels,
      date: it.date,
      n: c.n,
      text: whole,
      ...(label ? { label } : {}),
    });
    if (bytes(out) <= budget) {
      commit(c, whole);
      continue;
    }
    // It does not fit whole: its best sentences cut to what is left, when enough is left.
    const room =
      budget -
      bytes(
        render({
          path: it.path,
          heading,
          labels,
          date: it.date,
          n: c.n,
          text: labelled(c, ''),
          ...(label ? { label } : {}),
        }),
      );
    if (room >= MIN_ITEM_BYTES) {
      const best = c.flagged ? labelLine(bestSentences(c.raw, room - LABEL_BYTES, q)) : bestSentences(c.raw, room, q);
      const part = best ? labelled(c, best) : '';
      if (
        part &&
        bytes(
          render({ path: it.path, heading, labels, date: it.date, n: c.n, text: part, ...(label ? { label } : {}) }),
        ) <= budget
      )
        commit(c, part);
    }
  }
  if (shown.size === 0) return framing.length && cands.length ? { ...bare(), note: TOO_SMALL_NOTE } : bare();
  return { text, items: shown.size, bytes: bytes(text) };
}
