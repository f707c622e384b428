// The candidate lists of a recall: the query parsed, the filters built, the mode decided, the
// keyword list (top-k first, widened when filters or priors need it) and the optional second pass.
// deps: core, engine (types), indexes, service/recall.
import { feedbackTerms } from '../../indexes/query/feedback.js';
import { stemOf } from '../../indexes/lexical/lexical.js';
import { compareHits } from '../../indexes/fusion/ranked.js';
import type { ChunkRecord, IndexSnapshot } from '../../engine/chunks/index-manager.js';
import { checkRecallFilters } from '../shared/inputs.js';
import { accept, type Filters } from './filters.js';
import { DEFAULT_PRIORS, demoteKinds, kindWeight } from './priors.js';
import { dayOf, supersededIds } from './truth.js';
import {
  clampLimit,
  DEFAULT_FUSION,
  type FusionSettings,
  type RecallMode,
  type RecallOptions,
  type VectorSearch,
} from './types.js';

/** How many fused hits the priors may reorder before the list is cut to `limit`. */
export const PRIOR_DEPTH = 3;

/** Results whose words feed the second pass. */
const FEEDBACK_DEPTH = 3;

/**
 * Pseudo-relevance feedback: search again for the words the first results share (not in the query)
 * and add the second pass's normalised scores, times `feedbackWeight`, to the first's (normalised).
 * A multi-hop question names one hop; its first results name the next.
 */
function secondPass(
  snapshot: IndexSnapshot,
  parsed: Plan['parsed'],
  ranked: { ref: string; score: number }[],
  fusion: FusionSettings,
  ok: (c: ChunkRecord) => boolean,
): void {
  if (ranked.length === 0) return;
  const stems = new Set(parsed.terms.flatMap((t) => t.tokens.map((x) => stemOf(x))));
  const texts = ranked.slice(0, FEEDBACK_DEPTH).map((h) => snapshot.chunks.get(h.ref)?.text ?? '');
  const words = feedbackTerms(texts, stems, (t) => snapshot.lexical.idf!(t), fusion.feedbackTerms ?? 0);
  if (words.length === 0) return;
  const second = snapshot.lexical.search(snapshot.lexical.parseQuery(words.join(' ')), 200, fusion.bm25);
  const top1 = ranked[0]!.score || 1;
  const top2 = second[0]?.score || 1;
  const beta = fusion.feedbackWeight ?? 0.3;
  const by = new Map(ranked.map((h) => [h.ref, h.score / top1]));
  for (const h of second) {
    const c = snapshot.chunks.get(h.ref);
    if (!c || !ok(c)) continue;
    by.set(h.ref, (by.get(h.ref) ?? 0) + (beta * h.score) / top2);
  }
  const out = [...by].map(([ref, score]) => ({ ref, score: score * top1 }));
  out.sort(compareHits);
  ranked.length = 0;
  ranked.push(...out);
}

export function keyMap(snapshot: IndexSnapshot): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const c of snapshot.chunks.values()) if (c.vkey) m.set(c.vkey, [...(m.get(c.vkey) ?? []), c.id]);
  return m;
}

export interface Plan {
  readonly t0: number;
  readonly parsed: ReturnType<IndexSnapshot['lexical']['parseQuery']>;
  readonly filters: Filters;
  readonly today: string;
  readonly limit: number;
  readonly qTokens: string[];
  readonly onlyFilters: boolean;
  readonly hasWords: boolean;
  mode: RecallMode;
  degraded: string | null;
  readonly keywordRanked: { ref: string; score: number }[];
  /** Vector mode: fills {@link keywordRanked}, left empty by {@link plan}, for a fallback to keyword. */
  readonly fillKeyword?: () => void;
  readonly vectorRanked: { ref: string; score: number }[];
  /** Hybrid: the best cosine minus the `recall.vectorSpread.depth`-th (undefined with fewer hits). */
  vectorSpread?: number;
}

