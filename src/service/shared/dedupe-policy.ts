// The dedupe policy, one rule for every path that asks "is this memory already known?": `remember`
// (CLI, and MCP memory_remember through it), complete-task (ACE), `gitmem dedupe`, and the editor's
// near-duplicate diagnostic and "move this bullet into an entry" action.
//   1. Candidates are live entries: kind `entry`, of the same type (any type when the writer names
//      none), not themselves marked `duplicate_of`, not `superseded` or `archived`; never the
//      entry itself, one it supersedes or one that supersedes it ({@link linkedForDedupe}).
//   2. A candidate is a duplicate when its text has the same dedupe normal form ('same-text'), or
//      when the token Jaccard similarity reaches `dedupe.jaccard` ('jaccard') and the two do not
//      conflict: a near copy that changes a number, a negation or a value is a possible conflict
//      (service/shared/conflict.ts), not a duplicate.
//   3. By meaning (with a model): a new text of `type` repeats a live entry of that type (rule 1)
//      when the cosine of its embedding with that entry's, already embedded, reaches `dedupe.cosine`
//      and the two do not conflict ({@link findDuplicateByMeaning}). `remember` asks it of a new
//      text, `gitmem dedupe` of each entry, and sync of each entry it brought in
//      (service/git-ops/incoming-checks.ts, which leaves out the entry itself).
// deps: core, indexes (tokenizer), engine (embed-text; semantic and freshness through the context), service/shared.
import { bodyOf, type MemoryDoc } from '../../core/document.js';
import type { RelPath } from '../../core/paths.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import { embedText } from '../../engine/embed-text.js';
import { tokenize } from '../../indexes/tokenize.js';
import { compareClaims } from './conflict.js';
import type { MemoryContext } from './memory-context.js';
import { normaliseForDedupe } from './text-utils.js';

/** A text prepared for comparison: as written, its dedupe normal form and its token set. */
export interface DedupeText {
  readonly text: string;
  readonly norm: string;
  readonly tokens: ReadonlySet<string>;
}

/** Why two texts are duplicates, and how similar they are (1 for the same text). */
export interface DuplicateMatch {
  readonly reason: 'same-text' | 'jaccard';
  readonly similarity: number;
}

/** Prepare `text` for {@link duplicateMatch} (normalise once, tokenise once). */
export function dedupeText(text: string): DedupeText {
  return { text, norm: normaliseForDedupe(text), tokens: new Set(tokenize(text)) };
}

/** Rule 1: is `d` an entry new text of `type` may duplicate? (`type` undefined: any type.) */
export function isDedupeCandidate(d: MemoryDoc, type: string | undefined): boolean {
  if (d.kind !== 'entry' || d.meta.duplicateOf) return false;
  if (d.meta.status === 'superseded' || d.meta.status === 'archived') return false;
  return type === undefined || d.meta.type === type;
}

/**
 * Rule 1, for a pair: `a` and `b` are never compared when they are the same document or one
 * supersedes the other (a correction repeats its subject).
 */
export function linkedForDedupe(a: MemoryDoc, b: MemoryDoc): boolean {
  return (
    a.path === b.path ||
    a.meta.supersedes?.includes(b.meta.id ?? '') === true ||
    b.meta.supersedes?.includes(a.meta.id ?? '') === true
  );
}

/**
 * Rule 2: does `incoming` repeat `existing`? Empty texts (normal form '') never match.
 * @param jaccard the `dedupe.jaccard` threshold, 0–1.
 */
export function duplicateMatch(
  existing: DedupeText,
  incoming: DedupeText,
  jaccard: number,
): DuplicateMatch | undefined {
  if (!existing.norm || !incoming.norm) return undefined;
  if (existing.norm === incoming.norm) return { reason: 'same-text', similarity: 1 };
  let inter = 0;
  for (const t of incoming.tokens) if (existing.tokens.has(t)) inter++;
  const union = existing.tokens.size + incoming.tokens.size - inter;
  const similarity = union === 0 ? 1 : inter / union;
  if (similarity < jaccard) return undefined;
  if (compareClaims(existing.text, incoming.text).reasons.length > 0) return undefined;
  return { reason: 'jaccard', similarity: Number(similarity.toFixed(3)) };
}

/**
 * The first candidate among `docs` that `incoming` repeats (rules 1 and 2), in `docs` order.
 * @param textOf the text of a document that is compared (default: its body).
 */
export function findDuplicate(
  docs: Iterable<MemoryDoc>,
  incoming: { readonly text: string; readonly type?: string | undefined },
  jaccard: number,
  textOf: (d: MemoryDoc) => string = bodyOf,
): { readonly doc: MemoryDoc; readonly match: DuplicateMatch } | undefined {
  const mine = dedupeText(incoming.text);
  if (!mine.norm) return undefined;
  for (const d of docs) {
    if (!isDedupeCandidate(d, incoming.type)) continue;
    const match = duplicateMatch(dedupeText(textOf(d)), mine, jaccard);
    if (match) return { doc: d, match };
  }
  return undefined;
}

/**
 * The live same-type entry `incoming` repeats by meaning, or undefined (no semantic half, `dedupe.cosine`
 * 1, no embedded candidate, none close enough, or the closest conflicts).
 */
export async function findDuplicateByMeaning(
  ctx: Pick<MemoryContext, 'semantic' | 'freshness' | 'fresh' | 'config'>,
  ws: MemoryWorkspace,
  incoming: { readonly text: string; readonly type: string; readonly title: string },
  /** Entries never compared with (by path). */
  exclude?: (path: string) => boolean,
): Promise<{ readonly id: string; readonly path: string; readonly similarity: number } | undefined> {
  const { semantic, freshness, fresh, config } = ctx;
  const { text, type } = incoming;
  if (!semantic || config.dedupe.cosine >= 1) return undefined;
  const snap = freshness.snapshot ?? (await fresh()).snap;
  const keys = new Map<string, { id: string; path: string }>();
  for (const c of snap.chunks.values()) {
    if (c.kind !== 'entry' || c.entry?.type !== type || !c.vkey || exclude?.(c.path)) continue;
    const d = ws.tryGet(c.path as RelPath);
    if (d && isDedupeCandidate(d, type)) keys.set(c.vkey, { id: c.entry.id, path: c.path });
  }
  if (keys.size === 0) return undefined;
  // Compare in the form entries are embedded in (title line, then the text).
  const probe = embedText({ text: `\n${text}`.trim(), headingPath: [], title: incoming.title });
  const best = await semantic.maxSimilarity(probe, keys.keys());
  const near = best && best.score >= config.dedupe.cosine ? keys.get(best.key) : undefined;
  const nearDoc = near ? ws.tryGet(near.path as RelPath) : undefined;
  if (!near || !best || (nearDoc && compareClaims(bodyOf(nearDoc), text).reasons.length > 0)) return undefined;
  return { ...near, similarity: Number(best.score.toFixed(3)) };
}
