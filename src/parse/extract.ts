// Headings, links (relative markdown links, definitions, `[[wiki-links]]`) and inline `#tags`
// with exact ranges, from an mdast tree or, for texts the full parser must not see, from the block
// scan. unist positions are 1-based; core ranges are 0-based UTF-16 (built from offsets + LineIndex).
// Only this file and markdown.ts may import unified/remark types; imports core and parse/blocks.ts.
import type { Nodes, Root } from 'mdast';
import type { Heading, Link } from '../core/document.js';
import { isExternalTarget } from '../core/links.js';
import type { LineIndex } from '../core/position.js';
import type { Block, KnownHeading } from './blocks.js';

/** What {@link extractFromMdast} and {@link extractFromBlocks} find. */
export interface Extracted {
  readonly headings: readonly Heading[];
  /** In document order. */
  readonly links: readonly Link[];
  /** Inline `#tags`, lowercased, de-duplicated, in order of first appearance. */
  readonly tags: readonly string[];
}

const RE_WIKI = /\[\[([^[\]\r\n]{1,500})\]\]/g;
const RE_TAG = /(^|[\s])#([\p{L}_][\p{L}\p{N}_\-/]{0,100})/gu;
const RE_MD_LINK =
  /(!?)\[([^[\]\r\n]{0,500})\]\([ \t]*(<[^<>\r\n]{0,1000}>|[^\s()<>]{0,1000})(?:[ \t]+(?:"[^"\r\n]{0,500}"|'[^'\r\n]{0,500}'))?[ \t]*\)/g;
const RE_DEFINITION = /^( {0,3})\[([^[\]\r\n]{1,500})\]:[ \t]*(<[^<>\r\n]{0,1000}>|\S{1,1000})/;

/** @returns the wiki target of the inside of `[[…]]`: before `|` and `#`, trimmed; '' for `[[#heading]]`. */
export function wikiTarget(inner: string): string {
  const beforePipe = inner.split('|')[0] ?? '';
  return (beforePipe.split('#')[0] ?? '').replace(/\\$/, '').trim();
}

/** @returns a {@link KnownHeading} list for {@link scanBlocks}, from extracted headings. */
export function toKnownHeadings(headings: readonly Heading[]): KnownHeading[] {
  return headings.map((h) => ({
    startLine: h.range.start.line,
    endLine: h.range.end.line,
    depth: h.depth,
    text: h.text,
  }));
}

/** Receiver of inline findings; offsets are in the text passed to {@link scanInline}. */
interface InlineSink {
  link(kind: Link['kind'], target: string, start: number, end: number): void;
  tag(t: string): void;
}

class Sink implements InlineSink {
  readonly links: { link: Link; at: number }[] = [];
  readonly tags: string[] = [];
  readonly #seenTags = new Set<string>();
  constructor(readonly lines: LineIndex) {}

  link(kind: Link['kind'], target: string, start: number, end: number): void {
    this.links.push({ link: { kind, target, range: this.lines.rangeOf(start, end) }, at: start });
  }

  tag(t: string): void {
    const tag = t.replace(/[-/]+$/, '').toLowerCase();
    if (!tag || this.#seenTags.has(tag)) return;
    this.#seenTags.add(tag);
    this.tags.push(tag);
  }

  sortedLinks(): Link[] {
    return this.links.sort((a, b) => a.at - b.at).map((x) => x.link);
  }
}

/**
 * Find wiki-links and `#tags` in `text[from, to)`, ignoring matches that overlap an excluded span
 * (inline code, HTML). `excluded` must be sorted by start.
 */
function scanInline(
  text: string,
  from: number,
  to: number,
  excluded: readonly (readonly [number, number])[],
  sink: InlineSink,
): void {
  if (to <= from) return;
  const slice = text.slice(from, to);
  const overlaps = (a: number, b: number): boolean => {
    for (const [s, e] of excluded) {
      if (s >= b) break;
      if (e > a) return true;
    }
    return false;
  };
  if (slice.includes('[[')) {
    RE_WIKI.lastIndex = 0;
    for (let m = RE_WIKI.exec(slice); m; m = RE_WIKI.exec(slice)) {
      const a = from + m.index;
      const b = a + m[0].length;
      if (text.charCodeAt(a - 1) === 92 /* \ */ || overlaps(a, b)) continue;
      const target = wikiTarget(m[1]!);
      if (target) sink.link('wiki', target, a, b);
    }
  }
  if (slice.includes('#')) {
    RE_TAG.lastIndex = 0;
    for (let m = RE_TAG.exec(slice); m; m = RE_TAG.exec(slice)) {
      const a = from + m.index + m[1]!.length;
      if (!overlaps(a, a + 1 + m[2]!.length)) sink.tag(m[2]!);
    }
  }
}

/** Plain text of an mdast node (text, inline code and image alt), like mdast-util-to-string. */
function toPlainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && (node.type === 'text' || node.type === 'inlineCode'))
    return node.value;
  if (node.type === 'image') return node.alt ?? '';
  if ('children' in node) return (node.children as Nodes[]).map(toPlainText).join('');
  return '';
}

/**
 * Walk an mdast tree of `text` (the BOM-less file text, or a same-length copy with a non-YAML
 * front-matter block blanked). Nodes that start before `bodyStartLine` (0-based) are ignored.
 */
export function extractFromMdast(root: Root, text: string, lines: LineIndex, bodyStartLine = 0): Extracted {
  const sink = new Sink(lines);
  const headings: Heading[] = [];
  const stack: Nodes[] = [...(root.children as Nodes[])].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    const pos = node.position;
    if (!pos || pos.start.offset === undefined || pos.end.offset === undefined) continue;
    if (pos.start.line - 1 < bodyStartLine) continue;
    const start = pos.start.offset;
    const end = pos.end.offset;
    switch (node.type) {
      case 'yaml':
      case 'code':
      case 'inlineCode':
      case 'html':
        continue;
      case 'heading': {
        const sl = pos.start.line - 1;
        const el = pos.end.line - 1;
        headings.push({
          depth: node.depth,
          text: toPlainText(node).replace(/\s+/g, ' ').trim(),
          range: { start: { line: sl, character: 0 }, end: lines.positionAt(lines.lineEnd(el)) },
        });
        scanPhrasing(node, text, start, end, sink);
        break;
      }
      case 'paragraph':
        scanPhrasing(node, text, start, end, sink);
        break;
      case 'link':
      case 'definition':
        if (node.url && !isExternalTarget(node.url)) sink.link('markdown', node.url, start, end);
        break;
      default:
        break;
    }
    if ('children' in node) {
      const kids = node.children as Nodes[];
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
    }
  }
  return { headings, links: sink.sortedLinks(), tags: sink.tags };
}

