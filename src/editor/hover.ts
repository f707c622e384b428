// Hover content in core terms: a preview of one memory document (title, type, tags, provenance,
// status, created, the first lines of its body). server/handlers/hover.ts renders it as markdown.
// deps: core.
import { bodyOf, type MemoryDoc } from '../core/document.js';
import type { DocPreview } from './types.js';

/** A preview of `doc` for hovers. */
export function preview(doc: MemoryDoc, maxLines = 8): DocPreview {
  const data = doc.frontMatter?.data ?? {};
  const src =
    data.source && typeof data.source === 'object' && !Array.isArray(data.source)
      ? (data.source as Record<string, unknown>)
      : {};
  const source: Record<string, string> = {};
  for (const [k, v] of Object.entries(src)) if (typeof v === 'string' || typeof v === 'number') source[k] = String(v);
  const body = bodyOf(doc).replace(/^\s*\n/, '');
  const lines = body.split(/\r?\n/);
  const excerpt = lines.slice(0, maxLines).join('\n').trimEnd() + (lines.length > maxLines ? '\n…' : '');
  const created = typeof data.created === 'string' ? data.created : doc.meta.date;
  return {
    path: doc.path,
    kind: doc.kind,
    tags: doc.meta.tags,
    source,
    excerpt,
    ...(doc.meta.id !== undefined ? { id: doc.meta.id } : {}),
    ...(doc.meta.title !== undefined ? { title: doc.meta.title } : {}),
    ...(doc.meta.type !== undefined ? { type: doc.meta.type } : {}),
    ...(doc.meta.status !== undefined ? { status: doc.meta.status } : {}),
    ...(created !== undefined ? { created } : {}),
    ...(doc.meta.duplicateOf !== undefined ? { duplicateOf: doc.meta.duplicateOf } : {}),
  };
}
