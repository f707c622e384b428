// The frozen unified processor (remark-parse + remark-frontmatter for YAML) and the guard that
// decides when a text is safe to hand to it. Only this file and extract.ts import unified/remark.
import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** The one processor; frozen so no caller can add plugins to the shared instance. */
const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).freeze();

/**
 * Limits past which the full CommonMark parser is not used (the line-based scanner in
 * parse/blocks.ts takes over). micromark is superlinear on some inputs: measured on a 2-core
 * machine, 64 K of `>` takes ~43 s, a 200 KB line of `[[x]]` ~6 s, ordinary prose ~250 KB/s.
 */
export const MARKDOWN_LIMITS = {
  /** Whole text, in UTF-16 code units. */
  maxChars: 64 * 1024,
  /** Longest run of consecutive non-blank lines (one paragraph-like block). */
  maxRunChars: 8 * 1024,
  /** Most `>` / list-marker nesting at the start of one line. */
  maxNesting: 12,
  /**
   * Most inline openers (`[`, backtick, `<`, `*`, `_`, `!`) in one block. micromark's inline pass is
   * quadratic on long runs of unmatched openers (measured: an 8 KB run of `[a](` parses ~300× slower
   * than prose of the same size); ordinary prose and link-heavy notes stay far below this.
   */
  maxRunOpeners: 512,
} as const;

/** Parse markdown into an mdast tree (positions are 1-based lines/columns plus 0-based offsets). */
export function parseMarkdown(text: string): Root {
  return processor.parse(text);
}

/**
 * @returns true when `text` is small and tame enough for {@link parseMarkdown} to finish quickly;
 *   false means: use the line-based scanner instead.
 */
export function isSafeForMarkdownParser(text: string): boolean {
  if (text.length > MARKDOWN_LIMITS.maxChars) return false;
  let run = 0;
  let openers = 0;
  let lineStart = 0;
  const n = text.length;
  while (lineStart <= n) {
    let end = lineStart;
    while (end < n) {
      const c = text.charCodeAt(end);
      if (c === 10 || c === 13) break;
      end++;
    }
    // Leading container markers: `>` and list bullets followed by a blank.
    let nesting = 0;
    let i = lineStart;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9) continue;
      if (c === 62 /* > */) nesting++;
      else if (
        (c === 45 || c === 42 || c === 43) /* - * + */ &&
        (text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 9)
      )
        nesting++;
      else break;
    }
    if (nesting > MARKDOWN_LIMITS.maxNesting) return false;
    let blank = nesting === 0;
    for (let j = i; blank && j < end; j++) {
      const c = text.charCodeAt(j);
      if (c !== 32 && c !== 9) blank = false;
    }
    run = blank ? 0 : run + (end - lineStart) + 1;
    if (run > MARKDOWN_LIMITS.maxRunChars) return false;
    if (blank) openers = 0;
    else {
      for (let j = i; j < end; j++) {
        const c = text.charCodeAt(j);
        // [ ` < * _ !
        if (c === 91 || c === 96 || c === 60 || c === 42 || c === 95 || c === 33) openers++;
      }
      if (openers > MARKDOWN_LIMITS.maxRunOpeners) return false;
    }
    if (end >= n) break;
    lineStart = text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
  }
  return true;
}