/** Scan one phrasing container's raw source, excluding inline code and inline HTML. */
function scanPhrasing(node: Nodes, text: string, start: number, end: number, sink: Sink): void {
  const excluded: [number, number][] = [];
  const walk = (n: Nodes): void => {
    if (n.type === 'inlineCode' || n.type === 'html') {
      const p = n.position;
      if (p?.start.offset !== undefined && p.end.offset !== undefined) excluded.push([p.start.offset, p.end.offset]);
      return;
    }
    if ('children' in n) for (const c of n.children as Nodes[]) walk(c);
  };
  walk(node);
  excluded.sort((a, b) => a[0] - b[0]);
  scanInline(text, start, end, excluded, sink);
}

/** Replace inline code spans of one line with spaces (same length), so nothing inside them matches. */
function maskInlineCode(line: string): string {
  if (!line.includes('`')) return line;
  const re = /(`+)/g;
  let out = '';
  let last = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const ticks = m[1]!;
    const close = line.indexOf(ticks, m.index + ticks.length);
    // The closing run must be exactly as long; a longer run is not a match (approximation: accept).
    if (close < 0) continue;
    out += line.slice(last, m.index) + ' '.repeat(close + ticks.length - m.index);
    last = close + ticks.length;
    re.lastIndex = last;
  }
  return out + line.slice(last);
}

/**
 * Line-based extraction from scanned blocks (used when the full parser is not safe for the text).
 * Finds the same things as {@link extractFromMdast} for ordinary documents, one line at a time.
 */
export function extractFromBlocks(blocks: readonly Block[], text: string, lines: LineIndex): Extracted {
  const sink = new Sink(lines);
  const headings: Heading[] = [];
  for (const block of blocks) {
    if (block.type === 'code' || block.type === 'comment' || block.type === 'thematic-break') continue;
    if (block.type === 'heading') {
      headings.push({
        depth: block.depth ?? 1,
        text: block.text ?? '',
        range: { start: { line: block.startLine, character: 0 }, end: lines.positionAt(lines.lineEnd(block.endLine)) },
      });
    }
    if (block.type === 'html') continue;
    for (let l = block.startLine; l <= block.endLine; l++) {
      const lineStart = lines.offsetAt({ line: l, character: 0 });
      const raw = lines.lineText(l);
      const line = maskInlineCode(raw);
      if (block.type === 'paragraph') {
        const d = RE_DEFINITION.exec(line);
        if (d) {
          const target = d[3]!.replace(/^<|>$/g, '');
          const a = lineStart + d[1]!.length;
          if (target && !isExternalTarget(target)) sink.link('markdown', target, a, lineStart + d[0].length);
        }
      }
      if (line.includes('](')) {
        RE_MD_LINK.lastIndex = 0;
        for (let m = RE_MD_LINK.exec(line); m; m = RE_MD_LINK.exec(line)) {
          if (m[1] || line.charCodeAt(m.index - 1) === 92) continue;
          const target = m[3]!.replace(/^<|>$/g, '');
          if (target && !isExternalTarget(target))
            sink.link('markdown', target, lineStart + m.index, lineStart + m.index + m[0].length);
        }
      }
      // Masked text has the same length, so offsets found in it are offsets in the file.
      scanInline(line, 0, line.length, [], {
        link: (kind, target, a, b) => sink.link(kind, target, lineStart + a, lineStart + b),
        tag: (t) => sink.tag(t),
      });
    }
  }
  return { headings, links: sink.sortedLinks(), tags: sink.tags };
}
