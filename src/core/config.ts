// MemoryConfig: the shape of gitmem.config.json after defaults are applied. No I/O here; the
// service loads and validates the file against schemas/config.schema.json. Imports only core.
import type { DocKind } from './document.js';
import type { LayoutName } from './layout.js';

export const CONFIG_FILE = 'gitmem.config.json';

/**
 * The exact text `gitmem init` writes to gitmem.config.json for `layout`. A checkpoint shares a
 * config that still reads exactly this (gitmem's own change); any other text is the user's to commit.
 */
export function scaffoldConfigText(layout: LayoutName): string {
  return `${JSON.stringify({ version: 1, layout }, null, 2)}\n`;
}

export interface MemoryConfig {
  /** Config format version. */
  readonly version: 1;
  /** Layout preset; undefined in the file means "detect from the files present". */
  readonly layout: LayoutName | undefined;
  /** Per-kind glob overrides (workspace-relative). */
  readonly kinds: Partial<Record<DocKind, readonly string[]>> | undefined;
  /** Extra globs that are never memory. */
  readonly ignore: readonly string[];
  readonly index: {
    /**
     * Derived-state folder; relative to the workspace root, or absolute. Default `<gitdir>/gitmem`.
     * Used only inside the git dir's `gitmem/`, `.gitmem/` or the user cache (a repository config must not send
     * writes elsewhere); `$GITMEM_INDEX_DIR` is the user-level override.
     */
    readonly dir: string | undefined;
  };
  readonly recall: {
    /** Default result count (clamped to 1…50). */
    readonly limit: number;
    /** Snippet length cap, in UTF-16 code units. */
    readonly snippetChars: number;
    /** Default recall mode. */
    readonly mode: 'keyword' | 'vector' | 'hybrid';
    /** Reciprocal-rank-fusion weights of the keyword and vector lists. */
    readonly weights: { readonly keyword: number; readonly vector: number };
    /** Reciprocal-rank-fusion constant k. */
    readonly rrfK: number;
    /** Add a bonus to the top keyword hits so fusion never buries exact matches. */
    readonly keywordBonus: boolean;
    /** Answer a single-token query by keyword alone (exact tokens beat embeddings there). */
    readonly singleTokenKeyword: boolean;
    /** Vector hits with a cosine below this are dropped (unrelated neighbours are not results). */
    readonly minVectorScore: number;
    /**
     * Keep a bounded log (derived state) of what each agent-facing recall returned (MCP, `hook prompt`,
     * `gitmem context`, the editor's agent requests) with its trust labels: `gitmem audit`. On by default.
     */
    readonly audit: boolean;
    /**
     * Which trust classes may enter a block injected without the agent asking (`hook prompt`,
     * `gitmem context`, MCP `budget`); a class not named may (service/trust/inject-policy.ts, docs/trust.md).
     */
    readonly inject: {
      readonly reviewed: boolean;
      readonly unreviewed: boolean;
      readonly incoming: boolean;
      readonly injection: boolean;
    };
    /** In the CLI, embed at most this many missing chunks inline before answering (rest: `gitmem index`). */
    readonly inlineEmbedLimit: number;
    /** ...and for at most about this many ms (the group in progress finishes; the first always runs). */
    readonly inlineEmbedMs: number;
    /** Hybrid: the top-keyword bonus needs at least this share of the query idf in the hit (0 = always). */
    readonly keywordCoverage: number;
    /** A neighbouring line joins a result's evidence span at this share of the best line's score. */
    readonly evidenceJoin: number;
    /** An evidence span may cover this many consecutive lines past each end of its chunk (0 = the chunk only). */
    readonly evidenceAround: number;
    /** Hybrid fusion method: `score` (normalised scores, keyword hits weighted by query coverage) or `rrf`. */
    readonly fusion: 'rrf' | 'score';
    /** Score fusion: weight keyword hits by their own query coverage (`hit`), the best hit's (`top`), or not. */
    readonly keywordConfidence: 'none' | 'top' | 'hit';
    /** Multi-hop second pass: this many words the first keyword results share are searched again (0 = off). */
    readonly feedbackTerms: number;
    /** Weight of the second pass's normalised keyword scores. */
    readonly feedbackWeight: number;
    /** Hybrid: the best this many keyword hits get their own cosine even outside the vector top hits (0 = off). */
    readonly vectorRescore: number;
    /** Hybrid: a chunk's cosine gains this share of its best same-section neighbour chunk's cosine (0 = off). */
    readonly vectorContext: number;
    /** Hybrid: a keyword candidate scores at least this share of its best same-section neighbouring candidate's BM25 (0 = off). */
    readonly keywordContext: number;
    /**
     * Hybrid score fusion: the vector weight follows the spread of the vector list's top cosines (the
     * best minus the `depth`-th): × ((1 − share) + share × spread / margin). 0 share = off.
     */
    readonly vectorSpread: { readonly share: number; readonly margin: number; readonly depth: number };
    /**
     * Vector and hybrid: the query is also embedded without its words that stand in more than this
     * share of the chunks (a chat log's speaker names), and the vector search uses the mean of both
     * embeddings. 0 (or 1) = off: the query alone.
     */
    readonly vectorCommonWords: number;
    /** BM25 parameters of the keyword search: term-frequency saturation k1, length normalisation b (0…1). */
    readonly bm25: { readonly k1: number; readonly b: number };
    /** Ranking priors (service/recall/priors.ts): per-kind multipliers, daily-note recency, query-date boost. */
    readonly priors: {
      readonly kinds: Readonly<Partial<Record<DocKind, number>>>;
      readonly recency: number;
      readonly dateBoost: number;
      readonly whenBoost: number;
      readonly headingBoost: number;
    };
  };
  readonly model: {
    /** Embedding model folder (relative to the workspace root, or absolute). Default: the installed model. */
    readonly dir: string | undefined;
    /** onnxruntime intra-op threads. */
    readonly threads: number;
    /** false turns semantic recall off (keyword only, no `degraded`). */
    readonly enabled: boolean;
    /**
     * `gitmem index`: after 512 texts per worker, switch to the fp32 graph derived in memory from the
     * shipped one (indexes/embed/fp32-graph.ts). Off by default: it peaks at ~600 MB more RSS per worker for
     * a few per cent more chunks/s (README, bulk embedding).
     */
    readonly bulkGraph: boolean;
  };
  readonly chunking: {
    /** Most lines one chunk may span (consecutive bullets are grouped up to this). */
    readonly maxLines: number;
    /** Most characters in one chunk before a hard split. */
    readonly maxChars: number;
  };
  readonly limits: {
    /** Files larger than this many bytes are skipped with a diagnostic. */
    readonly maxFileBytes: number;
  };
  readonly dedupe: {
    /** Token Jaccard similarity at or above which a new memory of the same type is a duplicate. */
    readonly jaccard: number;
    /** Embedding cosine at or above which a new memory of the same type is a duplicate. */
    readonly cosine: number;
  };
  /**
   * Always-loaded budget: how much of an always-loaded file (MEMORY.md) a host reads at session
   * start. Defaults are the smaller of the common host limits (docs/always-loaded-budget.md).
   */
  readonly load: {
    /** Lines a host loads; the rest is cut (default 200). */
    readonly maxLines: number;
    /** UTF-8 bytes a host loads; the rest is cut (default 20000). */
    readonly maxBytes: number;
  };
  /** Dreams on a schedule, run by `gitmem watch` and the language server (off by default). */
  readonly dream: {
    /** Run the dream pass on {@link schedule}. */
    readonly enabled: boolean;
    /** Cron expression (5 fields, or 6 with seconds), host time zone. */
    readonly schedule: string;
    /** Runs are never closer than this many milliseconds, across restarts too. */
    readonly minIntervalMs: number;
  };
  /** The Fusion memory plugin's name for `dream.enabled`; with the fusion layout it wins. Undefined when absent. */
  readonly insightExtractionEnabled: boolean | undefined;
  /** The Fusion name for `dream.schedule` (cron). */
  readonly insightExtractionSchedule: string | undefined;
  /** The Fusion name for `dream.minIntervalMs`. */
  readonly insightExtractionMinIntervalMs: number | undefined;
  /** Working-state continuity (CURRENT_STATE.md, docs/DESIGN.md §5). */
  readonly state: {
    /** An active state last updated longer ago than this is `stale`. */
    readonly staleAfterHours: number;
    /** Hard cap of the snapshot text, in estimated tokens (target 150–300). */
    readonly snapshotMaxTokens: number;
  };
}

