// `gitmem dedupe`: find typed entries that repeat an earlier entry of the same type (the one dedupe
// policy, service/shared/dedupe-policy.ts: by text, and with a model by meaning against the earlier
// entries kept) and mark them `duplicate_of: <earlier id>` — one
// front-matter line each, so the change reviews as a small diff. Duplicates are then hidden from
// recall unless asked for. deps: core, ace (front-matter line edit), service.
import type { RelPath } from '../../core/paths.js';
import { bodyOf, type MemoryDoc } from '../../core/document.js';
import { withFrontMatterKey } from '../../parse/front-matter-edit.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { writeMemoryFile } from '../shared/memory-files.js';
import {
  dedupeText,
  findDuplicateByMeaning,
  duplicateMatch,
  isDedupeCandidate,
  linkedForDedupe,
  type DedupeText,
  type DuplicateMatch,
} from '../shared/dedupe-policy.js';

/** One entry found to repeat an earlier one. */
export interface DuplicateFinding {
  readonly path: string;
  readonly id: string;
  readonly duplicateOf: string;
  readonly duplicateOfPath: string;
  readonly reason: 'same-text' | 'jaccard' | 'meaning';
  /** Token Jaccard similarity (1 for same text), or the embedding cosine for `meaning`. */
  readonly similarity: number;
}

/** Above this many entries of one type, only exact (normalised-text) duplicates are looked for. */
const PAIRWISE_LIMIT = 3000;

/**
 * Find duplicates (and with `apply`, mark them). The earliest entry (by `created`, then path) of a
 * group is kept; entries already marked, superseded or archived are left alone.
 */
export async function dedupeWorkspace(
  ctx: MemoryContext,
  options: { apply?: boolean } = {},
): Promise<{ findings: DuplicateFinding[]; applied: number }> {
  const ws = await ctx.workspace();
  const byType = new Map<string, MemoryDoc[]>();
  for (const d of ws.docs()) {
    if (!d.meta.type || !isDedupeCandidate(d, d.meta.type)) continue;
    byType.set(d.meta.type, [...(byType.get(d.meta.type) ?? []), d]);
  }
  const findings: DuplicateFinding[] = [];
  for (const docs of byType.values()) {
    docs.sort((a, b) => (a.meta.date ?? '').localeCompare(b.meta.date ?? '') || a.path.localeCompare(b.path));
    const kept: { doc: MemoryDoc; text: DedupeText }[] = [];
    const byNorm = new Map<string, MemoryDoc>();
    for (const d of docs) {
      const text = dedupeText(bodyOf(d));
      // Same text is found by its normal form at any size; near copies pairwise up to PAIRWISE_LIMIT.
      // Never an entry it supersedes or that supersedes it (a correction repeats its subject).
      const first = text.norm ? byNorm.get(text.norm) : undefined;
      const same = first && !linkedForDedupe(first, d) ? first : undefined;
      let hit: { doc: MemoryDoc; match: DuplicateMatch | { reason: 'meaning'; similarity: number } } | undefined = same
        ? { doc: same, match: { reason: 'same-text', similarity: 1 } }
        : undefined;
      if (!hit && docs.length <= PAIRWISE_LIMIT && text.norm) {
        for (const k of kept) {
          if (linkedForDedupe(k.doc, d)) continue;
          const match = duplicateMatch(k.text, text, ctx.config.dedupe.jaccard);
          if (match) {
            hit = { doc: k.doc, match };
            break;
          }
        }
      }
      if (!hit && docs.length <= PAIRWISE_LIMIT && text.norm) {
        // By meaning, against the earlier entries kept (not the duplicates found, not later ones).
        const keptPaths = new Set(kept.filter((k) => !linkedForDedupe(k.doc, d)).map((k) => k.doc.path));
        const near = await findDuplicateByMeaning(
          ctx,
          ws,
          { text: text.text, type: d.meta.type!, title: d.meta.title ?? '', own: d },
          (path) => !keptPaths.has(path as RelPath),
        );
        const doc = near ? ws.tryGet(near.path as RelPath) : undefined;
        if (near && doc) hit = { doc, match: { reason: 'meaning', similarity: near.similarity } };
      }
      if (hit) {
        findings.push({
          path: d.path,
          id: d.meta.id ?? d.path,
          duplicateOf: hit.doc.meta.id ?? hit.doc.path,
          duplicateOfPath: hit.doc.path,
          reason: hit.match.reason,
          similarity: hit.match.similarity,
        });
        continue;
      }
      kept.push({ doc: d, text });
      if (text.norm) byNorm.set(text.norm, d);
    }
  }
  let applied = 0;
  if (options.apply) {
    for (const f of findings) {
      const doc = ws.tryGet(f.path as never);
      const next = doc ? withFrontMatterKey(doc, 'duplicate_of', f.duplicateOf) : undefined;
      if (!doc || next === undefined || next === doc.text) continue;
      await writeMemoryFile(ctx, f.path, doc.hasBom ? `\uFEFF${next}` : next);
      applied++;
    }
  }
  return { findings, applied };
}
