// Fusion of the keyword and vector lists into one ranking: keyword or vector alone, normalised
// score fusion weighted by keyword coverage (default), or reciprocal rank fusion with a top-keyword
// bonus; in hybrid mode the keyword list first gets its neighbour context (recall.keywordContext). deps: engine (types), indexes, service/recall.
import { reciprocalRankFusion, scoreFusion } from '../../indexes/fusion/fusion.js';
import { coverage, type queryWeights } from '../../indexes/evidence/evidence.js';
import type { IndexSnapshot } from '../../engine/chunks/index-manager.js';
import type { Plan } from './candidates.js';
import { DEFAULT_PRIORS, kindWeight } from './priors.js';
import type { FusionSettings } from './types.js';
import { liftByNeighbours } from './vector-pass.js';

/** Keyword hits whose coverage is computed (deeper hits add little to fusion). */
const COVERAGE_DEPTH = 200;

/** One fused hit: the fused score and each list's score and rank (null when absent from it). */
export interface Fused {
  ref: string;
  score: number;
  kw: number | null;
  kwRank: number | null;
  vec: number | null;
  vecRank: number | null;
}

/** The fused ranking of `p`'s lists, at most `depth` hits, best first. */
export function fuse(
  snapshot: IndexSnapshot,
  p: Plan,
  fusion: FusionSettings,
  weights: ReturnType<typeof queryWeights>,
  depth: number,
): Fused[] {
  const { mode, vectorRanked } = p;
  // Hybrid: keyword candidates scored at least a share of their best neighbouring candidate.
  const lift = mode === 'hybrid' ? (fusion.keywordContext ?? 0) : 0;
  const keywordRanked =
    lift > 0 ? liftByNeighbours(snapshot, p.keywordRanked.slice(0, COVERAGE_DEPTH), lift) : p.keywordRanked;
  let fused: Fused[];
  if (mode === 'keyword') {
    fused = keywordRanked
      .slice(0, depth)
      .map((h, i) => ({ ref: h.ref, score: h.score, kw: h.score, kwRank: i + 1, vec: null, vecRank: null }));
  } else if (mode === 'vector') {
    fused = vectorRanked
      .slice(0, depth)
      .map((h, i) => ({ ref: h.ref, score: h.score, kw: null, kwRank: null, vec: h.score, vecRank: i + 1 }));
  } else {
    const minCov = fusion.keywordCoverage ?? 0;
    const cov = (ref: string) => {
      const c = snapshot.chunks.get(ref);
      return c ? coverage(weights, c.text, c.title ?? c.docTitle ?? '', c.names ?? '', ...c.headingPath, ...c.tags) : 0;
    };
    // Coverage gate: the top-keyword bonus goes only to hits holding at least `keywordCoverage` of the
    // query's idf, so a match on one common word never jumps over strong semantic hits; there plain
    // RRF lets the vector ranking lead. (Scaling every keyword hit by its coverage measured worse on
    // the tuning half: hybrid R@10 0.673 against keyword's 0.715.)
    const kwList =
      minCov > 0
        ? keywordRanked.slice(0, COVERAGE_DEPTH).map((h) => {
            const c = cov(h.ref);
            return { ref: h.ref, score: h.score, bonus: c >= minCov };
          })
        : keywordRanked;
    const method = fusion.method ?? 'rrf';
    const conf = fusion.keywordConfidence ?? 'hit';
    let hits;
    if (method === 'score') {
      // Keyword hits weigh the share of the query's idf their chunk holds: a hit matching one common
      // word of a longer question is a weak keyword signal, and then the vector ranking leads.
      const priors = fusion.priors ?? DEFAULT_PRIORS;
      // Normalise by the best score before kinds were ranked down (priors.demoteKinds).
      const rawTop = (list: readonly { ref: string; score: number }[]) => {
        let top = 0;
        for (const h of list) {
          const c = snapshot.chunks.get(h.ref);
          const w = c ? kindWeight(c, priors) : 1;
          top = Math.max(top, w > 0 && h.score > 0 ? h.score / w : h.score);
        }
        return top;
      };
      const kwConf = keywordRanked.slice(0, COVERAGE_DEPTH);
      const topCov = conf === 'top' && kwConf.length ? Math.max(...kwConf.slice(0, 3).map((h) => cov(h.ref))) : 1;
      const kw = kwConf.map((h) => ({ ...h, weight: conf === 'hit' ? cov(h.ref) : topCov }));
      hits = scoreFusion(
        [
          { name: 'keyword', ranked: kw },
          { name: 'vector', ranked: vectorRanked },
        ],
        {
          weights: spreadWeights(fusion, p.vectorSpread),
          floors: { vector: fusion.minVectorScore ?? 0 },
          tops: { keyword: rawTop(keywordRanked), vector: rawTop(vectorRanked) },
          limit: depth,
        },
      );
    } else
      hits = reciprocalRankFusion(
        [
          { name: 'keyword', ranked: kwList },
          { name: 'vector', ranked: vectorRanked },
        ],
        { k: fusion.rrfK, weights: fusion.weights, topBonus: fusion.keywordBonus, limit: depth },
      );
    fused = hits.map((h) => ({
      ref: h.ref,
      score: h.score,
      kw: h.scores.keyword ?? null,
      kwRank: h.ranks.keyword ?? null,
      vec: h.scores.vector ?? null,
      vecRank: h.ranks.vector ?? null,
    }));
  }
  return fused;
}

/**
 * The list weights of score fusion with the vector weight scaled by how far the vector list's best
 * cosine stands above its `depth`-th (`recall.vectorSpread`): a query the embedding separates from the
 * pack gives the vectors more say, one whose top cosines are flat (the model cannot tell the chunks
 * apart) less. Half of the weight (share 0.5) stays fixed, so one spread never silences or doubles it
 * alone. Unchanged when the spread is unknown (fewer hits than `depth`) or the share is 0.
 */
export function spreadWeights(
  fusion: FusionSettings,
  spread: number | undefined,
): { keyword: number; vector: number } | undefined {
  const s = fusion.vectorSpread;
  if (!s || !(s.share > 0) || !(s.margin > 0) || spread === undefined) return fusion.weights;
  const base = fusion.weights ?? { keyword: 1, vector: 1 };
  return { ...base, vector: base.vector * (1 - s.share + (s.share * Math.max(0, spread)) / s.margin) };
}