export const DEFAULT_CONFIG: MemoryConfig = {
  version: 1,
  layout: undefined,
  kinds: undefined,
  ignore: [],
  index: { dir: undefined },
  recall: {
    limit: 10,
    snippetChars: 320,
    mode: 'hybrid',
    // Measured on LoCoMo (README): vector 0.5 + the keyword bonus beat equal weights, and plain RRF
    // (no bonus) fell below keyword alone. One-word queries did better fused than keyword-only.
    weights: { keyword: 1, vector: 0.3 },
    rrfK: 60,
    keywordBonus: true,
    singleTokenKeyword: false,
    minVectorScore: 0.25,
    audit: true,
    inject: { reviewed: true, unreviewed: true, incoming: false, injection: false },
    inlineEmbedLimit: 256,
    // A recall answers within an MCP client's timeout even after an interrupted index (256 chunks take minutes on a busy machine).
    inlineEmbedMs: 3000,
    keywordCoverage: 0,
    evidenceJoin: 0.1,
    // Off: it helped the LoCoMo tuning half but lowered the test half's temporal group (README).
    evidenceAround: 0,
    fusion: 'score',
    keywordConfidence: 'none',
    feedbackTerms: 0,
    feedbackWeight: 0.3,
    // Every fused keyword candidate (top 200) also gets its cosine, not only those in the vector top 100.
    vectorRescore: 200,
    vectorContext: 0,
    // Chosen on the LoCoMo tuning half (README): the answer turn next to the one naming the words.
    keywordContext: 0.3,
    // Chosen on the LoCoMo tuning half (README): the vectors count more when their top cosines are spread.
    vectorSpread: { share: 0.5, margin: 0.1, depth: 10 },
    // Measured on the LoCoMo tuning half (README): words in most chunks say little about a query's topic.
    vectorCommonWords: 0.5,
    // b 0.5 rather than the usual 0.75: chunks are a few short lines (notes, chat turns) whose length
    // says little about how much of them is on topic (LoCoMo tuning half, README).
    bm25: { k1: 1.2, b: 0.5 },
    priors: { kinds: { dreams: 0.1 }, recency: 0.02, dateBoost: 2, whenBoost: 1.5, headingBoost: 1 },
  },
  model: { dir: undefined, threads: 2, enabled: true, bulkGraph: false },
  chunking: { maxLines: 5, maxChars: 1200 },
  limits: { maxFileBytes: 5 * 1024 * 1024 },
  dedupe: { jaccard: 0.9, cosine: 0.95 },
  load: { maxLines: 200, maxBytes: 20_000 },
  state: { staleAfterHours: 24, snapshotMaxTokens: 300 },
  dream: { enabled: false, schedule: '0 2 * * *', minIntervalMs: 86_400_000 },
  insightExtractionEnabled: undefined,
  insightExtractionSchedule: undefined,
  insightExtractionMinIntervalMs: undefined,
};

