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

/**
 * Scan `lines` into top-level blocks. Linear in the number of lines (each line is looked at a
 * bounded number of times); never throws.
 */
export function scanBlocks(lines: LineIndex, options: ScanOptions = {}): Block[] {
  const n = lines.lineCount;
  const out: Block[] = [];
  const known = options.headings ? new Map(options.headings.map((h) => [h.startLine, h])) : undefined;
  const own = known === undefined;
  const text = (l: number): string => lines.lineText(l);
  const isHeadingStart = (l: number): boolean => (known ? known.has(l) : RE_ATX.test(text(l)));
  const fenceOf = (line: string): { char: string; len: number } | undefined => {
    const m = RE_FENCE.exec(line);
    if (!m) return undefined;
    const char = m[1]!.charAt(0);
    if (char === '`' && m[2]!.includes('`')) return undefined;
    return { char, len: m[1]!.length };
  };
  /** Lines that end a paragraph (or stop a lazy continuation). */
  const startsBlock = (l: number, line: string): boolean => {
    if (isHeadingStart(l)) return true;
    if (fenceOf(line) || RE_THEMATIC.test(line) || RE_QUOTE.test(line) || RE_COMMENT.test(line)) return true;
    const m = RE_LIST.exec(line);
    if (m) {
      const marker = m[2]!;
      const empty = m[0].length === line.length;
      if (!empty && (!/\d/.test(marker) || /^1[.)]$/.test(marker))) return true;
    }
    return false;
  };
  let listId = 0;
  let i = Math.max(0, options.startLine ?? 0);
  while (i < n) {
    const kh = known?.get(i);
    if (kh) {
      out.push({
        type: 'heading',
        startLine: kh.startLine,
        endLine: Math.max(kh.startLine, kh.endLine),
        depth: kh.depth,
        text: kh.text,
      });
      i = Math.max(kh.startLine, kh.endLine) + 1;
      continue;
    }
    const line = text(i);
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = fenceOf(line);
    if (fence) {
      let j = i + 1;
      let end = n - 1;
      for (; j < n; j++) {
        if (known?.has(j)) {
          end = j - 1;
          break;
        }
        const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(text(j));
        if (m && m[1]!.charAt(0) === fence.char && m[1]!.length >= fence.len) {
          end = j;
          break;
        }
      }
      out.push({ type: 'code', startLine: i, endLine: end });
      i = end + 1;
      continue;
    }
    if (own) {
      const atx = RE_ATX.exec(line);
      if (atx) {
        out.push({
          type: 'heading',
          startLine: i,
          endLine: i,
          depth: atx[1]!.length,
          text: plainHeadingText(atx[2] ?? ''),
        });
        i++;
        continue;
      }
    }
    if (RE_THEMATIC.test(line)) {
      out.push({ type: 'thematic-break', startLine: i, endLine: i });
      i++;
      continue;
    }
    if (RE_COMMENT.test(line)) {
      let j = i;
      while (j < n && !text(j).includes('-->') && !(j > i && known?.has(j))) j++;
      const end = Math.min(j, n - 1);
      const last = text(end);
      // An unclosed comment runs to the end (as in CommonMark) but is kept as content, never dropped.
      const closed = last.includes('-->');
      const after = closed ? last.slice(last.lastIndexOf('-->') + 3) : 'x';
      out.push({ type: isBlank(after) ? 'comment' : 'html', startLine: i, endLine: end });
      i = end + 1;
      continue;
    }
    if (RE_QUOTE.test(line)) {
      let j = i + 1;
      while (j < n) {
        const l = text(j);
        if (isBlank(l) || isHeadingStart(j)) break;
        if (!RE_QUOTE.test(l) && startsBlock(j, l)) break;
        j++;
      }
      out.push({ type: 'blockquote', startLine: i, endLine: j - 1 });
      i = j;
      continue;
    }
    const lm = RE_LIST.exec(line);
    if (lm) {
      const id = ++listId;
      const key = markerKey(lm[2]!);
      let itemStart = i;
      let m: RegExpExecArray | null = lm;
      while (m) {
        const spaces = m[3]!.length;
        const contentIndent = m[1]!.length + m[2]!.length + (spaces === 0 || spaces > 4 ? 1 : spaces);
        let last = itemStart;
        let j = itemStart + 1;
        let inFence: { char: string; len: number } | undefined;
        while (j < n) {
          if (known?.has(j)) break;
          const l = text(j);
          if (isBlank(l)) {
            j++;
            continue;
          }
          const ind = indentOf(l);
          if (inFence) {
            const c = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(l);
            if (c && c[1]!.charAt(0) === inFence.char && c[1]!.length >= inFence.len) inFence = undefined;
            last = j;
            j++;
            continue;
          }
          if (ind >= contentIndent) {
            const f = fenceOf(l.slice(Math.min(l.length, contentIndent)));
            if (f) inFence = f;
            last = j;
            j++;
            continue;
          }
          // Lazy continuation: a plain line right after the item's last line (no blank between); any
          // list marker starts a new item here, even `2.` (which could not interrupt a paragraph).
          if (last === j - 1 && !startsBlock(j, l) && !RE_SETEXT.test(l) && !RE_LIST.test(l)) {
            last = j;
            j++;
            continue;
          }
          break;
        }
        out.push({ type: 'list-item', startLine: itemStart, endLine: last, list: id });
        let k = last + 1;
        while (k < n && isBlank(text(k)) && !known?.has(k)) k++;
        m = null;
        if (k < n && !known?.has(k)) {
          const next = RE_LIST.exec(text(k));
          if (next && markerKey(next[2]!) === key && !RE_THEMATIC.test(text(k))) {
            m = next;
            itemStart = k;
          }
        }
        i = m ? k : last + 1;
      }
      continue;
    }
    // Paragraph (or, with own detection, a setext heading).
    let j = i + 1;
    let heading: Block | undefined;
    while (j < n) {
      const l = text(j);
      if (isBlank(l)) break;
      if (own) {
        const st = RE_SETEXT.exec(l);
        if (st) {
          const raw: string[] = [];
          for (let k = i; k < j; k++) raw.push(text(k).trim());
          heading = {
            type: 'heading',
            startLine: i,
            endLine: j,
            depth: st[1]!.startsWith('=') ? 1 : 2,
            text: plainInline(raw.join(' ')),
          };
          break;
        }
      }
      if (startsBlock(j, l)) break;
      j++;
    }
    if (heading) {
      out.push(heading);
      i = heading.endLine + 1;
    } else {
      out.push({ type: 'paragraph', startLine: i, endLine: j - 1 });
      i = j;
    }
  }
  return out;
}
