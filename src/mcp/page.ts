// Bounded memory_get replies: at most MAX_BYTES of UTF-8 and MAX_LINES lines per reply, cut at a
// line end (a single longer line is cut at a character boundary), with `truncated` and the
// `path:start-end` reference of the next page. deps: none (plain data in, plain data out).

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
  /** Reference of the next page (`path:start-end`), when truncated. */
  readonly next?: string;
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
export function pageOf<T extends { path: string; startLine: number; endLine: number; text: string }>(
  res: T,
  limits: { maxBytes?: number; maxLines?: number } = {},
): T & GetPage {
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  const maxLines = limits.maxLines ?? MAX_LINES;
  const lines = res.text.split('\n');
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
  if (!truncated) return { ...res, truncated: false };
  const last = res.startLine + kept.length - 1;
  // Paging goes on from the next line; the rest of a line cut inside is not repeated (that line
  // alone is over the byte cap — `gitmem get` in the CLI prints it whole).
  const nextStart = last + 1;
  return {
    ...res,
    text: kept.join('\n'),
    endLine: last,
    truncated: true,
    ...(nextStart <= res.endLine ? { next: `${res.path}:${nextStart}-${res.endLine}` } : {}),
  };
}
