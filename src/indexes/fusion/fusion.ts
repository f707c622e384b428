// Reciprocal rank fusion of ranked lists (keyword, vector) with per-list weights, k = 60, an optional
// bonus for the top keyword hits, and a per-result trace for `--explain`. Pure: imports only the
// ranked-list order (indexes/fusion/ranked.ts).
import { compareHits } from './ranked.js';

/** One input list: best first. A ref appearing twice counts at its first (best) rank. */
export interface RankedList {
  /** List name, e.g. `keyword` or `vector`; the key of `ranks`/`scores` in the output. */
  readonly name: string;
  /**
   * `weight` (default 1) scales this hit's contribution, e.g. by how much of the query a keyword hit
   * covers; `bonus: false` keeps the hit out of the top-hit bonus (default: eligible).
   */
  readonly ranked: readonly {
    readonly ref: string;
    readonly score: number;
    readonly weight?: number;
    readonly bonus?: boolean;
  }[];
}

/**
 * Extra score for the first hits of one list, added on top of RRF. RRF alone gives rank 1 of one
 * list only 1/61 ≈ 0.016, so an exact keyword match that the vectors rank low falls behind
 * chunks both lists rank middling; a bonus of ~0.05 for keyword rank 1 keeps it on top.
 */
export interface TopBonus {
  /** Name of the list whose top hits get the bonus (usually `keyword`). */
  readonly list: string;
  /** `bonuses[i]` is added to the hit at rank i + 1 of that list; ranks past the end get nothing. */
  readonly bonuses: readonly number[];
}

/** The bonus used when {@link FusionOptions.topBonus} is `true`: keyword rank 1 +0.05, ranks 2–3 +0.02. */
export const DEFAULT_TOP_BONUS: TopBonus = { list: 'keyword', bonuses: [0.05, 0.02, 0.02] };

/** Options of {@link reciprocalRankFusion}. */
export interface FusionOptions {
  /** RRF constant: a hit at rank r contributes weight / (k + r). Default 60. */
  readonly k?: number;
  /** Weight per list name (default 1 each); 0 keeps a list in the trace but out of the score. */
  readonly weights?: Readonly<Record<string, number>>;
  /** Bonus for the top hits of one list; `true` means {@link DEFAULT_TOP_BONUS}. Default none. */
  readonly topBonus?: TopBonus | boolean;
  /** Keep only the best `limit` results. Default: all. */
  readonly limit?: number;
}

/** One fused result with its trace. */
export interface FusedHit {
  readonly ref: string;
  /** Σ weight · hit weight / (k + rank) over the lists holding `ref`, plus `bonus`. */
  readonly score: number;
  /** The top-hit bonus included in `score` (0 when none). */
  readonly bonus: number;
  /** 1-based rank in each list, null when absent. Every input list has a key. */
  readonly ranks: Record<string, number | null>;
  /** The list's own score for `ref`, null when absent. */
  readonly scores: Record<string, number | null>;
}

/**
 * Fuse ranked lists by reciprocal rank fusion. Deterministic: sorted by score descending, then by
 * ref ascending (a plain code-unit comparison).
 * @returns every ref found in any list (or the best `limit`), each with its per-list rank and score.
 */
