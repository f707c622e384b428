// Code actions in core terms: quick fixes for invalid enum values and near-duplicates, the truth
// actions (truth-actions.ts), the stale-code actions (code-check-actions.ts), and "move this bullet into a new entry" for a list item of a
// long-term, daily or note file (deduped as remember does, secret-scanned, in the shape remember
// writes). deps: core, parse (serialize), validate (schemas), service (ids, text helpers).
import { DiagnosticCode, type Diagnostic } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import type { RelPath } from '../core/paths.js';
import { LineIndex, range, type Range } from '../core/position.js';
import { entryIdBase } from '../core/entry-id.js';
import { SCHEMAS } from '../validate/schema.js';
import { findDuplicate, isDedupeCandidate, nearestByMeaning, storedProbe } from '../service/shared/dedupe-policy.js';
import { entriesDir, planEntryFile } from '../service/shared/entry-writer.js';
import { titleFrom } from '../service/shared/text-utils.js';
import { NEAR_DUPLICATE } from './diagnostics.js';
import { inFrontMatter, setFrontMatterKey, valueAt } from './front-matter.js';
import { distance, enumAtPointer } from './schema-values.js';
import { truthActions } from './truth-actions.js';
import { codeCheckActions } from './code-check-actions.js';
import type { EditorAction, EditorView } from './types.js';

/**
 * Quick fixes for `diagnostics` of `path` (enum values; mark as duplicate) and, for a list item of
 * a long-term, daily or note file under the cursor, "move into a new entry".
 */
export function codeActions(
  view: EditorView,
  path: RelPath,
  at: Range,
  diagnostics: readonly Diagnostic[],
  now: Date,
): EditorAction[] {
  const ws = view.workspace;
  const doc = ws.tryGet(path);
  if (!doc) return [];
  const out: EditorAction[] = [];
  for (const d of diagnostics) {
    if (d.code === DiagnosticCode.invalidValue) out.push(...fixEnum(doc, d));
    if (d.code === NEAR_DUPLICATE && typeof d.data?.duplicateOf === 'string') {
      const edit = setFrontMatterKey(doc, 'duplicate_of', d.data.duplicateOf);
      if (edit)
        out.push({
          title: `Mark as duplicate of ${d.data.duplicateOf}`,
          kind: 'quickfix',
          diagnostic: d,
          isPreferred: true,
          edits: [edit],
        });
    }
  }
  out.push(...truthActions(doc, diagnostics, now, ws, view.layout, (x) => view.hasFile(x)));
  out.push(...codeCheckActions(doc, diagnostics, now, ws, view.layout, (x) => view.hasFile(x)));
  const move = moveBulletToEntry(view, doc, at, now);
  if (move) out.push(move);
  return out;
}

function fixEnum(doc: MemoryDoc, d: Diagnostic): EditorAction[] {
  const pointer = typeof d.data?.pointer === 'string' ? d.data.pointer : undefined;
  const fm = doc.frontMatter;
  if (pointer === undefined || !fm?.data) return [];
  const node = fm.nodes[pointer];
  if (!node) return [];
  const schema = doc.kind === 'playbook' ? SCHEMAS.playbook : SCHEMAS.entry;
  const values = enumAtPointer(schema, pointer);
  if (!values.length) return [];
  const current = String(valueAt(fm.data, pointer) ?? '');
  const ranked = [...values].sort((a, b) => distance(current, a) - distance(current, b));
  return ranked.map((v, i) => ({
    title: `Change ${pointer.slice(1).replace(/\//g, '.')} to "${v}"`,
    kind: 'quickfix' as const,
    diagnostic: d,
    ...(i === 0 ? { isPreferred: true } : {}),
    edits: [{ path: doc.path, range: node.value, newText: v }],
  }));
}

function moveBulletToEntry(view: EditorView, doc: MemoryDoc, at: Range, now: Date): EditorAction | undefined {
  const ws = view.workspace;
  if (doc.kind !== 'long_term' && doc.kind !== 'daily' && doc.kind !== 'note') return undefined;
  const li = new LineIndex(doc.text);
  const line = li.lineText(at.start.line);
  const m = /^\s*[-*+]\s+(?:\[[ xX]\]\s+)?(.+)$/.exec(line);
  if (!m || inFrontMatter(doc, li, at.start.line)) return undefined;
  const text = m[1]!.trim();
  // Already an entry: a bullet that is only a link (what this action leaves behind) is not moved again.
  if (/^(?:\[\[[^\]]+\]\][\s,;]*)+$/.test(text)) return undefined;
  // Delete the whole line with its line break (never half of a \r\n pair: LineIndex keeps them whole).
  const startOff = li.offsetAt({ line: at.start.line, character: 0 });
  const endOff =
    at.start.line + 1 < li.lineCount
      ? li.offsetAt({ line: at.start.line + 1, character: 0 })
      : li.lineEnd(at.start.line);
  const linkTo = (id: string) => ({
    path: doc.path,
    range: li.rangeOf(startOff, endOff),
    newText: `${line.slice(0, line.length - m[1]!.length)}[[${id}]]${doc.eol}`,
  });
  // The dedupe policy remember uses (service/shared/dedupe-policy.ts; a bullet has no type, so any
  // type): an entry with the same text already exists → link to it instead. By meaning only from a
  // vector the index already stores for this text (the action never waits for an embedding).
  const same = findDuplicate(ws.docs(), { text }, view.config.dedupe.jaccard)?.doc ?? storedNear(view, text);
  if (same) {
    // Only an id a `[[link]]` can hold (no line break, no brackets) is written into the bullet.
    if (!/^[^[\]\r\n]{1,500}$/.test(same.meta.id ?? '')) return undefined;
    return {
      title: `Replace this bullet with a link to the existing entry ${same.meta.id}`,
      kind: 'refactor',
      edits: [linkTo(same.meta.id!)],
    };
  }
  const title = titleFrom(text);
  const dir = entriesDir(view.layout);
  const created = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  // The one entry writer's plan (service/shared/entry-writer.ts): the same shape and id remember
  // writes, so it passes `gitmem validate`; not offered when the layout refuses the path or its name
  // or text holds a credential. The client creates the file (a workspace edit), never over another.
  const entry = planEntryFile(view.layout, {
    dir,
    base: entryIdBase(now, title),
    taken: (x) => ws.byId(x).length > 0 || view.hasFile(`${dir}/${x}.md`),
    data: { type: 'learning', title, tags: [], created, source: { origin: 'editor' }, status: 'active' },
    body: `\n${text}\n`,
  });
  if (!entry) return undefined;
  return {
    title: `Move this bullet into a new entry (${entry.path})`,
    kind: 'refactor',
    create: { path: entry.path, text: entry.text },
    edits: [{ path: entry.path, range: range(0, 0, 0, 0), newText: entry.text }, linkTo(entry.id)],
  };
}

/** The dedupe policy's rule by meaning for a bullet, from stored vectors only (none: undefined). */
function storedNear(view: EditorView, text: string): MemoryDoc | undefined {
  const vectors = view.vectors;
  const probe = vectors && storedProbe(vectors, { text, title: titleFrom(text) });
  if (!vectors || !probe) return undefined;
  const candidates = view.workspace.docs().filter((d) => isDedupeCandidate(d, undefined));
  return nearestByMeaning(vectors, candidates, { text, probe }, view.config.dedupe.cosine)?.doc;
}
