// Hover content in core terms: a preview of one memory document (title, type, tags, provenance,
// status, created, the first lines of its body), masked as recall shows a memory (R143): names and
// front-matter values as core/secret-mask.ts masks a name, and the title, status and source values
// labelled when they read as an instruction (core/agent-text.ts `nameForAgent`), tags as `tagForAgent`,
// the body lines as `forAgent` gives them to an agent (R182). server/handlers/hover.ts renders it as markdown. deps: core.
import { forAgent, nameForAgent, tagForAgent } from '../core/agent-text.js';
import { bodyOf, type MemoryDoc } from '../core/document.js';
import { maskName } from '../core/secret-mask.js';
import type { DocPreview } from './types.js';

/** A preview of `doc` for hovers. */
export function preview(doc: MemoryDoc, maxLines = 8): DocPreview {
  const data = doc.frontMatter?.data ?? {};
  const src =
    data.source && typeof data.source === 'object' && !Array.isArray(data.source)
      ? (data.source as Record<string, unknown>)
      : {};
  const source: Record<string, string> = {};
  for (const [k, v] of Object.entries(src))
    if (typeof v === 'string' || typeof v === 'number') source[maskName(k)] = nameForAgent(String(v));
  // Masked and its suspected instructions labelled before it is cut, so a token wrapped across the last
  // shown line end is still found (R131) and an order split across two lines is read whole (R182).
  const body = forAgent(bodyOf(doc).replace(/^\s*\n/, ''));
  const lines = body.split(/\r?\n/);
  const excerpt = lines.slice(0, maxLines).join('\n').trimEnd() + (lines.length > maxLines ? '\n…' : '');
  const created = typeof data.created === 'string' ? data.created : doc.meta.date;
  const m = doc.meta;
  return {
    path: maskName(doc.path),
    kind: doc.kind,
    tags: m.tags.map(tagForAgent),
    source,
    excerpt,
    ...(m.id !== undefined ? { id: maskName(m.id) } : {}),
    ...(m.title !== undefined ? { title: nameForAgent(m.title) } : {}),
    ...(m.type !== undefined ? { type: maskName(m.type) } : {}),
    ...(m.status !== undefined ? { status: nameForAgent(m.status) } : {}),
    ...(created !== undefined ? { created: maskName(created) } : {}),
    ...(m.duplicateOf !== undefined ? { duplicateOf: maskName(m.duplicateOf) } : {}),
  };
}
