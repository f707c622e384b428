// Query orchestration: parse the query, keyword search, metadata filters, bounded snippets, the
// recall JSON of docs/DESIGN.md §8. Vector and hybrid modes report `degraded` until an embedder exists.
// deps: core, indexes.
import { DEFAULT_CONFIG } from '../../core/config.js';
import type { DocKind } from '../../core/document.js';
import { DOC_KINDS } from '../../core/document.js';
import { matchesAny } from '../../core/glob.js';
import { makeSnippet } from '../../indexes/snippet.js';
import { tokenize } from '../../indexes/tokenize.js';
import { reciprocalRankFusion, scoreFusion } from '../../indexes/fusion.js';
import { feedbackTerms } from '../../indexes/feedback.js';
import { stemOf } from '../../indexes/lexical.js';
import { coverage, pickEvidence, queryWeights } from '../../indexes/evidence.js';
import { renderContextBlock, type ContextItem } from './context-block.js';
import { checkRecallFilters } from '../shared/inputs.js';
import type { ChunkRecord, IndexSnapshot } from '../../engine/index-manager.js';
import { dayOf, expiryOf, supersededBy, supersededIds, type Expiry } from './truth.js';
import {
  applyPriors,
  DEFAULT_PRIORS,
  demoteKinds,
  hiddenReason,
  kindWeight,
  priorContext,
  type PriorSettings,
} from './priors.js';

export type RecallMode = 'keyword' | 'vector' | 'hybrid';

export interface RecallOptions {
  readonly mode?: RecallMode;
  readonly types?: readonly string[];
  readonly tags?: readonly string[];
  readonly kinds?: readonly string[];
  /** Glob over entries' linked code `files`. */
  readonly file?: string;
  /** Inclusive ISO date bounds on the chunk's date (entry `created`, daily-note date). */
  readonly since?: string;
  readonly until?: string;
  /** Default 10, clamped to 1…50. */
  readonly limit?: number;
  /** Snippet cap in characters (default 320). */
  readonly snippetChars?: number;
  /** Include superseded, archived, duplicate and inactive memories. */
  readonly includeHidden?: boolean;
  /** Add per-result ranks to `explain`. */
  readonly explain?: boolean;
  /** Render the results as a `### Recalled Context` block within this many UTF-8 bytes. */
  readonly budget?: number;
  /** Called while chunks that changed since the last run are embedded before answering. */
  readonly onEmbedProgress?: (done: number, total: number) => void;
  /** Only memories written by this agent (entry `source.agent`, case-insensitive). */
  readonly agent?: string;
  /** The day expiry is judged against (`valid_until`, `review_after`); default today (UTC). */
  readonly now?: Date;
  /** Lines of surrounding context to add around each evidence span (`contextSpan`); default none. */
  readonly context?: number;
}

/**
 * One recall hit. Lines are 1-based and inclusive: `startLine`–`endLine` is the evidence span (the
 * line or run of lines of the retrieved chunk that best matches the query; the whole chunk when no
 * line holds a query word), `chunk` the retrieved chunk, `contextSpan` the span with `context` lines
 * around it (only when asked for).
 */
export interface RecallResult {
  path: string;
  startLine: number;
  endLine: number;
  chunk: { startLine: number; endLine: number };
  contextSpan?: { startLine: number; endLine: number; text: string };
  headingPath: string[];
  kind: DocKind;
  snippet: string;
  score: number;
  scores: { keyword: number | null; vector: number | null };
  entry?: { id: string; type: string | null; tags: string[] };
  /** The commit that last changed these lines (with `--lineage`, in a git repository). */
  lineage?: { commit: string; author: string; date: string };
  /** Why the memory is normally hidden (only with `includeHidden` / `--all`). */
  hidden?: 'superseded' | 'archived' | 'duplicate' | 'inactive';
  /** Ids of the newer entries that list this one in `supersedes:` (only with `--all`). */
  supersededBy?: string[];
  /** The `valid_until` / `review_after` date that has passed; the hit was ranked down. */
  expired?: Expiry;
  explain?: {
    keywordRank: number | null;
    keywordScore: number | null;
    vectorRank: number | null;
    vectorScore: number | null;
  };
}

