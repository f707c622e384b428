// Line-based block scanner: a linear-time approximation of CommonMark block structure (headings,
// fenced code, lists and their items, block quotes, HTML comments, paragraphs) for chunking and
// for texts too large or too hostile for the full parser. Imports only core; no remark here.
import type { LineIndex } from '../core/position.js';

/** Kind of a top-level block. */
export type BlockType =
  'heading' | 'paragraph' | 'list-item' | 'code' | 'blockquote' | 'html' | 'comment' | 'thematic-break';

/** One top-level block; lines are 0-based and inclusive. */
export interface Block {
  readonly type: BlockType;
  readonly startLine: number;
  readonly endLine: number;
  /** Heading depth 1–6 (headings only). */
  readonly depth?: number;
  /** Plain heading text (headings only). */
  readonly text?: string;
  /** List-items only: items with the same number belong to the same list. */
  readonly list?: number;
}

/** A heading already found by the full parser, forced onto the scan (0-based inclusive lines). */
export interface KnownHeading {
  readonly startLine: number;
  readonly endLine: number;
  readonly depth: number;
  readonly text: string;
}

export interface ScanOptions {
  /** First line to scan (the line after the front-matter block); default 0. */
  readonly startLine?: number;
  /**
   * Headings from the full parser. When given, they are the only headings (the scanner's own
   * heading detection is off), so chunk heading paths match the extracted headings exactly.
   */
  readonly headings?: readonly KnownHeading[];
}

const RE_FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const RE_ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const RE_THEMATIC = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const RE_SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RE_LIST = /^( {0,3})([-+*]|\d{1,9}[.)])([ \t]+|$)/;
const RE_QUOTE = /^ {0,3}>/;
const RE_COMMENT = /^ {0,3}<!--/;

function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}

function indentOf(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) n++;
    else if (c === 9) n += 4 - (n % 4);
    else break;
  }
  return n;
}

/** Marker family: items of one list share it (`-`, `+`, `*`, `.` or `)`). */
function markerKey(marker: string): string {
  return /\d/.test(marker) ? marker.slice(-1) : marker;
}

/** @returns the heading text of an ATX line's content, closing `#`s and simple inline markup removed. */
export function plainHeadingText(raw: string): string {
  const s = raw.replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim();
  return plainInline(s);
}