export function plan(
  snapshot: IndexSnapshot,
  query: string,
  options: RecallOptions,
  vector?: VectorSearch,
  fusion: FusionSettings = DEFAULT_FUSION,
): Plan {
  const t0 = performance.now();
  const requested: RecallMode = options.mode ?? 'hybrid';
  const parsed = snapshot.lexical.parseQuery(query);
  const lower = (xs: readonly string[] | undefined) => (xs ?? []).map((x) => x.trim().toLowerCase()).filter(Boolean);
  const filters = {
    ...options,
    types: [...lower(options.types), ...lower(parsed.filters.type)],
    tags: [...lower(options.tags), ...lower(parsed.filters.tag)].map((t) => t.replace(/^#/, '')),
    kinds: [...lower(options.kinds), ...lower(parsed.filters.kind)],
    superseded: supersededIds(snapshot),
  };
  // The same check for flags, in-query filters and every interface (CLI, MCP, LSP).
  checkRecallFilters(filters);
  const today = dayOf(options.now ?? new Date());
  const limit = clampLimit(options.limit);
  const qTokens = parsed.terms.map((t) => t.text);
  const onlyFilters = parsed.empty && (filters.types.length > 0 || filters.tags.length > 0 || filters.kinds.length > 0);
  const hasWords = /[\p{L}\p{N}]/u.test(query.replace(/\b(?:type|tag|kind):\S*/g, ''));

  let mode: RecallMode = requested;
  let degraded: string | null = null;
  if (requested !== 'keyword') {
    // Filters alone (`type:decision`) list by metadata: no words to embed or rank, so every mode
    // answers as keyword mode does (before, hybrid found 0 where keyword found them; R32).
    if (onlyFilters) mode = 'keyword';
    else if (!vector || vector.unavailable) {
      degraded = vector?.unavailable ?? 'semantic recall is not available';
      mode = 'keyword';
    } else if (requested === 'hybrid' && fusion.singleTokenKeyword && parsed.terms.length === 1 && !parsed.empty) {
      // One exact token: embeddings of a lone word are weak; the keyword index answers exactly.
      mode = 'keyword';
    }
  }

  // Keyword list: every match, filtered on chunk metadata.
  const keywordRanked: { ref: string; score: number }[] = [];
  const fillKeyword = () => {
    if (parsed.empty) return;
    // Top-k first (ranking every match costs tens of ms on 50k chunks); widen to every match only
    // when metadata filters or hidden memories leave too few. Fusion needs some depth past `limit`.
    const want = mode === 'keyword' ? limit * PRIOR_DEPTH : Math.max(limit * 10, 200);
    const filtered =
      filters.types.length > 0 ||
      filters.tags.length > 0 ||
      filters.kinds.length > 0 ||
      !!filters.file ||
      !!filters.since ||
      !!filters.until ||
      !!filters.agent;
    const k = filtered ? undefined : want * 2;
    let hits = snapshot.lexical.search(parsed, k, fusion.bm25);
    const collect = () => {
      keywordRanked.length = 0;
      for (const h of hits) {
        const c = snapshot.chunks.get(h.ref);
        if (c && accept(c, filters)) keywordRanked.push(h);
      }
    };
    collect();
    const priors = fusion.priors ?? DEFAULT_PRIORS;
    // A kind the priors rank down (DREAMS.md) may fill the top k: then rank every match, so the
    // memory below them is still found.
    const demoted = keywordRanked.some((h) => kindWeight(snapshot.chunks.get(h.ref)!, priors) < 1);
    if (k !== undefined && hits.length === k && (keywordRanked.length < want || demoted)) {
      hits = snapshot.lexical.search(parsed, undefined, fusion.bm25);
      collect();
    }
    demoteKinds(keywordRanked, snapshot.chunks, priors);
    if ((fusion.feedbackTerms ?? 0) > 0 && snapshot.lexical.idf)
      secondPass(snapshot, parsed, keywordRanked, fusion, (c) => accept(c, filters));
  };
  // Vector mode ranks by cosine alone: its keyword list (a BM25 pass over every match, most of a
  // vector recall's time at 500k chunks) is made only if the query cannot be embedded (keyword fallback).
  if (mode !== 'vector') fillKeyword();
  if (parsed.empty && onlyFilters && mode === 'keyword') {
    for (const c of snapshot.chunks.values()) if (accept(c, filters)) keywordRanked.push({ ref: c.id, score: 0 });
  }

  return {
    t0,
    parsed,
    filters,
    today,
    limit,
    qTokens,
    onlyFilters,
    hasWords,
    mode,
    degraded,
    keywordRanked,
    ...(mode === 'vector' ? { fillKeyword } : {}),
    vectorRanked: [],
  };
}
