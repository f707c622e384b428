// The dedupe rule by meaning, beside the rules by text (dedupe-policy.ts): a new text of `type` repeats
// a live entry of that type (dedupe-policy.ts rule 1) when the cosine of its embedding with that
// entry's, already embedded, reaches `dedupe.cosine` and the two do not conflict (a changed number,
// negation or value: service/shared/conflict.ts). `remember` asks it of a new text, and sync of each
// entry it brought in (service/git-ops/incoming-checks.ts, which leaves out the entry itself).
// deps: core, engine (embed-text; semantic and freshness through the context), service/shared.
import { bodyOf } from '../../core/document.js';
import type { RelPath } from '../../core/paths.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import { embedText } from '../../engine/embed-text.js';
import { compareClaims } from './conflict.js';
import { isDedupeCandidate } from './dedupe-policy.js';
import type { MemoryContext } from './memory-context.js';

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
