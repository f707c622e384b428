// Bounded memory_get replies: at most MAX_BYTES of UTF-8 and MAX_LINES lines per reply, cut at a
// line end (a single longer line is cut at a character boundary), with `truncated` and the reference
// of the next page: `path:start-end`, or the cursor `path:line.column-end` when the page ended inside
// a line (U61). deps: core (errors).
import { MemoryError } from '../core/errors.js';

/** Most UTF-8 bytes of text in one memory_get reply. */
const MAX_BYTES = 64 * 1024;
/** Most lines in one memory_get reply. */
export const MAX_LINES = 1000;

export interface GetPage {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  /** True when the text stops before the lines asked for (or inside one over-long line). */
  readonly truncated: boolean;
  /** Reference of the next page (`path:start-end`, or `path:line.column-end` inside a line), when truncated. */
  readonly next?: string;
  /** 1-based UTF-16 column of the first line where the text starts, when the page starts inside it. */
  readonly startColumn?: number;
}

/**
 * A memory_get id read as a page cursor: `path:line.column[-end]` is the range `path:line-end`
 * whose first line is taken from `column` (1-based, UTF-16 code units); any other id is itself.
 */
export function pageCursor(id: string): { ref: string; column: number } {
  const m = /^(.+?\.md):(\d+)\.(\d+)(?:-(\d+))?$/i.exec(id.trim());
  if (!m) return { ref: id, column: 1 };
  return { ref: `${m[1]}:${m[2]}-${m[4] ?? m[2]}`, column: Math.max(1, Number(m[3])) };
}

const encoder = new TextEncoder();

/** Longest prefix of `s` whose UTF-8 form fits in `bytes` (never splits a surrogate pair). */
function fitBytes(s: string, bytes: number): string {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (encoder.encode(s.slice(0, mid)).length <= bytes) lo = mid;
    else hi = mid - 1;
  }
  let n = lo;
  const c = s.charCodeAt(n - 1);
  if (n > 0 && c >= 0xd800 && c <= 0xdbff) n--;
  return s.slice(0, n);
}

/** Cut `res` (lines startLine…endLine joined by \n) to one page. */
/**
 * Cut `res` (lines startLine…endLine joined by \n) to one page, its first line taken from `column`.
 * @throws MemoryError `usage` when `column` is past the end of the first line.
 */
export function pageOf<T extends { path: string; startLine: number; endLine: number; text: string }>(
  res: T,
  limits: { maxBytes?: number; maxLines?: number; column?: number } = {},
): T & GetPage {
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  const maxLines = limits.maxLines ?? MAX_LINES;
  const column = limits.column ?? 1;
  const lines = res.text.split('\n');
  if (column > 1) {
    const first = lines[0]!;
    if (column > first.length) {
      throw new MemoryError(
        'usage',
        `column ${column} is past the end of line ${res.startLine} of ${res.path} (${first.length} characters)`,
        { hint: 'page with the "next" reference of the reply before' },
      );
    }
    lines[0] = first.slice(column - 1);
  }
  const from = column > 1 ? { startColumn: column } : {};
  const kept: string[] = [];
  let bytes = 0;
  let cutInside = false;
  for (const line of lines) {
    const size = encoder.encode(line).length + (kept.length ? 1 : 0);
    if (kept.length >= maxLines || bytes + size > maxBytes) {
      if (kept.length === 0) {
        kept.push(fitBytes(line, maxBytes));
        cutInside = true;
      }
      break;
    }
    kept.push(line);
    bytes += size;
  }
  const truncated = cutInside || kept.length < lines.length;
  if (!truncated) return { ...res, ...from, text: lines.join('\n'), truncated: false };
  const last = res.startLine + kept.length - 1;
  // Paging goes on from the next line, or inside the one line cut at the byte cap: from the column
  // after the last character sent (counted from the start of the line, as the cursor is).
  const next = cutInside
    ? `${res.path}:${last}.${column + kept[0]!.length}-${res.endLine}`
    : `${res.path}:${last + 1}-${res.endLine}`;
  return { ...res, ...from, text: kept.join('\n'), endLine: last, truncated: true, next };
}
