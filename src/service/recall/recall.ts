// The recall use case and its orchestration: bring the index up to date, parse the query, keyword
// and vector candidates, fusion, priors, evidence spans, bounded snippets and the context block, the
// recall JSON. Vector and hybrid modes report `degraded` while no embedder answers.
// deps: core, engine (types), indexes, service/recall, service/shared (types).
import { tokenize } from '../../core/tokenize.js';
import { parseQuery, queryTokens } from '../../indexes/query/query.js';
import { checkRecallRequest } from '../shared/inputs.js';
import { coverage, queryWeights } from '../../indexes/evidence/evidence.js';
import { renderContextBlock, type ContextItem } from './context-block.js';
import type { IndexSnapshot } from '../../engine/chunks/index-manager.js';
import { supersededBy } from './truth.js';
import { applyPriors, DEFAULT_PRIORS, priorContext } from './priors.js';
import { accept } from './filters.js';
import { keyMap, plan, PRIOR_DEPTH, type Plan } from './candidates.js';
import { fuse } from './fuse.js';
import { fillVectorRanked } from './vector-list.js';
import { conflictViewOf, evidenceOf, packedItemOf, resultOf, type HitScope } from './hit-result.js';
import { currentFirst } from './current-first.js';
import { nearInMeaning } from './meaning-link.js';
import { asksHistory, newerFirst, restatements, subjectOf, versionsInDateOrder } from './restatement.js';
import { queryEmbedTexts } from './query-embed.js';
import { demoteStale, recallWithCodeCheck } from '../trust/recall-code.js';
import { applyConflictLabels, labelConflicts, type ConflictView } from '../trust/conflicts.js';
import { maskItemNames, maskResultNames } from '../trust/shown-names.js';
import { oversizedNote } from './skipped-files.js';
import { sparseNote } from './sparse-note.js';
import type { MemoryContext } from '../shared/memory-context.js';
import {
  DEFAULT_FUSION,
  fusionOf,
  type FusionSettings,
  type RecallOptions,
  type RecallResponse,
  type RecallResult,
  type VectorSearch,
} from './types.js';

/**
 * Recall in an opened workspace (what `gitmem recall`, MCP and the language server answer): bring
 * the index up to date with the files (a stat walk; with `manual` freshness the last snapshot),
 * embed what changed since the last run (at most `recall.inlineEmbedLimit` chunks, and no new group after
 * `recall.inlineEmbedMs`, so recall follows edits without `gitmem index` and never blocks for minutes), recall with the workspace's config, and append the retrieval audit
 * when `recall.audit` is on. `tookMs` covers the freshness check: that is what a caller waits for.
 * In a long-lived process whose background catch-up is embedding (engine/vectors/vector-catchup.ts) nothing
 * is embedded inline and nothing waits for it: vector and hybrid recall use the vectors there are,
 * keyword finds the rest, and the answer says so (`degraded` and `vectorsPending`).
 * @throws MemoryError `usage` for invalid filters (service/shared/inputs.ts).
 */
