// Resolve link targets to documents: `[[entry-id]]` / `[[file-slug]]` (Foam, Obsidian style) and
// relative markdown links. Pure; imports only core.
import type { Link, MemoryDoc } from './document.js';
import { resolveRelative } from './paths.js';
import type { MemoryWorkspace } from './workspace.js';

/** @returns the documents `link` (found in `from`) points at; empty when unresolved. */
export function resolveLink(link: Link, from: MemoryDoc, workspace: MemoryWorkspace): readonly MemoryDoc[] {
  if (link.kind === 'markdown') {
    const target = resolveRelative(from.path, link.target);
    if (!target) return [];
    const doc =
      workspace.tryGet(target) ??
      (target.endsWith('.md') ? undefined : workspace.tryGet(`${target}.md` as typeof target));
    return doc ? [doc] : [];
  }
  const id = link.target.trim();
  const byId = workspace.byId(id);
  if (byId.length > 0) return byId;
  return workspace.byName(id.replace(/\.md$/i, ''));
}

/** @returns true for link targets we do not check: URLs, mail, in-page anchors, absolute paths. */
export function isExternalTarget(target: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/') || target.startsWith('//')
  );
}
