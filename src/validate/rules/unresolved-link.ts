// Rule `memory.link.unresolved`: `[[id]]` wiki links and relative markdown links point at something.
// Wiki links resolve by entry/playbook id, then by file slug; markdown links by path relative to
// the linking file (core/links.ts). URLs, mailto:, in-page anchors and absolute paths are not checked.
// Imports only core.
//
// ok (from memory/entries/a.md):
//   see [[use-lunr]]                 an entry with `id: use-lunr`
//   see [[2026-11-29]]               a file slug (memory/2026-11-29.md)
//   see [the other](../entries/b.md) an existing memory file
//   see [docs](https://example.com)  external, not checked
//   ![[diagram.png]]                 an attachment (a non-markdown file name), not checked
//
// not ok:
//   see [[no-such-id]]               ← memory.link.unresolved (warning), at the link
//   see [x](./missing.md)            ← memory.link.unresolved (warning), at the link
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import type { Link, MemoryDoc } from '../../core/document.js';
import { isExternalTarget, resolveLink } from '../../core/links.js';
import { resolveRelative } from '../../core/paths.js';
import type { Rule, RuleContext } from './index.js';

/** A wiki target naming a non-markdown file: an extension of letters (and digits), not `.md`. */
const ATTACHMENT = /\.(?!md$)[a-z][a-z0-9]{1,7}$/i;

/** Path part of a markdown target: no `#anchor`, no `?query`. */
function targetPath(target: string): string {
  return target.split('#')[0]!.split('?')[0]!;
}

/** @returns true when the link points at something we can find, or at something we do not check. */
function resolves(link: Link, doc: MemoryDoc, ctx: RuleContext): boolean {
  if (link.kind === 'wiki') {
    if (link.target.trim() === '') return true; // `[[#heading]]`: an anchor in this file
    // `![[diagram.png]]`, `[[Books.base]]`, `[[spec.pdf]]`: an attachment, found by file name
    // anywhere in the vault (Obsidian); not memory, so not judged, like a markdown link to code.
    if (ATTACHMENT.test(link.target.trim())) return true;
    return resolveLink(link, doc, ctx.workspace).length > 0;
  }
  if (isExternalTarget(link.target) || targetPath(link.target) === '') return true;
  if (resolveLink(link, doc, ctx.workspace).length > 0) return true;
  const target = resolveRelative(doc.path, link.target);
  // Escaping the root (`../../..`) can never resolve inside the workspace.
  if (!target) return false;
  if (ctx.exists) return ctx.exists(target);
  // Without a file-system probe we only know about memory files: a link to `src/db.ts` may well
  // exist, so only markdown targets are judged.
  return !/\.md$/i.test(target);
}

/** Severity of every finding of this rule (overridable per code in validateWorkspace). */
const SEVERITY = 'warning';

export const unresolvedLink: Rule = {
  id: DiagnosticCode.unresolvedLink,
  codes: [DiagnosticCode.unresolvedLink],
  defaultSeverity: SEVERITY,
  docs:
    'Wiki links ([[id]] or [[file-slug]]) and relative markdown links must resolve to a memory file (or, for ' +
    'markdown links, to an existing file when the caller can check the disk). External links are not checked.',
  check(doc, ctx) {
    const out: Diagnostic[] = [];
    for (const link of doc.links) {
      if (resolves(link, doc, ctx)) continue;
      const shown = link.kind === 'wiki' ? `[[${link.target}]]` : link.target;
      out.push({
        path: doc.path,
        range: link.range,
        severity: SEVERITY,
        code: DiagnosticCode.unresolvedLink,
        message:
          link.kind === 'wiki'
            ? `${shown} matches no memory id or file name`
            : `${shown} does not resolve to a file in the workspace`,
        data: { kind: link.kind, target: link.target },
      });
    }
    return out;
  },
};
