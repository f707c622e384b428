// The vector half's neighbour context (`recall.vectorContext`): a chunk's cosine plus a share of its
// neighbouring chunks', so the turn that answers, next to the one a question paraphrases, is found.
// deps: engine (types), service/recall.
import type { IndexSnapshot } from '../../engine/index-manager.js';
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
  return out.sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}