/** Strip the commonest inline markup (links, emphasis, code ticks) from one line of markdown. */
export function plainInline(s: string): string {
  return s
    .replace(/!?\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^*_]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`+([^`]*)`+/g, '$1')
    .trim();
}

/** The one state of a {@link scanBlocks} run, read and extended by each block handler below. */
interface BlockScan {
  readonly lines: LineIndex;
  /** Number of lines. */
  readonly n: number;
  readonly out: Block[];
  /** Headings from the full parser by start line; undefined when the scanner detects its own. */
  readonly known: ReadonlyMap<number, KnownHeading> | undefined;
  /** Number of the last list opened (list-items of one list share it). */
  listId: number;
}

/** An opening code fence: its character and run length. */
interface Fence {
  readonly char: string;
  readonly len: number;
}

function fenceOf(line: string): Fence | undefined {
  const m = RE_FENCE.exec(line);
  if (!m) return undefined;
  const char = m[1]!.charAt(0);
  if (char === '`' && m[2]!.includes('`')) return undefined;
  return { char, len: m[1]!.length };
}

function isHeadingStart(s: BlockScan, l: number): boolean {
  return s.known ? s.known.has(l) : RE_ATX.test(s.lines.lineText(l));
}

/** Lines that end a paragraph (or stop a lazy continuation). */
function startsBlock(s: BlockScan, l: number, line: string): boolean {
  if (isHeadingStart(s, l)) return true;
  if (fenceOf(line) || RE_THEMATIC.test(line) || RE_QUOTE.test(line) || RE_COMMENT.test(line)) return true;
  const m = RE_LIST.exec(line);
  if (m) {
    const marker = m[2]!;
    const empty = m[0].length === line.length;
    if (!empty && (!/\d/.test(marker) || /^1[.)]$/.test(marker))) return true;
  }
  return false;
}

/**
 * Scan `lines` into top-level blocks. Linear in the number of lines (each line is looked at a
 * bounded number of times); never throws.
 */
export function scanBlocks(lines: LineIndex, options: ScanOptions = {}): Block[] {
  const s: BlockScan = {
    lines,
    n: lines.lineCount,
    out: [],
    known: options.headings ? new Map(options.headings.map((h) => [h.startLine, h])) : undefined,
    listId: 0,
  };
  let i = Math.max(0, options.startLine ?? 0);
  while (i < s.n) {
    const kh = s.known?.get(i);
    if (kh) {
      const end = Math.max(kh.startLine, kh.endLine);
      s.out.push({ type: 'heading', startLine: kh.startLine, endLine: end, depth: kh.depth, text: kh.text });
      i = end + 1;
      continue;
    }
    const line = lines.lineText(i);
    i = isBlank(line) ? i + 1 : blockAt(s, i, line);
  }
  return s.out;
}

/** Scan the block that starts at line `i` (`line`, not blank); @returns the line after it. */
function blockAt(s: BlockScan, i: number, line: string): number {
  const fence = fenceOf(line);
  if (fence) return fencedCode(s, i, fence);
  if (s.known === undefined) {
    const atx = RE_ATX.exec(line);
    if (atx) {
      s.out.push({
        type: 'heading',
        startLine: i,
        endLine: i,
        depth: atx[1]!.length,
        text: plainHeadingText(atx[2] ?? ''),
      });
      return i + 1;
    }
  }
  if (RE_THEMATIC.test(line)) {
    s.out.push({ type: 'thematic-break', startLine: i, endLine: i });
    return i + 1;
  }
  if (RE_COMMENT.test(line)) return comment(s, i);
  if (RE_QUOTE.test(line)) return blockquote(s, i);
  const lm = RE_LIST.exec(line);
  if (lm) return list(s, i, lm);
  return paragraph(s, i);
}

/** Fenced code from line `i` to its closing fence (or the next known heading, or the end). */
function fencedCode(s: BlockScan, i: number, fence: Fence): number {
  const { n, known } = s;
  let end = n - 1;
  for (let j = i + 1; j < n; j++) {
    if (known?.has(j)) {
      end = j - 1;
      break;
    }
    const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(s.lines.lineText(j));
    if (m && m[1]!.charAt(0) === fence.char && m[1]!.length >= fence.len) {
      end = j;
      break;
    }
  }
  s.out.push({ type: 'code', startLine: i, endLine: end });
  return end + 1;
}

/** An HTML comment from line `i` to the line that closes it (`comment`, or `html` when text follows). */
function comment(s: BlockScan, i: number): number {
  const { n, known } = s;
  const text = (l: number): string => s.lines.lineText(l);
  let j = i;
  while (j < n && !text(j).includes('-->') && !(j > i && known?.has(j))) j++;
  const end = Math.min(j, n - 1);
  const last = text(end);
  // An unclosed comment runs to the end (as in CommonMark) but is kept as content, never dropped.
  const closed = last.includes('-->');
  const after = closed ? last.slice(last.lastIndexOf('-->') + 3) : 'x';
  s.out.push({ type: isBlank(after) ? 'comment' : 'html', startLine: i, endLine: end });
  return end + 1;
}

/** A block quote from line `i`: `>` lines and their lazy continuations. */
function blockquote(s: BlockScan, i: number): number {
  let j = i + 1;
  while (j < s.n) {
    const l = s.lines.lineText(j);
    if (isBlank(l) || isHeadingStart(s, j)) break;
    if (!RE_QUOTE.test(l) && startsBlock(s, j, l)) break;
    j++;
  }
  s.out.push({ type: 'blockquote', startLine: i, endLine: j - 1 });
  return j;
}

/** A list from line `i` (`lm`: its first marker): one `list-item` block per item. */
function list(s: BlockScan, i: number, lm: RegExpExecArray): number {
  const { n, known } = s;
  const id = ++s.listId;
  const key = markerKey(lm[2]!);
  let itemStart = i;
  let m: RegExpExecArray | null = lm;
  let next = i;
  while (m) {
    const last = itemEnd(s, itemStart, m);
    s.out.push({ type: 'list-item', startLine: itemStart, endLine: last, list: id });
    let k = last + 1;
    while (k < n && isBlank(s.lines.lineText(k)) && !known?.has(k)) k++;
    m = null;
    if (k < n && !known?.has(k)) {
      const line = s.lines.lineText(k);
      const more = RE_LIST.exec(line);
      if (more && markerKey(more[2]!) === key && !RE_THEMATIC.test(line)) {
        m = more;
        itemStart = k;
      }
    }
    next = m ? k : last + 1;
  }
  return next;
}

/** The last line of the list item at `itemStart` (`m`: its marker match). */
function itemEnd(s: BlockScan, itemStart: number, m: RegExpExecArray): number {
  const { n, known } = s;
  const spaces = m[3]!.length;
  const contentIndent = m[1]!.length + m[2]!.length + (spaces === 0 || spaces > 4 ? 1 : spaces);
  let last = itemStart;
  let inFence: Fence | undefined;
  for (let j = itemStart + 1; j < n; j++) {
    if (known?.has(j)) break;
    const l = s.lines.lineText(j);
    if (isBlank(l)) continue;
    if (inFence) {
      const c = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(l);
      if (c && c[1]!.charAt(0) === inFence.char && c[1]!.length >= inFence.len) inFence = undefined;
      last = j;
      continue;
    }
    if (indentOf(l) >= contentIndent) {
      const f = fenceOf(l.slice(Math.min(l.length, contentIndent)));
      if (f) inFence = f;
      last = j;
      continue;
    }
    // Lazy continuation: a plain line right after the item's last line (no blank between); any
    // list marker starts a new item here, even `2.` (which could not interrupt a paragraph).
    if (last === j - 1 && !startsBlock(s, j, l) && !RE_SETEXT.test(l) && !RE_LIST.test(l)) {
      last = j;
      continue;
    }
    break;
  }
  return last;
}

/** A paragraph from line `i` or, with the scanner's own heading detection, a setext heading. */
function paragraph(s: BlockScan, i: number): number {
  const own = s.known === undefined;
  let j = i + 1;
  while (j < s.n) {
    const l = s.lines.lineText(j);
    if (isBlank(l)) break;
    const st = own ? RE_SETEXT.exec(l) : null;
    if (st) return setextHeading(s, i, j, st);
    if (startsBlock(s, j, l)) break;
    j++;
  }
  s.out.push({ type: 'paragraph', startLine: i, endLine: j - 1 });
  return j;
}

/** The setext heading of lines `i`…`j - 1` underlined at line `j` (`st`: the underline match). */
function setextHeading(s: BlockScan, i: number, j: number, st: RegExpExecArray): number {
  const raw: string[] = [];
  for (let k = i; k < j; k++) raw.push(s.lines.lineText(k).trim());
  const depth = st[1]!.startsWith('=') ? 1 : 2;
  s.out.push({ type: 'heading', startLine: i, endLine: j, depth, text: plainInline(raw.join(' ')) });
  return j + 1;
}