export async function recall(ctx: MemoryContext, query: string, options: RecallOptions = {}): Promise<RecallResponse> {
  const { config, freshness, semantic, clock } = ctx;
  const t0 = performance.now();
  // Bad dates and filters are refused before the index is loaded, built or embedded (T10).
  checkRecallRequest(options, parseQuery(query).filters);
  const snap = (ctx.freshnessMode === 'manual' && freshness.snapshot) || (await ctx.answerSnapshot());
  const mode = semantic ? (options.mode ?? config.recall.mode) : 'keyword';
  let note: string | undefined;
  let pending = 0;
  if (semantic && mode !== 'keyword') {
    // Never waits for a background catch-up (engine/vectors/vector-catchup.ts): what is embedded, plus keyword.
    ({ note, pending } = await freshness.catchUp!.forRecall(snap, options.onEmbedProgress));
  }
  const last: { parts?: RankedParts } = {};
  // The code check (service/trust/recall-code.ts) may rank again; the last ranking is the answer.
  await recallWithCodeCheck(ctx, async (codeCheck) => {
    last.parts = await rankSnapshot(
      snap,
      query,
      {
        snippetChars: config.recall.snippetChars,
        now: clock.now(),
        ...options,
        mode,
        limit: options.limit ?? config.recall.limit,
        ...(codeCheck ? { codeCheck } : {}),
      },
      semantic,
      fusionOf(config.recall),
      note ? { degraded: note } : {},
    );
    return last.parts.res;
  });
  const parts = last.parts;
  if (!parts) throw new Error('recall: no ranking');
  // The trust stage (service/trust/stage.ts): provenance, review state and labels on every result and
  // block item, and the injection policy for an injected block, before the block is rendered.
  const audience = options.audience ?? 'person';
  const { trustStage, BLOCK_PREFACE } = await import('../trust/stage.js');
  const trusted = await trustStage(ctx, {
    results: parts.res.results,
    ...(parts.packed ? { packed: parts.packed } : {}),
    audience,
    provenance: options.provenance !== false,
  });
  const res = withContext(
    trusted.packed ? { ...parts, packed: trusted.packed } : parts,
    options.budget,
    [BLOCK_PREFACE, ...(trusted.withheld ? [trusted.withheld] : [])],
    options.reveal,
  );
  if (trusted.withheld) res.withheld = trusted.withheld;
  // Memory left out of the search is said, never dropped silently: a file over the size cap (R62),
  // files outside a sparse checkout (R91).
  const warnings = [
    oversizedNote(snap, freshness.live?.oversized(), config.limits.maxFileBytes),
    await sparseNote(ctx),
  ].filter((w): w is string => w !== undefined);
  if (warnings.length > 0) res.warnings = warnings;
  if (pending > 0 && res.mode !== 'keyword') res.vectorsPending = pending;
  res.tookMs = Number((performance.now() - t0).toFixed(2));
  if (config.recall.audit && audience !== 'person') {
    try {
      const { appendAudit, auditResultOf } = await import('./audit.js');
      await appendAudit(ctx.storage, {
        time: clock.now().toISOString(),
        ...(options.channel ? { channel: options.channel } : {}),
        query,
        mode: res.mode,
        degraded: res.degraded,
        results: res.results.map(auditResultOf),
        ...(res.withheld ? { withheld: res.withheld } : {}),
        bytes: res.context?.bytes ?? 0,
      });
    } catch (e) {
      ctx.logger.warn(`retrieval audit not written: ${(e as Error).message}`);
    }
  }
  return res;
}

/** The ranked answer before its context block is rendered: the packer's items and query weights. */
interface RankedParts {
  readonly res: RecallResponse;
  readonly packed: ContextItem[] | undefined;
  readonly terms: ReturnType<typeof queryWeights>;
  /** Every version in date order (`--history`, or a question about change): the block lists its files by date. */
  readonly history?: boolean;
}

/**
 * `parts` with the context block rendered (when a budget was asked for) under `preface`, and the
 * names of results and block items masked (service/trust/shown-names.ts) unless `reveal`.
 */
function withContext(
  ranked: RankedParts,
  budget: number | undefined,
  preface: readonly string[] = [],
  reveal = false,
): RecallResponse {
  const parts: RankedParts = reveal
    ? ranked
    : {
        ...ranked,
        res: { ...ranked.res, results: ranked.res.results.map(maskResultNames) },
        packed: ranked.packed?.map(maskItemNames),
      };
  if (budget === undefined || !parts.packed) return parts.res;
  const block = renderContextBlock(parts.packed, budget, {
    terms: parts.terms,
    preface,
    keepPreface: preface.length > 1,
    framing: preface.length > 0,
    ...(parts.history ? { byDate: true, spread: true } : {}),
  });
  return { ...parts.res, context: { ...block, budget } };
}

