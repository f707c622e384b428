// Editor side of "memory that stays true": the possible-conflict diagnostic for open entries, and
// the code actions that answer it ("supersede the old one", "keep both") and an expired date
// ("confirm", "update", "supersede with a new entry"), each one edit. Core terms only; the language
// server translates. deps: core, parse (front-matter writer), service (conflict, entry ids, slugs),
// editor helpers.
import { DiagnosticCode, type Diagnostic } from '../core/diagnostics.js';
import { bodyOf, type MemoryDoc } from '../core/document.js';
import { toRelPath, type RelPath } from '../core/paths.js';
import type { Layout } from '../core/layout.js';
import { range } from '../core/position.js';
import { entryIdBase } from '../core/entry-id.js';
import { namesId, type MemoryWorkspace } from '../core/workspace.js';
import { findPossibleConflicts } from '../service/shared/conflict.js';
import { entriesDir, planEntryFile } from '../service/shared/entry-writer.js';
import { setFrontMatterKey } from './front-matter.js';
import type { EditorAction, FileEdit } from './types.js';

/** Days a confirmed or updated memory is good for before the next review. */
const REVIEW_DAYS = 90;

/**
 * Possible-conflict diagnostics of the entry at `path` (the later one of a pair, by `created` then
 * path, so exactly one file says it), at its `id:` key.
 */
export function conflictDiagnostics(ws: MemoryWorkspace, path: RelPath): Diagnostic[] {
  const doc = ws.tryGet(path);
  if (
    !doc ||
    doc.kind !== 'entry' ||
    doc.meta.duplicateOf ||
    doc.meta.status === 'superseded' ||
    doc.meta.status === 'archived'
  )
    return [];
  const found = findPossibleConflicts(ws, {
    text: bodyOf(doc),
    type: doc.meta.type,
    tags: doc.meta.tags,
    path,
    ...(doc.meta.id ? { id: doc.meta.id } : {}),
    ...(doc.meta.supersedes ? { supersedes: doc.meta.supersedes } : {}),
    ...(doc.meta.compatibleWith ? { compatibleWith: doc.meta.compatibleWith } : {}),
  });
  const node = doc.frontMatter?.nodes['/id'];
  const at = node ? (node.key ?? node.value) : range(0, 0, 0, 0);
  return found
    .filter((c) => isLater(doc, ws.tryGet(c.path as RelPath)!))
    .map((c) => ({
      path,
      range: at,
      severity: 'warning' as const,
      code: DiagnosticCode.possibleConflict,
      message: `possible conflict with ${c.id} (${c.path}): same subject, but the ${c.reasons.join(' and ')} differs; supersede the old one or keep both`,
      data: { id: c.id, otherPath: c.path, similarity: c.similarity, reasons: c.reasons },
    }));
}

/**
 * Later by created date, then by path: of a duplicate or conflicting pair, the later one carries the
 * diagnostic (editor/diagnostics.ts and the conflict diagnostics here).
 */
export function isLater(a: MemoryDoc, b: MemoryDoc): boolean {
  const da = a.meta.date ?? '';
  const db = b.meta.date ?? '';
  return da !== db ? da > db : a.path > b.path;
}

