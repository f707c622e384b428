// Front-matter helpers the editor features share (the body after the block is core/document.ts
// bodyOf): whether a line is
// inside it (also while it is being typed), the key a nested line belongs to, the value at a JSON
// pointer, and the one edit that sets a key. deps: core, parse (one YAML value).
import type { MemoryDoc } from '../core/document.js';
import { frontMatterKeyEdit } from '../parse/front-matter-edit.js';
import type { LineIndex } from '../core/position.js';
import type { FileEdit } from './types.js';

/** True when `line` of `doc` lies inside its front-matter block (or one still being typed). */
export function inFrontMatter(doc: MemoryDoc, li: LineIndex, line: number): boolean {
  const fm = doc.frontMatter;
  if (fm) return line > fm.range.start.line && line < fm.range.end.line;
  // While typing, the block may not parse yet: an opening `---` on line 0 and no closing one above.
  if (li.lineText(0).trimEnd() !== '---' || line === 0) return false;
  for (let l = 1; l < line; l++) if (/^(---|\.\.\.)\s*$/.test(li.lineText(l))) return false;
  return true;
}

/** The unindented key a nested line belongs to (`files` for `  - path: x`). */
export function parentKey(li: LineIndex, line: number): string | undefined {
  for (let l = line - 1; l >= 0; l--) {
    const t = li.lineText(l);
    const m = /^([A-Za-z_][\w-]*)\s*:/.exec(t);
    if (m) return m[1];
    if (/^---/.test(t)) return undefined;
  }
  return undefined;
}

/** The front-matter value at a JSON pointer (`/files/0/path`), or undefined. */
export function valueAt(data: Readonly<Record<string, unknown>>, pointer: string): unknown {
  let cur: unknown = data;
  for (const part of pointer.split('/').slice(1)) {
    const k = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[k];
    else return undefined;
  }
  return cur;
}

/**
 * The edit that sets `key: value` in the front-matter of `doc`, as the one front-matter key editor
 * makes it (parse/front-matter-edit.ts): the value replaced, or a line inserted before the closing
 * delimiter in the file's own line-ending style, the value rendered as one YAML value.
 */
export function setFrontMatterKey(doc: MemoryDoc, key: string, data: unknown): FileEdit | undefined {
  const edit = frontMatterKeyEdit(doc, key, data);
  return edit && { path: doc.path, ...edit };
}
