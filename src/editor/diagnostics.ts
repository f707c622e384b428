// Editor diagnostics: the validation rules over the whole workspace (validate/), CURRENT_STATE.md
// checks (continuity/), per-file read findings, and for open documents two editor-only findings:
// near-duplicate entries (the dedupe policy: by text, and by meaning from the vectors the index
// stores, never embedding), possible conflicts (truth-actions.ts) and stale cited code (the last
// background check's answers, code-checks.ts).
// deps: core, validate, continuity, service (dedupe policy, conflicts).
import { DiagnosticCode, compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import { slugOf, type RelPath } from '../core/paths.js';
import { range } from '../core/position.js';
import { validateWorkspace } from '../validate/validate.js';
import { validateStateDocs } from '../continuity/validate-state.js';
import {
  dedupeTextOfDoc,
  duplicateMatch,
  isDedupeCandidate,
  linkedForDedupe,
  meaningMatch,
  storedProbe,
} from '../service/shared/dedupe-policy.js';
import { conflictDiagnostics, isLater } from './truth-actions.js';
import type { EditorView } from './types.js';

/** Code of the editor-only finding "this entry repeats another one" (see {@link editorDiagnostics}). */
export const NEAR_DUPLICATE = DiagnosticCode.nearDuplicate;

/**
 * Diagnostics of `paths` (default: every memory document and every skipped file), grouped by
 * path; each asked-for path has an entry, empty when clean. Rules see the whole workspace. The
 * near-duplicate check (the dedupe policy against entries of the same type: by text, config
 * `dedupe.jaccard`, and when the index stores vectors for both entries as they are now, by meaning,
 * `dedupe.cosine`)
 * runs only for the paths in `nearDuplicates` (the open documents): it compares against every
 * entry, too costly for a whole 10,000-file workspace on every save.
 */
export function editorDiagnostics(
  view: EditorView,
  paths?: readonly RelPath[],
  nearDuplicates: ReadonlySet<RelPath> = new Set(),
): Map<RelPath, Diagnostic[]> {
  const ws = view.workspace;
  const exists = (p: RelPath) => view.hasFile(p) || ws.tryGet(p) !== undefined;
  // A file can be both parsed and have a file-level finding (invalid UTF-8): list it once (E14).
  const wanted = [...new Set(paths ?? [...ws.docs().map((d) => d.path), ...view.fileDiagnostics.keys()])];
  const out = new Map<RelPath, Diagnostic[]>(wanted.map((p) => [p, []]));
  const found = validateWorkspace(ws, {
    ...(paths ? { paths: wanted.filter((p) => ws.tryGet(p)) } : {}),
    exists,
    today: view.now().toISOString().slice(0, 10),
    load: view.config.load,
  });
  // CURRENT_STATE.md schema, staleness and placeholders, as service/validate/validate.ts reports them (continuity/).
  const stateDocs = wanted.map((p) => ws.tryGet(p)).filter((d): d is MemoryDoc => d?.kind === 'current_state');
  const state = stateDocs.length
    ? validateStateDocs(stateDocs, { now: view.now(), staleAfterHours: view.config.state.staleAfterHours })
    : [];
  for (const d of [...found, ...state]) out.get(d.path)?.push(d);
  for (const p of wanted) {
    const list = out.get(p)!;
    list.push(...(view.fileDiagnostics.get(p) ?? []));
    if (nearDuplicates.has(p)) {
      list.push(...nearDuplicatesOf(view, p), ...conflictDiagnostics(ws, p));
      const doc = view.codeChecks && ws.tryGet(p);
      if (doc) list.push(...view.codeChecks!.diagnosticsOf(doc));
    }
    list.sort(compareDiagnostics);
  }
  return out;
}

/**
 * The dedupe policy (service/shared/dedupe-policy.ts) as diagnostics: at most three per entry. The
 * rule by meaning reads stored vectors only: an entry changed since it was embedded (an unsaved
 * buffer) has none, and is checked by text alone until the index embeds it.
 */
function nearDuplicatesOf(view: EditorView, path: RelPath): Diagnostic[] {
  const ws = view.workspace;
  const doc = ws.tryGet(path);
  if (!doc || !isDedupeCandidate(doc, doc.meta.type)) return [];
  const mine = dedupeTextOfDoc(doc);
  if (!mine.norm) return [];
  const threshold = view.config.dedupe.jaccard;
  const vectors = view.vectors;
  const probe = vectors && storedProbe(vectors, { text: mine.text, title: doc.meta.title ?? '', own: doc });
  const out: Diagnostic[] = [];
  for (const other of ws.docs()) {
    if (linkedForDedupe(doc, other) || !isDedupeCandidate(other, doc.meta.type)) continue;
    // Only the later one of a pair is flagged (by created date, then path), so exactly one file says "duplicate".
    if (!isLater(doc, other)) continue;
    const match =
      duplicateMatch(dedupeTextOfDoc(other), mine, threshold) ??
      (probe && vectors
        ? meaningMatch(vectors, other, { text: mine.text, probe }, view.config.dedupe.cosine)
        : undefined);
    if (!match) continue;
    const score = match.similarity;
    const otherId = other.meta.id ?? slugOf(other.path);
    const node = doc.frontMatter?.nodes['/id'];
    out.push({
      path,
      range: node
        ? (node.key ?? node.value)
        : doc.frontMatter?.range
          ? range(doc.frontMatter.range.start.line, 0, doc.frontMatter.range.start.line, 3)
          : range(0, 0, 0, 0),
      severity: 'warning',
      code: NEAR_DUPLICATE,
      message: `this memory repeats ${otherId} (${other.path}; ${match.reason === 'meaning' ? 'cosine' : 'similarity'} ${score.toFixed(2)}); mark it duplicate_of: ${otherId} or merge them`,
      data: { duplicateOf: otherId, otherPath: other.path, similarity: Number(score.toFixed(3)), reason: match.reason },
    });
    if (out.length >= 3) break;
  }
  return out;
}