export interface RecallResponse {
  query: string;
  mode: RecallMode;
  degraded: string | null;
  tookMs: number;
  results: RecallResult[];
  /** Set when the query had no usable terms. */
  hint?: string;
  /** With `budget`: the rendered context block for an agent's prompt. */
  context?: { text: string; items: number; bytes: number; budget: number };
}

export const MAX_LIMIT = 50;

/** Clamp a user limit into 1…50 (default 10). */
export function clampLimit(limit: number | undefined, fallback = 10): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
}

type Filters = Required<Pick<RecallOptions, 'types' | 'tags' | 'kinds'>> &
  RecallOptions & { readonly superseded: ReadonlyMap<string, readonly string[]> };

function accept(c: ChunkRecord, f: Filters): boolean {
  if (hiddenReason(c, f.superseded) && !f.includeHidden) return false;
  if (f.kinds.length && !f.kinds.includes(c.kind)) return false;
  if (f.types.length && !(c.entry?.type && f.types.includes(c.entry.type))) return false;
  if (f.tags.length && !f.tags.some((t) => c.tags.includes(t))) return false;
  if (f.agent && (c.agent ?? '').toLowerCase() !== f.agent.trim().toLowerCase()) return false;
  if (f.file) {
    const files = c.files ?? [];
    const glob = f.file.replace(/^\.\//, '');
    if (!files.some((p) => matchesAny(p.replace(/^\.\//, ''), [glob, `**/${glob}`]))) return false;
  }
  if (f.since || f.until) {
    // Day granularity: compare the YYYY-MM-DD prefixes of ISO dates and date-times.
    if (!c.date) return false;
    const d = c.date.slice(0, 10);
    if (f.since && d < f.since.trim().slice(0, 10)) return false;
    if (f.until && d > f.until.trim().slice(0, 10)) return false;
  }
  return true;
}

/** The vector half, as the recall orchestration sees it (engine/semantic.ts implements it). */
export interface VectorSearch {
  /** @returns nearest embedding keys best first, or undefined when semantic recall is unavailable. */
  search(
    query: string,
    k: number,
    accept?: (key: string) => boolean,
  ): Promise<{ ref: string; score: number }[] | undefined>;
  /** Why semantic recall is off (undefined when available). */
  readonly unavailable: string | undefined;
}

/** Fusion settings (config `recall`). */
export interface FusionSettings {
  readonly weights: { readonly keyword: number; readonly vector: number };
  readonly rrfK: number;
  readonly keywordBonus: boolean;
  readonly singleTokenKeyword: boolean;
  /** Drop vector hits whose cosine is below this. */
  readonly minVectorScore?: number;
  /** The top-keyword bonus goes only to hits whose chunk holds at least this share of the query's idf (0: every top hit). */
  readonly keywordCoverage?: number;
  /** Ranking priors (service/recall/priors.ts). */
  readonly priors?: PriorSettings;
  /** A neighbouring line joins the evidence span when it scores at least this share of the best line. */
  readonly evidenceJoin?: number;
  /** Hybrid fusion: `score` (normalised score fusion weighted by keyword coverage, default) or `rrf`. */
  readonly method?: 'rrf' | 'score';
  /** Score fusion: scale each keyword hit by the share of the query's idf it covers (`hit`), by the best hit's (`top`), or not (`none`). */
  readonly keywordConfidence?: 'none' | 'top' | 'hit';
  /** Multi-hop second pass: words the first keyword results share (pseudo-relevance feedback); 0 = off. */
  readonly feedbackTerms?: number;
  /** Weight of the second pass's (normalised) scores added to the first pass's. */
  readonly feedbackWeight?: number;
}

const DEFAULT_FUSION: FusionSettings = {
  weights: DEFAULT_CONFIG.recall.weights,
  rrfK: DEFAULT_CONFIG.recall.rrfK,
  keywordBonus: DEFAULT_CONFIG.recall.keywordBonus,
  singleTokenKeyword: DEFAULT_CONFIG.recall.singleTokenKeyword,
  minVectorScore: DEFAULT_CONFIG.recall.minVectorScore,
  keywordCoverage: DEFAULT_CONFIG.recall.keywordCoverage,
  priors: DEFAULT_PRIORS,
  evidenceJoin: DEFAULT_CONFIG.recall.evidenceJoin,
  method: DEFAULT_CONFIG.recall.fusion,
  keywordConfidence: DEFAULT_CONFIG.recall.keywordConfidence,
};

/**
 * Recall over `snapshot`: keyword (lunr BM25), vector (exact cosine) or hybrid (by default normalised
 * score fusion, `recall.fusion`; or reciprocal rank fusion plus a bonus for the top keyword hits).
 * Never throws on user text: operator characters are
 * handled by the lexical query parser; a query with no usable terms gives no results and a `hint`.
 * When the vector half is unavailable the answer is keyword-only with `degraded: "<reason>"`.
 */
export async function recall(
  snapshot: IndexSnapshot,
  query: string,
  options: RecallOptions = {},
  vector?: VectorSearch,
  fusion: FusionSettings = DEFAULT_FUSION,
  notes: { degraded?: string } = {},
): Promise<RecallResponse> {
  const p = plan(snapshot, query, options, vector, fusion);
  if (p.mode !== 'keyword' && p.hasWords) {
    const byKey = snapshot.byVectorKey?.() ?? keyMap(snapshot);
    const acceptKey = (key: string) => (byKey.get(key) ?? []).some((id) => accept(snapshot.chunks.get(id)!, p.filters));
    const hits = await vector!.search(query, Math.max(100, p.limit * 10), acceptKey);
    if (hits === undefined) {
      p.degraded = vector!.unavailable ?? 'semantic recall failed';
      p.mode = 'keyword';
    } else {
      for (const h of hits) {
        if (h.score < (fusion.minVectorScore ?? -1)) break; // best first: the rest are lower
        for (const id of byKey.get(h.ref) ?? []) {
          if (accept(snapshot.chunks.get(id)!, p.filters)) p.vectorRanked.push({ ref: id, score: h.score });
        }
      }
      demoteKinds(p.vectorRanked, snapshot.chunks, fusion.priors ?? DEFAULT_PRIORS);
    }
  }
  if (notes.degraded && p.mode !== 'keyword' && !p.degraded) p.degraded = notes.degraded;
  return finish(snapshot, query, options, fusion, p);
}

/** Keyword-only recall, synchronous (used where no embedder exists, e.g. recall as of a commit). */
export function recallKeyword(snapshot: IndexSnapshot, query: string, options: RecallOptions = {}): RecallResponse {
  const p = plan(snapshot, query, { ...options, mode: 'keyword' });
  return finish(snapshot, query, options, DEFAULT_FUSION, p);
}

/** Most lines in an evidence span (the default chunk size). */
const EVIDENCE_MAX_LINES = 5;
/** How many fused hits the priors may reorder before the list is cut to `limit`. */
const PRIOR_DEPTH = 3;
/** Keyword hits whose coverage is computed (deeper hits add little to fusion). */
const COVERAGE_DEPTH = 200;

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
  const second = snapshot.lexical.search(snapshot.lexical.parseQuery(words.join(' ')), 200);
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
  out.sort((a, b) => b.score - a.score || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  ranked.length = 0;
  ranked.push(...out);
}

function keyMap(snapshot: IndexSnapshot): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const c of snapshot.chunks.values()) if (c.vkey) m.set(c.vkey, [...(m.get(c.vkey) ?? []), c.id]);
  return m;
}

interface Plan {
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
  readonly vectorRanked: { ref: string; score: number }[];
}

function plan(
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
    if (!vector || vector.unavailable) {
      degraded = vector?.unavailable ?? 'semantic recall is not available';
      mode = 'keyword';
    } else if (requested === 'hybrid' && fusion.singleTokenKeyword && parsed.terms.length === 1 && !parsed.empty) {
      // One exact token: embeddings of a lone word are weak; the keyword index answers exactly.
      mode = 'keyword';
    }
  }

  // Keyword list: every match, filtered on chunk metadata.
  const keywordRanked: { ref: string; score: number }[] = [];
  if (!parsed.empty) {
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
    let hits = snapshot.lexical.search(parsed, k);
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
      hits = snapshot.lexical.search(parsed);
      collect();
    }
    demoteKinds(keywordRanked, snapshot.chunks, priors);
    if ((fusion.feedbackTerms ?? 0) > 0 && snapshot.lexical.idf)
      secondPass(snapshot, parsed, keywordRanked, fusion, (c) => accept(c, filters));
  } else if (onlyFilters && mode === 'keyword') {
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
    vectorRanked: [],
  };
}

function finish(
  snapshot: IndexSnapshot,
  query: string,
  options: RecallOptions,
  fusion: FusionSettings,
  p: Plan,
): RecallResponse {
  const { t0, parsed, limit, qTokens, onlyFilters, hasWords, mode, degraded, keywordRanked, vectorRanked } = p;
  const idf = snapshot.lexical.idf ? (t: string) => snapshot.lexical.idf!(t) : undefined;
  const weights = queryWeights(qTokens.length ? qTokens : tokenize(query), idf);
  const depth = limit * PRIOR_DEPTH;
  type Fused = {
    ref: string;
    score: number;
    kw: number | null;
    kwRank: number | null;
    vec: number | null;
    vecRank: number | null;
  };
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
          weights: fusion.weights,
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
  if (!onlyFilters) {
    fused = applyPriors(fused, (ref) => snapshot.chunks.get(ref), fusion.priors ?? DEFAULT_PRIORS, {
      ...priorContext(query, p.today),
      headingMatch: (c) => coverage(weights, c.headingPath[c.headingPath.length - 1] ?? ''),
    });
  }
  // With a budget the packer also draws on the hits just below `limit` (not returned).
  const pool = fused.slice(0, options.budget !== undefined ? Math.max(limit, PACK_DEPTH) : limit);

  const results: RecallResult[] = [];
  const packed: ContextItem[] = [];
  const round = (x: number | null) => (x === null ? null : Number(x.toFixed(6)));
  for (const [rank, f] of pool.entries()) {
    const c = snapshot.chunks.get(f.ref);
    if (!c) continue;
    const by = supersededBy(c, p.filters.superseded);
    const expired = c.validUntil || c.reviewAfter ? expiryOf(c, p.today) : undefined;
    const lines = c.text.split('\n');
    const ev = pickEvidence(weights, c.startLine, lines, {
      joinRatio: fusion.evidenceJoin ?? 0.4,
      maxLines: Math.min(EVIDENCE_MAX_LINES, c.endLine - c.startLine + 1),
    });
    const evText = lines.slice(ev.startLine - c.startLine, ev.endLine - c.startLine + 1).join('\n');
    // A hard-split piece of one long line: the chunk is one file line.
    const endLine = Math.min(ev.endLine, c.endLine);
    const item = { path: c.path, startLine: ev.startLine, endLine, headingPath: c.headingPath, text: evText };
    if (options.budget !== undefined)
      packed.push({ ...item, around: linesAround(snapshot, c, c.startLine, c.endLine, PACK_AROUND) });
    if (rank >= limit) continue;
    results.push({
      path: c.path,
      startLine: ev.startLine,
      endLine,
      chunk: { startLine: c.startLine, endLine: c.endLine },
      ...(options.context !== undefined
        ? { contextSpan: contextSpan(snapshot, c, ev.startLine, endLine, options.context) }
        : {}),
      headingPath: [...c.headingPath],
      kind: c.kind,
      snippet: makeSnippet(evText, qTokens.length ? qTokens : tokenize(query), options.snippetChars ?? 320),
      score: round(f.score)!,
      scores: { keyword: round(f.kw), vector: round(f.vec) },
      ...(c.entry ? { entry: { id: c.entry.id, type: c.entry.type, tags: [...c.entry.tags] } } : {}),
      ...(hiddenReason(c, p.filters.superseded) ? { hidden: hiddenReason(c, p.filters.superseded)! } : {}),
      ...(by ? { supersededBy: [...by] } : {}),
      ...(expired ? { expired } : {}),
      ...(options.explain
        ? {
            explain: {
              keywordRank: f.kwRank,
              keywordScore: round(f.kw),
              vectorRank: f.vecRank,
              vectorScore: round(f.vec),
            },
          }
        : {}),
    });
  }
  const hint =
    results.length === 0 && parsed.empty && !onlyFilters && !(mode !== 'keyword' && hasWords)
      ? 'the query has no searchable words; try plain words, e.g. gitmem recall "postgres pool"'
      : undefined;
  const context =
    options.budget !== undefined
      ? { ...renderContextBlock(packed, options.budget, { terms: weights }), budget: options.budget }
      : undefined;
  return {
    query,
    mode,
    degraded,
    tookMs: Number((performance.now() - t0).toFixed(2)),
    results,
    ...(hint ? { hint } : {}),
    ...(context ? { context } : {}),
  };
}

/** How many fused hits the context-block packer draws on (the returned `limit` or more). */
const PACK_DEPTH = 20;
/** Lines around each retrieved chunk that also compete for the context block. */
const PACK_AROUND = 2;

/** Lines `n` around the evidence span, from the chunks of the same file (headings and blank lines between chunks are not chunk text). */
function contextSpan(
  snapshot: IndexSnapshot,
  c: ChunkRecord,
  start: number,
  end: number,
  n: number,
): { startLine: number; endLine: number; text: string } {
  const lines = linesAround(snapshot, c, start, end, n);
  return {
    startLine: lines[0]?.line ?? start,
    endLine: lines[lines.length - 1]?.line ?? end,
    text: lines.map((l) => l.text).join('\n'),
  };
}

/** Chunk text lines from `start - n` to `end + n` of `c`'s file, in line order (lines no chunk holds are absent). */
function linesAround(
  snapshot: IndexSnapshot,
  c: ChunkRecord,
  start: number,
  end: number,
  n: number,
): { line: number; text: string }[] {
  const want = Math.max(0, Math.floor(n));
  const from = Math.max(1, start - want);
  const to = end + want;
  const byLine = new Map<number, string>();
  const take = (r: ChunkRecord) =>
    r.text.split('\n').forEach((t, i) => {
      const l = r.startLine + i;
      if (l >= from && l <= to && !byLine.has(l)) byLine.set(l, t);
    });
  take(c);
  // Neighbouring chunks of the same file: ids are `path#line`, so probe the lines in the window.
  for (let l = Math.max(1, from - 10); l <= to; l++) {
    const r = snapshot.chunks.get(`${c.path}#${l}`);
    if (r && r.path === c.path) take(r);
  }
  return [...byLine.keys()].sort((a, b) => a - b).map((line) => ({ line, text: byLine.get(line)! }));
}

/** @returns the kinds accepted by `--kind` (for usage errors). */
export function isDocKind(k: string): k is DocKind {
  return (DOC_KINDS as readonly string[]).includes(k);
}
