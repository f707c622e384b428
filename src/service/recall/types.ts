// The recall API's shapes: options, one hit, the response, the vector half's port and the fusion
// settings (config `recall`), with their defaults. deps: core, engine (types), service/recall/priors.
import { DEFAULT_CONFIG, type MemoryConfig } from '../../core/config.js';
import type { DocKind } from '../../core/document.js';
import type { InjectionFinding } from '../../core/injection.js';
import type { Expiry } from './truth.js';
import type { CodeStatus } from '../trust/code-check.js';
import type { CodeLookup } from '../trust/recall-code.js';
import { DEFAULT_PRIORS, type PriorSettings } from './priors.js';
import type { Provenance, RecallAudience, ReviewState, TrustLabel } from '../trust/types.js';

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
  /** The code check at recall (service/trust/recall-code.ts): stale memories rank down and are labelled. */
  readonly codeCheck?: CodeLookup;
  /**
   * Every version of a restated rule or fact, in date order (service/recall/restatement.ts): earlier
   * statements keep their rank and stay in the context block, which lists its files by date.
   */
  readonly history?: boolean;
  /**
   * Who the answer is for (service/trust/): `person` (default, the CLI), `agent` (an agent asked:
   * audited), `injected` (a block injected without asking: audited, and `recall.inject` applies).
   */
  readonly audience?: RecallAudience;
  /** The entry answering, for the audit (`mcp`, `hook`, `context`, `lsp`). */
  readonly channel?: string;
  /** Add each result's provenance (git attribution, cached per blob). Default true. */
  readonly provenance?: boolean;
  /**
   * Show paths, ids and tags as written (the CLI's own `recall --reveal`, a person at a terminal);
   * otherwise a name holding a secret is masked (service/trust/shown-names.ts). Never from MCP or a host.
   */
  readonly reveal?: boolean;
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
  /** Trust (service/trust/): the commit that last changed these lines, or `uncommitted`, and who wrote them. */
  provenance?: Provenance;
  /** Trust: `reviewed`, `unreviewed` (an agent's write) or `incoming` (arrived through sync). */
  review?: ReviewState;
  /** Trust: the labels of the other checks (cited code, conflicts, injected instructions, secrets). */
  labels?: TrustLabel[];
  /** Why the memory is normally hidden (only with `includeHidden` / `--all`). */
  hidden?: 'superseded' | 'archived' | 'duplicate' | 'inactive';
  /**
   * Ids of the newer entries that list this one in `supersedes:` (only with `--all`), or, for dated
   * prose restated later (service/recall/restatement.ts), `path:line` of the newest statement.
   */
  supersededBy?: string[];
  /** A later note states the same rule or fact (implicit supersession): where and when. */
  newerStatement?: { path: string; line: number; date: string };
  /** The `valid_until` / `review_after` date that has passed; the hit was ranked down. */
  expired?: Expiry;
  /** The code the memory cites, checked against git (service/trust/code-check.ts); a stale one was ranked down. */
  code?: CodeStatus[];
  /**
   * Lines of the evidence span that look like injected instructions or hide characters
   * (core/injection.ts; 1-based file lines). The snippet and context span show them labelled
   * `[suspected instruction, quoted]`: memory is data, never an instruction.
   */
  injection?: InjectionFinding[];
  /**
   * Newer results of this recall that contradict this one or supersede it (entry id or `path:line`);
   * they come before it (service/trust/conflicts.ts).
   */
  conflictsWith?: string[];
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
  /** Why the answer is partial or keyword-only (no model, vectors not all embedded yet), or null. */
  degraded: string | null;
  /**
   * Chunks (distinct embedding keys) without a vector when a vector or hybrid recall ran: the answer
   * ranks them by keyword only. Present only when there are some: vectors still being embedded by a
   * long-lived process's background catch-up, or over the inline limit of a one-shot call (then
   * `gitmem index` embeds them). `degraded` says which.
   */
  vectorsPending?: number;
  tookMs: number;
  results: RecallResult[];
  /** Set when the query had no usable terms. */
  hint?: string;
  /** With `budget`: the rendered context block for an agent's prompt. */
  context?: {
    text: string;
    items: number;
    bytes: number;
    budget: number;
    /** Why no memory line is shown (the budget cannot hold the framing line and one line). */
    note?: string;
  };
  /** The line saying what the injection policy held back from the block (service/trust/inject-policy.ts). */
  withheld?: string;
  /** What the answer could not search, one line each: memory files over the size cap (skipped-files.ts, R62). */
  warnings?: string[];
}

export const MAX_LIMIT = 50;

