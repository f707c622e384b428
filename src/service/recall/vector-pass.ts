// Neighbour context of the candidate lists: the vector half's (`recall.vectorContext`, a chunk's
// cosine plus a share of its neighbouring chunks') and the keyword half's (`recall.keywordContext`, a
// keyword candidate scored at least a share of its best neighbouring candidate), so the turn that
// answers, next to the one a question names or paraphrases, is found. deps: engine (types), service/recall.
import type { IndexSnapshot } from '../../engine/chunks/index-manager.js';
import { compareHits } from '../../indexes/fusion/ranked.js';
import { neighbourChunks } from './spans.js';

/**
 * Cosines with neighbour context: every chunk of `own` (id → its cosine) and each of their
 * same-section neighbours scores its own cosine (0 when unknown) plus `share` × the best cosine of
 * its neighbours, so the answer right after the turn a question paraphrases ranks near that turn.
 * @returns the scored chunks, best first (ties by id, code-unit order).
 */
export function withNeighbourContext(
  snapshot: IndexSnapshot,
  own: ReadonlyMap<string, number>,
  share: number,
): { ref: string; score: number }[] {
  const ids = new Set(own.keys());
  const around = new Map<string, string[]>();
  for (const id of own.keys()) {
    const c = snapshot.chunks.get(id);
    if (!c) continue;
    const ns = neighbourChunks(snapshot, c).map((n) => n.id);
    around.set(id, ns);
    for (const n of ns) ids.add(n);
  }
  const out: { ref: string; score: number }[] = [];
  for (const id of ids) {
    let ns = around.get(id);
    if (!ns) {
      const c = snapshot.chunks.get(id);
      ns = c ? neighbourChunks(snapshot, c).map((n) => n.id) : [];
    }
    let best = 0;
    for (const n of ns) best = Math.max(best, own.get(n) ?? 0);
    out.push({ ref: id, score: (own.get(id) ?? 0) + share * best });
  }
  return out.sort(compareHits);
}

/**
 * Keyword neighbour context: each hit of `list` (best first) scores at least `share` × the best score
 * among its same-section neighbours that are in `list` too, i.e. max(own, share × best neighbour),
 * so the answer just after the turn that names the question's words ranks near that turn. It only
 * re-scores: no chunk outside `list` is added, and a hit never rises above its best neighbour (share
 * < 1) nor does a run of middling neighbours outrank a strong hit that stands alone (a max, not a sum).
 * @returns the re-scored hits, best first (equal scores in `list`'s order); `share` <= 0 gives `list` as is.
 */
export function liftByNeighbours(
  snapshot: IndexSnapshot,
  list: readonly { ref: string; score: number }[],
  share: number,
): { ref: string; score: number }[] {
  if (!(share > 0)) return [...list];
  const own = new Map<string, number>();
  for (const h of list) if (!own.has(h.ref)) own.set(h.ref, h.score);
  const out: { ref: string; score: number }[] = [];
  for (const [ref, score] of own) {
    const c = snapshot.chunks.get(ref);
    let best = 0;
    if (c) for (const n of neighbourChunks(snapshot, c)) best = Math.max(best, own.get(n.id) ?? 0);
    out.push({ ref, score: Math.max(score, share * best) });
  }
  // Stable: hits of equal score keep the list's order.
  return out.sort((a, b) => b.score - a.score);
}
