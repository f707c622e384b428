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
//   [[reply_to_current]]             an OpenClaw reply tag in a logged answer, not a link
//
// not ok:
//   see [[no-such-id]]               ← memory.link.unresolved (warning), at the link
//   see [[Deploy_Steps]]             ← the same, "did you mean [[Deploy Steps]]?" when only case and
//                                      spaces/`_`/`-` differ from one note's name or id (not a link:
//                                      editors follow the exact name)
//   see [x](./missing.md)            ← memory.link.unresolved (warning), at the link
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import type { Link, MemoryDoc } from '../../core/document.js';
import { isExternalTarget, resolveLink } from '../../core/links.js';
import { resolveRelative, slugOf } from '../../core/paths.js';
import type { Rule, RuleContext } from './index.js';

/** A wiki target naming a non-markdown file: an extension of letters (and digits), not `.md`. */
const ATTACHMENT = /\.(?!md$)[a-z][a-z0-9]{1,7}$/i;

/**
 * OpenClaw's reply tags, written by the agent at the start of an answer and kept in the session logs
 * it saves as daily notes: `[[reply_to_current]]`, `[[reply_to:<id>]]`, `[[audio_as_voice]]`. They are
 * directives to the chat channel, not links (docs/bad-inputs.md U29); one that does resolve (a note
 * of that name) is still a link.
 */
const OPENCLAW_REPLY_TAG = /^(?:reply_to_current|audio_as_voice|reply_to\s*:\s*[^\s\]]+)$/i;

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
    if (resolveLink(link, doc, ctx.workspace).length > 0) return true;
    return OPENCLAW_REPLY_TAG.test(link.target.trim());
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

/** The one note whose name or id `target` spells with other case or separators (U37), as a link names it. */
function nearName(target: string, ctx: RuleContext): string | undefined {
  const near = ctx.workspace.byLooseName(target.replace(/\.md$/i, ''));
  if (near.length !== 1) return undefined;
  const d = near[0]!;
  return d.meta.id && (d.kind === 'entry' || d.kind === 'playbook') ? d.meta.id : slugOf(d.path);
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
      const near = link.kind === 'wiki' ? nearName(link.target, ctx) : undefined;
      out.push({
        path: doc.path,
        range: link.range,
        severity: SEVERITY,
        code: DiagnosticCode.unresolvedLink,
        message:
          link.kind === 'wiki'
            ? `${shown} matches no memory id or file name${near ? `; did you mean [[${near}]]?` : ''}`
            : `${shown} does not resolve to a file in the workspace`,
        data: { kind: link.kind, target: link.target, ...(near ? { suggestion: near } : {}) },
      });
    }
    return out;
  },
};
