// Symbols: the heading tree of one document (document symbols, outline) and a summary of every
// memory document (the tree view, workspace symbols for an empty query). deps: core.
import type { DocKind } from '../core/document.js';
import type { RelPath } from '../core/paths.js';
import { LineIndex, range } from '../core/position.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import type { HeadingSymbol } from './types.js';

/** Headings of `path` as a tree. */
export function headings(ws: MemoryWorkspace, path: RelPath): HeadingSymbol[] {
  const doc = ws.tryGet(path);
  if (!doc) return [];
  const li = new LineIndex(doc.text);
  const lastLine = li.lineCount - 1;
  const roots: HeadingSymbol[] = [];
  const stack: HeadingSymbol[] = [];
  const hs = doc.headings;
  hs.forEach((h, i) => {
    let endLine = lastLine;
    for (let j = i + 1; j < hs.length; j++) {
      if (hs[j]!.depth <= h.depth) {
        endLine = hs[j]!.range.start.line - 1;
        break;
      }
    }
    endLine = Math.max(endLine, h.range.end.line);
    const sym: HeadingSymbol = {
      name: h.text || '(empty heading)',
      depth: h.depth,
      range: range(h.range.start.line, 0, endLine, li.lineText(endLine).length),
      selectionRange: h.range,
      children: [],
    };
    while (stack.length && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
    if (stack.length) stack[stack.length - 1]!.children.push(sym);
    else roots.push(sym);
    stack.push(sym);
  });
  return roots;
}

/** Summary of every memory document (for the tree view). */
export function documentSummaries(
  ws: MemoryWorkspace,
): { path: RelPath; kind: DocKind; id?: string; title?: string; type?: string }[] {
  return ws.docs().map((d) => ({
    path: d.path,
    kind: d.kind,
    ...(d.meta.id !== undefined && (d.kind === 'entry' || d.kind === 'playbook') ? { id: d.meta.id } : {}),
    ...(d.meta.title !== undefined ? { title: d.meta.title } : {}),
    ...(d.meta.type !== undefined ? { type: d.meta.type } : {}),
  }));
}
