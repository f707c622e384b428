// The conservative check that lets a simple file (daily notes, bullet lists, plain paragraphs) skip
// the full CommonMark parser: when it holds, the line scanner (blocks.ts + extractFromBlocks) finds
// exactly the headings, links, tags and chunks that remark would, so building an mdast is wasted
// work. test/properties/simple-parse.test.ts proves the equality on generated documents and on
// every file of fixtures/corpora. Imports only core.
import type { LineIndex } from '../core/position.js';

/**
 * Characters that may change what remark sees in ways the scanner does not model: fences
 * (```` ``` ````, `~~~`), HTML blocks, comments and autolinks (`<`), carriage returns and control
 * characters (other line ends, U+FFFD replacement). Inline code (a backtick) and brackets are
 * allowed on the terms of {@link isSimpleMarkdown}.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const RE_UNSAFE_ANYWHERE = /[<\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029]|~~~|```|\t/;
/**
 * What makes a `[` a link to remark: an inline link (`](`), a definition (`]:`, which reference
 * links need) or an image (`![`). Without them every bracket is literal text.
 */
const RE_LINK_SYNTAX = /\]\(|\]:|!\[/;
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
 *   hide one (no backtick in a body with `[[`) and no line holding one can be indented code.
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
  const hasHash = body.includes('#');
  const hasUnderline = body.includes('-') || body.includes('=');
  if (!hasHash && !hasUnderline && !hasWiki && !body.includes('>')) return true;
  for (let l = startLine; l < lines.lineCount; l++) {
    const line = lines.lineText(l);
    if (line.length === 0) continue;
    if (hasUnderline && RE_UNDERLINE.test(line)) return false;
    if (RE_QUOTE_START.test(line)) return false;
    if (hasWiki && line.includes('[[') && RE_CODE_INDENT.test(line)) return false;
    if (!hasHash || !line.includes('#')) continue;
    if (hasTick && !RE_STRICT_HEADING.test(line)) return false;
    if (RE_CODE_INDENT.test(line)) return false;
    if (RE_HASH_START.test(line) && !RE_STRICT_HEADING.test(line) && !RE_TAG_START.test(line)) return false;
  }
  return true;
}
