// The conservative check that lets a simple file (daily notes, bullet lists, plain paragraphs) skip
// the full CommonMark parser: when it holds, the line scanner (blocks.ts + extractFromBlocks) finds
// exactly the headings, links, tags and chunks that remark would, so building an mdast is wasted
// work. test/properties/simple-parse.test.ts proves the equality on generated documents and on
// every file of fixtures/corpora. Imports only core.
import type { LineIndex } from '../core/position.js';

/**
 * Characters that may change what remark sees in ways the scanner does not model: fences
 * (```` ``` ````, `~~~`), carriage returns and control characters (other line ends, U+FFFD
 * replacement). Inline code (a backtick), brackets and `<` are allowed on the terms of
 * {@link isSimpleMarkdown}.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const RE_UNSAFE_ANYWHERE = /[\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029]|~~~|```|\t/;
/**
 * What makes a `[` a link to remark: an inline link (`](`), a definition (`]:`, which reference
 * links need) or an image (`![`). Without them every bracket is literal text.
 */
const RE_LINK_SYNTAX = /\]\(|\]:|!\[/;
/**
 * HTML that does not end at a blank line (comments, processing instructions, declarations, CDATA,
 * and the raw-text elements of CommonMark's HTML block types 1–5).
 */
const RE_HTML_RAW = /<(?:[!?]|\/?(?:script|pre|style|textarea)(?![a-z0-9-]))/i;
/** A line whose content (after list markers) begins with `<`: it may open an HTML block. */
const RE_ANGLE_START = /^ *(?:(?:[-+*]|\d{1,9}[.)]) +)*</;
/** A line whose content (after list markers) begins with `#`: a heading, or a tag-like word. */
const RE_HASH_START = /^ *(?:(?:[-+*]|\d{1,9}[.)]) +)*#/;
/** The one heading form allowed: ATX at column 0, one space, words split by single spaces, no markup. */
const RE_STRICT_HEADING = /^#{1,6} [^\s#*_\\&!|~=[\]<>`]+(?: [^\s#*_\\&!|~=[\]<>`]+)*$/u;
/** `#` followed by a letter-ish char (not a space, not another `#`): a tag, never an ATX heading. */
const RE_TAG_START = /^ *(?:(?:[-+*]|\d{1,9}[.)]) +)*#[^\s#]/;
/** Lines that could underline a setext heading (at any indentation, in any container). */
const RE_UNDERLINE = /^ *(?:> *)*(?:(?:[-+*]|\d{1,9}[.)]) +)*(?:=+|-+) *$/;
/** A block quote marker at the start of the content (tags right after `>` differ between the parsers). */
const RE_QUOTE_START = /^ *(?:(?:[-+*]|\d{1,9}[.)]) +)*>/;
/** A blank line: spaces only (a tab or a carriage return already made the text not simple). */
const RE_BLANK = /^ *$/;
/** Could be indented code (4+ spaces, or 5+ after a list marker): its `#` words are not tags to remark. */
const RE_CODE_INDENT = /^ {4}|^ *(?:[-+*]|\d{1,9}[.)]) {5}/;

/**
 * @returns true when the body of `text` (lines from `startLine`, 0-based) is simple enough that
 *   the line scanner's result equals remark's. False never means the text is wrong, only that
 *   the full parser must decide. Linear in the text length. Inline code spans (backticks, no
 *   fence) change only which `#` words are tags (none inside code), so a body with a backtick must
 *   keep every `#` in a strict ATX heading line: a heading is a block of its own, which no code
 *   span crosses, and its text has no backtick. Brackets without link syntax are text to remark,
 *   where both sides find the same `[[wiki-links]]` in the raw lines, provided no code span can
 *   hide one (no backtick in a body with `[[`) and no line holding one can be indented code. `<`
 *   (inline HTML, an HTML block, an autolink) can hide a `#` or a `[[`, and an HTML block ends only
 *   at a blank line: with a `<`, there is no `[[`, no HTML that outlives a blank line (comment,
 *   `<script>`, `<pre>`…), every `#` is in a strict heading, and no heading shares a run of
 *   non-blank lines with a line that begins with `<`.
 */
export function isSimpleMarkdown(text: string, lines: LineIndex, startLine = 0): boolean {
  const bodyStart = startLine < lines.lineCount ? lines.offsetAt({ line: startLine, character: 0 }) : text.length;
  const body = bodyStart === 0 ? text : text.slice(bodyStart);
  if (RE_UNSAFE_ANYWHERE.test(body)) return false;
  const hasTick = body.includes('`');
  const hasBracket = body.includes('[');
  const hasWiki = hasBracket && body.includes('[[');
  if (hasBracket && RE_LINK_SYNTAX.test(body)) return false;
  if (hasWiki && hasTick) return false;
  const hasAngle = body.includes('<');
  if (hasAngle && (hasWiki || RE_HTML_RAW.test(body))) return false;
  const hasHash = body.includes('#');
  const hasUnderline = body.includes('-') || body.includes('=');
  if (!hasHash && !hasUnderline && !hasWiki && !body.includes('>')) return true;
  /** Inside a run of non-blank lines one of which began with `<` (an HTML block ends at a blank line). */
  let htmlRun = false;
  for (let l = startLine; l < lines.lineCount; l++) {
    const line = lines.lineText(l);
    if (RE_BLANK.test(line)) {
      htmlRun = false;
      continue;
    }
    if (hasAngle && !htmlRun && RE_ANGLE_START.test(line)) htmlRun = true;
    if (hasUnderline && RE_UNDERLINE.test(line)) return false;
    if (RE_QUOTE_START.test(line)) return false;
    if (hasWiki && line.includes('[[') && RE_CODE_INDENT.test(line)) return false;
    if (!hasHash || !line.includes('#')) continue;
    if ((hasTick || hasAngle) && !RE_STRICT_HEADING.test(line)) return false;
    if (htmlRun) return false;
    if (RE_CODE_INDENT.test(line)) return false;
    if (RE_HASH_START.test(line) && !RE_STRICT_HEADING.test(line) && !RE_TAG_START.test(line)) return false;
  }
  return true;
}