/** Deep-merge a validated config object over {@link DEFAULT_CONFIG}. */
export function mergeConfig(raw: Readonly<Record<string, unknown>> | undefined): MemoryConfig {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- already checked by the config schema
  const r = (raw ?? {}) as Record<string, any>;
  const d = DEFAULT_CONFIG;
  return {
    version: 1,
    layout: r.layout ?? d.layout,
    kinds: r.kinds ?? d.kinds,
    ignore: r.ignore ?? d.ignore,
    index: { ...d.index, ...(r.index ?? {}) },
    recall: {
      ...d.recall,
      ...(r.recall ?? {}),
      weights: { ...d.recall.weights, ...(r.recall?.weights ?? {}) },
      bm25: { ...d.recall.bm25, ...(r.recall?.bm25 ?? {}) },
      vectorSpread: { ...d.recall.vectorSpread, ...(r.recall?.vectorSpread ?? {}) },
      inject: { ...d.recall.inject, ...(r.recall?.inject ?? {}) },
      priors: {
        ...d.recall.priors,
        ...(r.recall?.priors ?? {}),
        kinds: { ...d.recall.priors.kinds, ...(r.recall?.priors?.kinds ?? {}) },
      },
    },
    model: { ...d.model, ...(r.model ?? {}) },
    chunking: { ...d.chunking, ...(r.chunking ?? {}) },
    limits: { ...d.limits, ...(r.limits ?? {}) },
    dedupe: { ...d.dedupe, ...(r.dedupe ?? {}) },
    load: { ...d.load, ...(r.load ?? {}) },
    state: { ...d.state, ...(r.state ?? {}) },
    dream: { ...d.dream, ...(r.dream ?? {}) },
    insightExtractionEnabled: r.insightExtractionEnabled,
    insightExtractionSchedule: r.insightExtractionSchedule,
    insightExtractionMinIntervalMs: r.insightExtractionMinIntervalMs,
  };
}
