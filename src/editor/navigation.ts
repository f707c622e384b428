// Navigation: what the text at a position refers to (an entry id in `[[…]]`, `id:`, `duplicate_of:`,
// `supersedes:`, a `[[link]]` in a front-matter value (parse/property-links.ts puts those in doc.links), or a relative link), where a document is declared, and every place that refers to
// a set of documents. Behind hover, definition and references. deps: core.
import type { MemoryDoc } from '../core/document.js';
import { isExternalTarget, resolveLink } from '../core/links.js';
import { resolveRelative, type RelPath } from '../core/paths.js';
import { range, type Position, type Range } from '../core/position.js';
import { valueAt } from './front-matter.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { never, type Cancel, type Target } from './types.js';

/** @returns what the text at `pos` refers to: an entry id (`[[id]]`, `id:`, `duplicate_of:`, `supersedes:`) or a relative link. */
export function targetAt(ws: MemoryWorkspace, path: RelPath, pos: Position): Target | undefined {
  const doc = ws.tryGet(path);
  if (!doc) return undefined;
  for (const l of doc.links) {
    if (!contains(l.range, pos)) continue;
    if (l.kind === 'wiki') return { kind: 'id', id: l.target.trim(), range: l.range, docs: resolveLink(l, doc, ws) };
    if (isExternalTarget(l.target)) return undefined;
    const target = resolveRelative(doc.path, l.target);
    const docs = resolveLink(l, doc, ws);
    return { kind: 'path', path: target, target: l.target, range: l.range, docs };
  }
  const fm = doc.frontMatter;
  if (!fm?.data || !contains(fm.range, pos)) return undefined;
  for (const [pointer, node] of Object.entries(fm.nodes)) {
    if (!contains(node.value, pos) || !/^\/(id|duplicate_of|supersedes(\/\d+)?)$/.test(pointer)) continue;
    const value = valueAt(fm.data, pointer);
    if (typeof value !== 'string' || !value) continue;
    return { kind: 'id', id: value, range: node.value, docs: ws.byId(value) };
  }
  return undefined;
}

/** Where a target is declared: the `id:` value of each document, or the start of the file. */
export function declarationRange(doc: MemoryDoc): Range {
  const node = doc.frontMatter?.nodes['/id'];
  return node ? node.value : range(0, 0, 0, 0);
}

/**
 * Every place that refers to the documents in `docs`: `[[links]]` and relative links resolving to
 * them, and `duplicate_of` / `supersedes` values naming their ids.
 */
export function references(
  ws: MemoryWorkspace,
  docs: readonly MemoryDoc[],
  cancel: Cancel = never,
): { path: RelPath; range: Range }[] {
  const targets = new Set(docs.map((d) => d.path));
  const ids = new Set(docs.map((d) => d.meta.id).filter((x): x is string => x !== undefined));
  const out: { path: RelPath; range: Range }[] = [];
  for (const d of ws.docs()) {
    if (cancel()) break;
    for (const l of d.links) {
      if (l.kind === 'markdown' && isExternalTarget(l.target)) continue;
      if (resolveLink(l, d, ws).some((t) => targets.has(t.path))) out.push({ path: d.path, range: l.range });
    }
    const fm = d.frontMatter;
    if (!fm?.data) continue;
    for (const [pointer, node] of Object.entries(fm.nodes)) {
      if (!/^\/(duplicate_of|supersedes\/\d+)$/.test(pointer)) continue;
      const v = valueAt(fm.data, pointer);
      if (typeof v === 'string' && ids.has(v)) out.push({ path: d.path, range: node.value });
    }
  }
  return out;
}

function contains(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const beforeEnd = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return afterStart && beforeEnd;
}
