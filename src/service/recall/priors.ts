// Ranking priors: the one place that decides what recall hides and how a result's kind, date and the
// dates a query names move it. Every prior is a score multiplier configured in gitmem.config.json
// (`recall.priors`) and measured in `npm run bench:locomo` (README). deps: core, indexes/query/query-dates.
import { DEFAULT_CONFIG } from '../../core/config.js';
import type { DocKind } from '../../core/document.js';
import {
  asksWhen,
  inRanges,
  mentionsTime,
  parseDay,
  queryDates,
  type DayRange,
} from '../../indexes/query/query-dates.js';
import { compareHits } from '../../indexes/fusion/ranked.js';
import type { ChunkRecord } from '../../engine/chunks/index-manager.js';
import { dayOf, EXPIRED_FACTOR, expiryOf, supersededBy } from './truth.js';

/** Config `recall.priors`. */
export interface PriorSettings {
  /** Score multiplier per document kind (missing kinds: 1). */
  readonly kinds: Readonly<Partial<Record<DocKind, number>>>;
  /** Daily notes: up to this share is added for the newest date among the candidates (a tie-breaker). */
  readonly recency: number;
  /** Multiplier for a result dated inside a date range the query names ("in May 2023", "last week"). */
  readonly dateBoost: number;
  /** Multiplier for a result whose text states a time, when the query asks for one ("when did …"). */
  readonly whenBoost?: number;
  /**
   * A result under a heading that names the query ranks up by 1 + headingBoost × the share of the
   * query's idf its own (deepest) heading holds: the section is about what was asked.
   */
  readonly headingBoost?: number;
}

/**
 * Defaults (core/config.ts). DREAMS.md holds machine-written proposals that are not yet memory: at
 * 0.1 they rank below MEMORY.md, entries and notes that match at all. Recency is a tie-breaker only (2 %). A date the query names
 * doubles the score of results from that day or range.
 */
export const DEFAULT_PRIORS: PriorSettings = DEFAULT_CONFIG.recall.priors;

/**
 * Why a chunk is hidden from default recall (superseded, archived, duplicate, inactive), or undefined.
 * `superseded` (service/recall/truth.ts supersededIds) adds entries that a newer entry lists in `supersedes:`.
 */
export function hiddenReason(
  c: ChunkRecord,
  superseded?: ReadonlyMap<string, readonly string[]>,
): ChunkRecord['hidden'] {
  if (c.hidden) return c.hidden;
  return superseded && supersededBy(c, superseded) ? 'superseded' : undefined;
}

/** The kind multiplier of a chunk (1 when its kind has none). */
export function kindWeight(c: ChunkRecord, settings: PriorSettings): number {
  return settings.kinds[c.kind] ?? 1;
}

/**
 * Scale one ranked list (keyword or vector) by the kind multipliers and re-sort it, before fusion,
 * so a ranked-down kind (DREAMS.md) also loses its ranks. Cosines may be negative: scaled towards worse.
 */
export function demoteKinds(
  ranked: { ref: string; score: number }[],
  chunks: ReadonlyMap<string, ChunkRecord>,
  settings: PriorSettings,
): void {
  let touched = false;
  for (let i = 0; i < ranked.length; i++) {
    const h = ranked[i]!;
    const c = chunks.get(h.ref);
    const w = c ? kindWeight(c, settings) : 1;
    if (w !== 1 && w > 0) {
      ranked[i] = { ...h, score: h.score >= 0 ? h.score * w : h.score / w };
      touched = true;
    }
  }
  if (touched) ranked.sort((a, b) => b.score - a.score);
}

/** Per-query context of the priors: the date ranges the query names. */
export interface PriorContext {
  readonly ranges: readonly DayRange[];
  /** Today (YYYY-MM-DD): entries past `valid_until` / `review_after` rank down (× EXPIRED_FACTOR). */
  readonly today?: string;
  /** The query asks for a time ("when did …"): results that state one rank up (`whenBoost`). */
  readonly asksWhen?: boolean;
  /** Share (0…1) of the query's idf that a chunk's own heading holds (for `headingBoost`). */
  readonly headingMatch?: (c: ChunkRecord) => number;
}

/**
 * Resolve the dates a query names against `now` (YYYY-MM-DD or ISO date-time; default today, UTC).
 * @returns the ranges found (empty when none, or when `now` is not a date).
 */
export function priorContext(query: string, now?: string): PriorContext {
  const ref = now !== undefined ? parseDay(now) : parseDay(new Date().toISOString());
  const when = asksWhen(query);
  return ref === undefined
    ? { ranges: [], asksWhen: when }
    : { ranges: queryDates(query, ref), today: dayOf(now ?? new Date()), asksWhen: when };
}

/**
 * Apply the date priors (daily-note recency, dates the query names) to fused hits and re-sort them
 * (ties by ref). The kind multipliers were applied to each list before fusion ({@link demoteKinds}).
 * @param hits best first, with positive scores.
 * @returns new hits, best first; `prior` is the multiplier applied.
 */
export function applyPriors<T extends { ref: string; score: number }>(
  hits: readonly T[],
  chunk: (ref: string) => ChunkRecord | undefined,
  settings: PriorSettings,
  ctx: PriorContext,
): (T & { prior: number })[] {
  const daily = hits
    .map((h) => chunk(h.ref))
    .filter((c) => c?.kind === 'daily' && c.date)
    .map((c) => c!.date!.slice(0, 10));
  let oldest = '';
  let newest = '';
  for (const d of daily) {
    if (!oldest || d < oldest) oldest = d;
    if (!newest || d > newest) newest = d;
  }
  const span = oldest && newest ? parseDay(newest)! - parseDay(oldest)! : 0;
  const out = hits.map((h) => {
    const c = chunk(h.ref);
    let prior = 1;
    if (c) {
      if (c.kind === 'daily' && c.date && span > 0 && settings.recency) {
        prior *= 1 + settings.recency * ((parseDay(c.date.slice(0, 10))! - parseDay(oldest)!) / span);
      }
      if (ctx.ranges.length && settings.dateBoost !== 1 && inRanges(c.date, ctx.ranges)) prior *= settings.dateBoost;
      if (settings.headingBoost && ctx.headingMatch && c.headingPath.length)
        prior *= 1 + settings.headingBoost * ctx.headingMatch(c);
      if (ctx.asksWhen && settings.whenBoost && settings.whenBoost !== 1 && mentionsTime(c.text))
        prior *= settings.whenBoost;
      if (ctx.today && (c.validUntil || c.reviewAfter) && expiryOf(c, ctx.today)) prior *= EXPIRED_FACTOR;
    }
    return { ...h, score: h.score * prior, prior };
  });
  out.sort(compareHits);
  return out;
}