/** Add `id` to the id list `key` (`supersedes`, `compatible_with`), as one edit. */
function addToList(doc: MemoryDoc, key: 'supersedes' | 'compatible_with', id: string): FileEdit | undefined {
  const current = key === 'supersedes' ? (doc.meta.supersedes ?? []) : (doc.meta.compatibleWith ?? []);
  if (namesId(current, id)) return undefined;
  return setFrontMatterKey(doc, key, [...current, id]);
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Code actions for the possible-conflict and expired diagnostics among `diagnostics` of `doc`. */
export function truthActions(
  doc: MemoryDoc,
  diagnostics: readonly Diagnostic[],
  now: Date,
  ws: MemoryWorkspace,
  layout: Layout,
  hasFile: (path: string) => boolean = (x) => ws.tryGet(toRelPath(x)) !== undefined,
): EditorAction[] {
  const out: EditorAction[] = [];
  for (const d of diagnostics) {
    if (d.code === DiagnosticCode.possibleConflict && typeof d.data?.id === 'string') {
      const sup = addToList(doc, 'supersedes', d.data.id);
      if (sup)
        out.push({
          title: `Supersede the old one (${d.data.id})`,
          kind: 'quickfix',
          diagnostic: d,
          isPreferred: true,
          edits: [sup],
        });
      const keep = addToList(doc, 'compatible_with', d.data.id);
      if (keep)
        out.push({
          title: `Keep both (mark compatible with ${d.data.id})`,
          kind: 'quickfix',
          diagnostic: d,
          edits: [keep],
        });
    }
    if (
      d.code === DiagnosticCode.expired &&
      typeof d.data?.field === 'string' &&
      doc.frontMatter?.nodes[`/${d.data.field}`]
    ) {
      const field = d.data.field;
      const node = doc.frontMatter.nodes[`/${field}`]!;
      const next = day(new Date(now.getTime() + REVIEW_DAYS * 86_400_000));
      const bump: FileEdit = { path: doc.path, range: node.value, newText: next };
      out.push({
        title: `Confirm: still true (${field} → ${next})`,
        kind: 'quickfix',
        diagnostic: d,
        isPreferred: true,
        edits: [bump],
      });
      const updated = setFrontMatterKey(doc, 'updated', day(now));
      if (updated)
        out.push({
          title: `Update: mark updated ${day(now)} (${field} → ${next})`,
          kind: 'quickfix',
          diagnostic: d,
          edits: [bump, updated],
        });
      const sup = supersedeWithNew(doc, now, ws, layout, hasFile);
      if (sup) out.push({ ...sup, diagnostic: d });
    }
  }
  return out;
}

/**
 * A new entry (same type and tags, the old text to rewrite) that supersedes `doc`, planned by the one
 * entry writer (service/shared/entry-writer.ts): its id in the one format, `<day>-<slug>` of the old
 * id (a leading day dropped, so `2026-01-02-pool-size` gives `<today>-pool-size`); each value one
 * YAML value, so the old entry's id, title or tags cannot add keys to it; not offered when the layout
 * refuses the path or its name or text holds a credential. `files`: the code paths the new entry
 * cites (the stale-code action passes the old ones, renames followed).
 */
export function supersedeWithNew(
  doc: MemoryDoc,
  now: Date,
  ws: MemoryWorkspace,
  layout: Layout,
  hasFile: (path: string) => boolean,
  files?: readonly string[],
): EditorAction | undefined {
  const old = doc.meta.id;
  if (!old || doc.kind !== 'entry') return undefined;
  const entryDir = entriesDir(layout);
  const body = bodyOf(doc)
    .replace(/^\s*\n/, '')
    .replace(/\s*$/, '');
  const entry = planEntryFile(layout, {
    dir: entryDir,
    base: entryIdBase(now, old.replace(/^\d{4}-\d{2}-\d{2}-(?=.)/, '')),
    taken: (x) => ws.byId(x).length > 0 || hasFile(`${entryDir}/${x}.md`),
    data: {
      type: doc.meta.type ?? 'learning',
      ...(doc.meta.title ? { title: doc.meta.title } : {}),
      tags: [...doc.meta.tags],
      created: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      supersedes: [old],
      ...(files?.length ? { files: [...files] } : {}),
    },
    body: `\n${body}\n`,
  });
  if (!entry) return undefined;
  return {
    title: `Supersede: new entry ${entry.id} that replaces ${old}`,
    kind: 'refactor',
    create: { path: entry.path, text: entry.text },
    edits: [{ path: entry.path, range: range(0, 0, 0, 0), newText: entry.text }],
  };
}
