// `[[…]]` links inside front-matter string values (Obsidian properties: `up: "[[Index]]"`,
// `categories: ["[[People]]"]`). They are links like the body's wiki links, so they join
// MemoryDoc.links: the unresolved-link rule judges them, rename and move plans rewrite them,
// references and definition find them. Positions are those of the `[[…]]` text in the file.
// Imports core and parse/extract.ts (the wiki target of a body link).
import type { FrontMatter, Link } from '../core/document.js';
import type { LineIndex } from '../core/position.js';
import { wikiTarget } from './extract.js';

/** One `[[target#anchor|label]]` on one line, at most 500 characters inside the brackets. */
const PROPERTY_LINK = /\[\[([^[\]\r\n]{1,500})\]\]/g;

/** The value at a JSON pointer (`/categories/0`), or undefined. */
function valueAt(data: Readonly<Record<string, unknown>>, pointer: string): unknown {
  let cur: unknown = data;
  for (const part of pointer.split('/').slice(1)) {
    const k = part.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  }
  return cur;
}

/**
 * @returns the wiki links written inside string values of `fm` (YAML only), in file order. The
 * target is the part before `|` or `#`, trimmed, as for a body wiki link (`[[#heading]]` is none).
 */
export function propertyLinks(fm: FrontMatter | undefined, text: string, lines: LineIndex): Link[] {
  if (!fm?.data || fm.language !== 'yaml') return [];
  const blockStart = lines.offsetAt(fm.range.start);
  const blockEnd = lines.offsetAt(fm.range.end);
  if (text.indexOf('[[', blockStart) < 0 || text.indexOf('[[', blockStart) > blockEnd) return [];
  const out: { at: number; link: Link }[] = [];
  for (const [pointer, node] of Object.entries(fm.nodes)) {
    if (pointer === '' || typeof valueAt(fm.data, pointer) !== 'string') continue;
    const start = lines.offsetAt(node.value.start);
    const raw = text.slice(start, lines.offsetAt(node.value.end));
    if (!raw.includes('[[')) continue;
    for (const m of raw.matchAll(PROPERTY_LINK)) {
      const target = wikiTarget(m[1]!);
      if (!target) continue;
      const at = start + m.index;
      out.push({ at, link: { kind: 'wiki', target, range: lines.rangeOf(at, at + m[0].length) } });
    }
  }
  return out.sort((a, b) => a.at - b.at).map((x) => x.link);
}