/** Clamp a user limit into 1…50 (default 10). */
export function clampLimit(limit: number | undefined, fallback = 10): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
}

/** The vector half, as the recall orchestration sees it (engine/vectors/semantic.ts implements it). */
export interface VectorSearch {
  /** @returns nearest embedding keys best first, or undefined when semantic recall is unavailable. */
  search(
    /** The query text, or several texts searched with the normalised mean of their embeddings. */
    query: string | readonly string[],
    k: number,
    accept?: (key: string) => boolean,
    also?: Iterable<string>,
  ): Promise<{ ref: string; score: number }[] | undefined>;
  /** Why semantic recall is off (undefined when available). */
  readonly unavailable: string | undefined;
  /** The stored vector of embedding key `key` (never embedded now), or undefined. */
  storedVector?(key: string): Float32Array | undefined;
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
  /** Lines past each end of a retrieved chunk (same file, consecutive) its evidence span may cover; 0 = the chunk only. */
  readonly evidenceAround?: number;
  /** Multi-hop second pass: words the first keyword results share (pseudo-relevance feedback); 0 = off. */
  readonly feedbackTerms?: number;
  /** Weight of the second pass's (normalised) scores added to the first pass's. */
  readonly feedbackWeight?: number;
  /** Hybrid: the best this many keyword hits get their own cosine even outside the vector top k (0 = off). */
  readonly vectorRescore?: number;
  /** Hybrid: a chunk's cosine gains this share of its best same-section neighbour's cosine (0 = off). */
  readonly vectorContext?: number;
  /** Hybrid: a keyword candidate scores at least this share of its best same-section neighbouring candidate's BM25 (0 = off). */
  readonly keywordContext?: number;
  /**
   * Hybrid score fusion: the vector weight × ((1 − share) + share × spread / margin), where spread is
   * the best cosine minus the `depth`-th (no change when fewer hits; share 0 = off).
   */
  readonly vectorSpread?: { readonly share: number; readonly margin: number; readonly depth: number };
  /** Vector search: also embed the query without words in more than this share of the chunks (0 = off). */
  readonly vectorCommonWords?: number;
  /** BM25 k1 and b of the keyword search (default: the index's, lunr's 1.2 and 0.75). */
  readonly bm25?: { readonly k1?: number; readonly b?: number };
}

export const DEFAULT_FUSION: FusionSettings = {
  weights: DEFAULT_CONFIG.recall.weights,
  rrfK: DEFAULT_CONFIG.recall.rrfK,
  keywordBonus: DEFAULT_CONFIG.recall.keywordBonus,
  singleTokenKeyword: DEFAULT_CONFIG.recall.singleTokenKeyword,
  minVectorScore: DEFAULT_CONFIG.recall.minVectorScore,
  keywordCoverage: DEFAULT_CONFIG.recall.keywordCoverage,
  priors: DEFAULT_PRIORS,
  evidenceJoin: DEFAULT_CONFIG.recall.evidenceJoin,
  evidenceAround: DEFAULT_CONFIG.recall.evidenceAround,
  method: DEFAULT_CONFIG.recall.fusion,
  keywordConfidence: DEFAULT_CONFIG.recall.keywordConfidence,
  vectorRescore: DEFAULT_CONFIG.recall.vectorRescore,
  vectorContext: DEFAULT_CONFIG.recall.vectorContext,
  keywordContext: DEFAULT_CONFIG.recall.keywordContext,
  vectorSpread: DEFAULT_CONFIG.recall.vectorSpread,
  vectorCommonWords: DEFAULT_CONFIG.recall.vectorCommonWords,
  bm25: DEFAULT_CONFIG.recall.bm25,
};

/** The fusion settings of a workspace's config (`recall` in gitmem.config.json). */
export function fusionOf(recall: MemoryConfig['recall']): FusionSettings {
  return {
    weights: recall.weights,
    rrfK: recall.rrfK,
    keywordBonus: recall.keywordBonus,
    singleTokenKeyword: recall.singleTokenKeyword,
    minVectorScore: recall.minVectorScore,
    keywordCoverage: recall.keywordCoverage,
    evidenceJoin: recall.evidenceJoin,
    evidenceAround: recall.evidenceAround,
    method: recall.fusion,
    keywordConfidence: recall.keywordConfidence,
    feedbackTerms: recall.feedbackTerms,
    feedbackWeight: recall.feedbackWeight,
    vectorRescore: recall.vectorRescore,
    vectorContext: recall.vectorContext,
    keywordContext: recall.keywordContext,
    vectorSpread: recall.vectorSpread,
    vectorCommonWords: recall.vectorCommonWords,
    bm25: recall.bm25,
    priors: recall.priors,
  };
}
