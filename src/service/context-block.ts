// Render recall results as the `### Recalled Context` block an agent's prompt receives (DESIGN §3):
// most relevant first, each item with its path and lines, under a UTF-8 byte budget, never
// splitting a character. deps: none beyond core types.

/** One item to render: where it is and the text of its lines. */
export interface ContextItem {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly headingPath?: readonly string[];
  readonly text: string;
}

const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;

/** `s` cut to at most `max` UTF-8 bytes, on a code point boundary. */
export function clipUtf8(s: string, max: number): string {
  if (max <= 0) return '';
  if (bytes(s) <= max) return s;
  let used = 0;
  let out = '';
  for (const ch of s) {
    const n = bytes(ch);
    if (used + n > max) break;
    out += ch;
    used += n;
  }
  return out;
}

/**
 * @returns the block (empty string when there is nothing or the budget cannot hold the header) and
 * how many items are in it whole or in part. The block never exceeds `budget` UTF-8 bytes.
 */
export function renderContextBlock(items: readonly ContextItem[], budget = 800): { text: string; items: number; bytes: number } {
  const header = '### Recalled Context\n';
  if (items.length === 0 || budget < bytes(header) + 8) return { text: '', items: 0, bytes: 0 };
  let text = header;
  let used = bytes(header);
  let count = 0;
  for (const it of items) {
    const loc = it.startLine === it.endLine ? `${it.path}:${it.startLine}` : `${it.path}:${it.startLine}-${it.endLine}`;
    const head = it.headingPath && it.headingPath.length ? ` (${it.headingPath[it.headingPath.length - 1]})` : '';
    const body = it.text
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n');
    const entry = `- ${loc}${head}\n${body}\n`;
    const n = bytes(entry);
    if (used + n <= budget) {
      text += entry;
      used += n;
      count++;
      continue;
    }
    // The first item that does not fit whole is cut at the budget (a partial answer beats none).
    const rest = clipUtf8(entry, budget - used);
    if (rest.includes('\n')) {
      text += rest;
      used += bytes(rest);
      count++;
    }
    break;
  }
  return { text, items: count, bytes: used };
}