/**
 * Recall over `snapshot`: keyword (lunr BM25), vector (exact cosine) or hybrid (by default normalised
 * score fusion, `recall.fusion`; or reciprocal rank fusion plus a bonus for the top keyword hits).
 * Never throws on user text: operator characters are
 * handled by the lexical query parser; a query with no usable terms gives no results and a `hint`.
 * When the vector half is unavailable the answer is keyword-only with `degraded: "<reason>"`.
 */
export async function recallSnapshot(
  snapshot: IndexSnapshot,
  query: string,
  options: RecallOptions = {},
  vector?: VectorSearch,
  fusion: FusionSettings = DEFAULT_FUSION,
  notes: { degraded?: string } = {},
): Promise<RecallResponse> {
  return withContext(await rankSnapshot(snapshot, query, options, vector, fusion, notes), options.budget);
}

async function rankSnapshot(
  snapshot: IndexSnapshot,
  query: string,
  options: RecallOptions,
  vector: VectorSearch | undefined,
  fusion: FusionSettings,
  notes: { degraded?: string },
): Promise<RankedParts> {
  const p = plan(snapshot, query, options, vector, fusion);
  if (p.mode !== 'keyword' && p.hasWords) {
    const byKey = snapshot.byVectorKey?.() ?? keyMap(snapshot);
    const acceptKey = (key: string) => (byKey.get(key) ?? []).some((id) => accept(snapshot.chunks.get(id)!, p.filters));
    // Keyword candidates outside the vector top k get their own cosine too (`vectorRescore`).
    const rescore = fusion.vectorRescore ?? 0;
    const also =
      rescore > 0
        ? p.keywordRanked.slice(0, rescore).flatMap((h) => snapshot.chunks.get(h.ref)?.vkey ?? [])
        : undefined;
    // The query, and without the memory's common words (`vectorCommonWords`): one vector, their mean.
    const idf = snapshot.lexical.idf ? (t: string) => snapshot.lexical.idf!(t) : undefined;
    const texts = queryEmbedTexts(query, fusion.vectorCommonWords ?? 0, idf);
    const hits = await vector!.search(texts.length === 1 ? query : texts, Math.max(100, p.limit * 10), acceptKey, also);
    if (hits === undefined) {
      p.degraded = vector!.unavailable ?? 'semantic recall failed';
      p.mode = 'keyword';
      p.fillKeyword?.();
    } else fillVectorRanked(snapshot, p, hits, byKey, fusion);
  }
  if (notes.degraded && p.mode !== 'keyword' && !p.degraded) p.degraded = notes.degraded;
  return finish(snapshot, query, options, fusion, p, p.mode === 'hybrid' ? vector : undefined);
}

/** Keyword-only recall, synchronous (used where no embedder exists, e.g. recall as of a commit). */
export function recallKeyword(snapshot: IndexSnapshot, query: string, options: RecallOptions = {}): RecallResponse {
  const p = plan(snapshot, query, { ...options, mode: 'keyword' });
  return withContext(finish(snapshot, query, options, DEFAULT_FUSION, p), options.budget);
}

