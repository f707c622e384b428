// Reciprocal rank fusion of ranked lists (keyword, vector) with per-list weights, k = 60, an optional
// bonus for the top keyword hits, and a per-result trace for `--explain`. Pure: no imports.

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
  out.sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  return options.limit === undefined ? out : out.slice(0, Math.max(0, Math.floor(options.limit)));
}
