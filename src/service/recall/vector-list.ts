// The vector half's candidate list: the nearest embedding keys a search answered, as the plan's
// chunks (filters applied, `recall.minVectorScore`, `recall.vectorContext`, kind priors) and the
// spread of the top cosines (`recall.vectorSpread`). deps: engine (types), service/recall.
import type { IndexSnapshot } from '../../engine/chunks/index-manager.js';
import type { Plan } from './candidates.js';
import { accept } from './filters.js';
import { DEFAULT_PRIORS, demoteKinds } from './priors.js';
import type { FusionSettings } from './types.js';
import { withNeighbourContext } from './vector-pass.js';

/**
 * Fills `p.vectorRanked` from `hits` (embedding keys with their cosine, best first; `byKey` maps a
 * key to the chunk ids that share it) and sets `p.vectorSpread`. Hits below `minVectorScore` and
 * chunks the filters refuse are left out; in hybrid mode with `vectorContext` each chunk's score
 * takes a share of its neighbours' (service/recall/vector-pass.ts). Kind priors demote last.
 */
export function fillVectorRanked(
  snapshot: IndexSnapshot,
  p: Plan,
  hits: readonly { ref: string; score: number }[],
  byKey: ReadonlyMap<string, readonly string[]>,
  fusion: FusionSettings,
): void {
  const floor = fusion.minVectorScore ?? -1;
  const depth = fusion.vectorSpread?.depth ?? 0;
  if (depth >= 2 && hits.length >= depth) p.vectorSpread = hits[0]!.score - hits[depth - 1]!.score;
  const share = p.mode === 'hybrid' ? (fusion.vectorContext ?? 0) : 0;
  if (share > 0) {
    const own = new Map<string, number>();
    for (const h of hits)
      for (const id of byKey.get(h.ref) ?? [])
        if (!own.has(id) && accept(snapshot.chunks.get(id)!, p.filters)) own.set(id, h.score);
    for (const h of withNeighbourContext(snapshot, own, share)) {
      if (h.score < floor) break;
      if (accept(snapshot.chunks.get(h.ref)!, p.filters)) p.vectorRanked.push(h);
    }
  } else
    for (const h of hits) {
      if (h.score < floor) break; // best first: the rest are lower
      for (const id of byKey.get(h.ref) ?? []) {
        if (accept(snapshot.chunks.get(id)!, p.filters)) p.vectorRanked.push({ ref: id, score: h.score });
      }
    }
  demoteKinds(p.vectorRanked, snapshot.chunks, fusion.priors ?? DEFAULT_PRIORS);
}
