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

/** Longest `[[…]]` link the parser reads (parse/extract.ts RE_WIKI). */
const MAX_LINK_CHARS = 500;

/**
 * Why no `[[…]]` link can name an entry with this id, or undefined when one can. The link parser
 * (parse/extract.ts) reads at most 500 characters up to a bracket or a line break, cuts the target at
 * `|` and `#`, drops a trailing backslash and trims it; a control character cannot be typed or shown
 * in a link either (docs/bad-inputs.md B50).
 */
export function unlinkableIdReason(id: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- vertical tab and form feed are among the line breaks
  if (/[\r\n\u000b\u000c\u0085\u2028\u2029]/.test(id)) return 'it holds a line break';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'it holds a control character';
  if (/[[\]]/.test(id)) return 'it holds a bracket, which ends a link';
  if (id.includes('|')) return 'it holds "|", where a link ends its target ([[id|label]])';
  if (id.includes('#')) return 'it holds "#", where a link ends its target ([[id#heading]])';
  if (id.trim() !== id) return 'it starts or ends with a space, which a link drops';
  if (id.endsWith('\\')) return 'it ends with "\\", which a link drops';
  if (id.length > MAX_LINK_CHARS) return `it is longer than ${MAX_LINK_CHARS} characters`;
  return undefined;
}