function finish(
  snapshot: IndexSnapshot,
  query: string,
  options: RecallOptions,
  fusion: FusionSettings,
  p: Plan,
  vector?: VectorSearch,
): RankedParts {
  const { t0, parsed, limit, qTokens, onlyFilters, hasWords, mode, degraded } = p;
  const idf = snapshot.lexical.idf ? (t: string) => snapshot.lexical.idf!(t) : undefined;
  // Fusion, the heading prior, evidence spans and the context block weigh the index tokens of the
  // words searched for (lower case, split like the index): as typed, `Melanie` or `race?` never
  // equals a line's token and `-word` would weigh.
  const searched = queryTokens(parsed);
  const weights = queryWeights(searched.length ? searched : qTokens.length ? qTokens : tokenize(query), idf);
  const evWeights = weights;
  const depth = limit * PRIOR_DEPTH;
  let fused = fuse(snapshot, p, fusion, weights, depth);
  if (!onlyFilters) {
    fused = applyPriors(fused, (ref) => snapshot.chunks.get(ref), fusion.priors ?? DEFAULT_PRIORS, {
      ...priorContext(query, p.today),
      headingMatch: (c) => coverage(weights, c.headingPath[c.headingPath.length - 1] ?? ''),
    });
  }
  if (options.codeCheck) fused = demoteStale(fused, (ref) => snapshot.chunks.get(ref), options.codeCheck);
  // Implicit supersession (restatement.ts): a later note stating the same rule ranks above the earlier.
  const restated = onlyFilters
    ? new Map()
    : restatements(fused, (ref) => snapshot.chunks.get(ref), weights, Math.max(limit, PACK_DEPTH), query);
  const chunkOf = (ref: string) => snapshot.chunks.get(ref);
  // Hybrid: versions said in other words are close by their chunks' embeddings (meaning-link.ts).
  const near = nearInMeaning(chunkOf, vector?.storedVector?.bind(vector), subjectOf(weights));
  // Not for history: versions in date order; otherwise newer statements first, and for a question about
  // what holds now, of two close hits stating its subject the later first (current-first.ts).
  fused = options.history
    ? versionsInDateOrder(fused, restated, chunkOf)
    : currentFirst(newerFirst(fused, restated, chunkOf, limit, query), chunkOf, subjectOf(weights), query, limit, near);
  // A question about change gets the notes involved in date order (the block), as --history does.
  const history = options.history === true || asksHistory(query);
  // With a budget the packer also draws on the hits just below `limit` (not returned).
  const pool = fused.slice(0, options.budget !== undefined ? Math.max(limit, PACK_DEPTH) : limit);

  let results: RecallResult[] = [];
  let packed: ContextItem[] = [];
  // Conflicts among what is returned or packed (service/trust/conflicts.ts): one view per pool hit.
  const views: ConflictView[] = [];
  const viewOfResult: number[] = [];
  const viewOfPacked: number[] = [];
  const scope: HitScope = { snapshot, query, options, qTokens, superseded: p.filters.superseded, today: p.today };
  for (const [rank, f] of pool.entries()) {
    const c = snapshot.chunks.get(f.ref);
    if (!c) continue;
    options.codeCheck?.seen(c);
    const newer = restated.get(f.ref);
    const by = supersededBy(c, p.filters.superseded) ?? (newer ? [`${newer.path}:${newer.line}`] : undefined);
    const ev = evidenceOf(snapshot, c, fusion, evWeights);
    views.push(conflictViewOf(c, ev, by));
    // The block shows only the newest statement of a thing unless history (or everything) is asked for.
    if (options.budget !== undefined && (!newer || history || options.includeHidden)) {
      viewOfPacked.push(views.length - 1);
      packed.push(packedItemOf(snapshot, c, ev, f.score, options.codeCheck));
    }
    if (rank >= limit) continue;
    viewOfResult.push(views.length - 1);
    results.push(resultOf({ c, f, ev, by, newer }, scope));
  }
  const labels = labelConflicts(views);
  results = applyConflictLabels(results, viewOfResult, labels, (r, w) => ({
    ...r,
    conflictsWith: [...w],
    labels: [...(r.labels ?? []), { class: 'conflict', text: `conflicts with ${w.join(', ')}` }],
  }));
  packed = applyConflictLabels(packed, viewOfPacked, labels, (p, w) => ({ ...p, conflictsWith: w }), {
    score: (p) => p.score,
    set: (p, score) => ({ ...p, score }),
  });
  const hint =
    results.length === 0 && parsed.empty && !onlyFilters && !(mode !== 'keyword' && hasWords)
      ? 'the query has no searchable words; try plain words, e.g. gitmem recall "postgres pool"'
      : undefined;
  const res: RecallResponse = {
    query,
    mode,
    degraded,
    tookMs: Number((performance.now() - t0).toFixed(2)),
    results,
    ...(hint ? { hint } : {}),
  };
  return { res, packed: options.budget !== undefined ? packed : undefined, terms: evWeights, history };
}

/** How many fused hits the context-block packer draws on (the returned `limit` or more). */
const PACK_DEPTH = 20;