export function reciprocalRankFusion(lists: readonly RankedList[], options: FusionOptions = {}): FusedHit[] {
  const k = options.k ?? 60;
  const bonus = options.topBonus === true ? DEFAULT_TOP_BONUS : options.topBonus || undefined;
  const byRef = new Map<
    string,
    { score: number; bonus: number; ranks: Record<string, number | null>; scores: Record<string, number | null> }
  >();
  const blank = () => {
    const ranks: Record<string, number | null> = {};
    const scores: Record<string, number | null> = {};
    for (const l of lists) {
      ranks[l.name] = null;
      scores[l.name] = null;
    }
    return { score: 0, bonus: 0, ranks, scores };
  };
  for (const list of lists) {
    const weight = options.weights?.[list.name] ?? 1;
    let rank = 0;
    for (const hit of list.ranked) {
      let entry = byRef.get(hit.ref);
      if (entry && entry.ranks[list.name] !== null) continue;
      rank++;
      if (!entry) {
        entry = blank();
        byRef.set(hit.ref, entry);
      }
      entry.ranks[list.name] = rank;
      entry.scores[list.name] = hit.score;
      entry.score += (weight * (hit.weight ?? 1)) / (k + rank);
      if (bonus && bonus.list === list.name && rank <= bonus.bonuses.length && hit.bonus !== false) {
        const b = bonus.bonuses[rank - 1] ?? 0;
        entry.bonus += b;
        entry.score += b;
      }
    }
  }
  const out: FusedHit[] = [...byRef].map(([ref, e]) => ({
    ref,
    score: e.score,
    bonus: e.bonus,
    ranks: e.ranks,
    scores: e.scores,
  }));
  out.sort(compareHits);
  return options.limit === undefined ? out : out.slice(0, Math.max(0, Math.floor(options.limit)));
}

/** Options of {@link scoreFusion}. */
export interface ScoreFusionOptions {
  /** Weight per list name (default 1 each). */
  readonly weights?: Readonly<Record<string, number>>;
  /**
   * Per list name: the score below which a hit counts as 0 after normalisation (e.g. the cosine floor
   * of the vector list). Default: 0 for every list.
   */
  readonly floors?: Readonly<Record<string, number>>;
  /**
   * Per list name: the score that normalises to 1 (default: the list's best score). Pass the best
   * score before a ranked-down kind was scaled, so a list of only ranked-down hits stays low.
   */
  readonly tops?: Readonly<Record<string, number>>;
  /** Keep only the best `limit` results. Default: all. */
  readonly limit?: number;
}

/**
 * Normalised score fusion (a convex combination of the lists' scores): every list's scores are
 * scaled into 0…1 by its best hit (`(score − floor) / (best − floor)`), multiplied by the hit's
 * `weight` (e.g. how much of the query a keyword hit covers), and summed with the list weights.
 * Unlike RRF it keeps the size of score gaps: a keyword hit far ahead of the next stays ahead, while
 * near-ties are decided by the other list; a list whose hits are all weak (low `weight`) cannot
 * outvote a strong hit of the other. Deterministic: ties by ref (code-unit order).
 * @returns every ref found in any list (or the best `limit`), with per-list ranks and raw scores.
 */
export function scoreFusion(lists: readonly RankedList[], options: ScoreFusionOptions = {}): FusedHit[] {
  const byRef = new Map<
    string,
    { score: number; ranks: Record<string, number | null>; scores: Record<string, number | null> }
  >();
  for (const list of lists) {
    const weight = options.weights?.[list.name] ?? 1;
    const floor = options.floors?.[list.name] ?? 0;
    const top = options.tops?.[list.name] ?? (list.ranked.length ? Math.max(...list.ranked.map((h) => h.score)) : 0);
    const span = top - floor;
    let rank = 0;
    for (const hit of list.ranked) {
      let entry = byRef.get(hit.ref);
      if (entry && entry.ranks[list.name] !== null && entry.ranks[list.name] !== undefined) continue;
      rank++;
      if (!entry) {
        entry = { score: 0, ranks: Object.fromEntries(lists.map((l) => [l.name, null])), scores: {} };
        for (const l of lists) entry.scores[l.name] = null;
        byRef.set(hit.ref, entry);
      }
      entry.ranks[list.name] = rank;
      entry.scores[list.name] = hit.score;
      const norm = span > 0 ? Math.max(0, Math.min(1, (hit.score - floor) / span)) : hit.score > floor ? 1 : 0;
      entry.score += weight * (hit.weight ?? 1) * norm;
    }
  }
  const out: FusedHit[] = [...byRef].map(([ref, e]) => ({
    ref,
    score: e.score,
    bonus: 0,
    ranks: e.ranks,
    scores: e.scores,
  }));
  out.sort(compareHits);
  return options.limit === undefined ? out : out.slice(0, Math.max(0, Math.floor(options.limit)));
}
