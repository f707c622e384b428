// Query orchestration: parse the query, keyword search, metadata filters, bounded snippets, the
// recall JSON of DESIGN §8. Vector and hybrid modes report `degraded` until an embedder exists.
// deps: core, indexes.
import type { DocKind } from '../core/document.js';
import { DOC_KINDS } from '../core/document.js';
import { matchesAny } from '../core/glob.js';
import { makeSnippet } from '../indexes/snippet.js';
import { tokenize } from '../indexes/tokenize.js';
import type { ChunkRecord, IndexSnapshot } from './index-manager.js';

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
}

/** One recall hit (DESIGN §8). Lines are 1-based and inclusive. */
export interface RecallResult {
  path: string;
  startLine: number;
  endLine: number;
  headingPath: string[];
  kind: DocKind;
  snippet: string;
  score: number;
  scores: { keyword: number | null; vector: number | null };
  entry?: { id: string; type: string | null; tags: string[] };
  explain?: { keywordRank: number | null; keywordScore: number | null; vectorRank: number | null; vectorScore: number | null };
}

export interface RecallResponse {
  query: string;
  mode: RecallMode;
  degraded: string | null;
  tookMs: number;
  results: RecallResult[];
  /** Set when the query had no usable terms. */
  hint?: string;
}

export const MAX_LIMIT = 50;

/** Clamp a user limit into 1…50 (default 10). */
export function clampLimit(limit: number | undefined, fallback = 10): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
}

function accept(c: ChunkRecord, f: Required<Pick<RecallOptions, 'types' | 'tags' | 'kinds'>> & RecallOptions): boolean {
  if (c.hidden && !f.includeHidden) return false;
  if (f.kinds.length && !f.kinds.includes(c.kind)) return false;
  if (f.types.length && !(c.entry?.type && f.types.includes(c.entry.type))) return false;
  if (f.tags.length && !f.tags.some((t) => c.tags.includes(t))) return false;
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

/**
 * Keyword recall over `snapshot`. Never throws on user text: operator characters are handled by the
 * lexical query parser; a query with no usable terms gives no results and a `hint`.
 */
export function recallKeyword(snapshot: IndexSnapshot, query: string, options: RecallOptions = {}): RecallResponse {
  const t0 = performance.now();
  const requested: RecallMode = options.mode ?? 'hybrid';
  const parsed = snapshot.lexical.parseQuery(query);
  const lower = (xs: readonly string[] | undefined) => (xs ?? []).map((x) => x.trim().toLowerCase()).filter(Boolean);
  const filters = {
    ...options,
    types: [...lower(options.types), ...lower(parsed.filters.type)],
    tags: [...lower(options.tags), ...lower(parsed.filters.tag)].map((t) => t.replace(/^#/, '')),
    kinds: [...lower(options.kinds), ...lower(parsed.filters.kind)],
  };
  const limit = clampLimit(options.limit);
  const results: RecallResult[] = [];
  let hint: string | undefined;
  const degraded =
    requested === 'keyword' ? null : 'semantic recall is not available yet (no embedding model); keyword results only';
  const onlyFilters = parsed.empty && (filters.types.length || filters.tags.length || filters.kinds.length);
  if (parsed.empty && !onlyFilters) {
    hint = 'the query has no searchable words; try plain words, e.g. gitmem recall "postgres pool"';
  } else {
    const qTokens = parsed.terms.map((t) => t.text);
    const hits = parsed.empty
      ? [...snapshot.chunks.values()].map((c) => ({ ref: c.id, score: 0 }))
      : snapshot.lexical.search(parsed);
    let rank = 0;
    for (const h of hits) {
      rank++;
      const c = snapshot.chunks.get(h.ref);
      if (!c || !accept(c, filters)) continue;
      const score = Number(h.score.toFixed(6));
      results.push({
        path: c.path,
        startLine: c.startLine,
        endLine: c.endLine,
        headingPath: [...c.headingPath],
        kind: c.kind,
        snippet: makeSnippet(c.text, qTokens.length ? qTokens : tokenize(query), options.snippetChars ?? 320),
        score,
        scores: { keyword: score, vector: null },
        ...(c.entry ? { entry: { id: c.entry.id, type: c.entry.type, tags: [...c.entry.tags] } } : {}),
        ...(options.explain ? { explain: { keywordRank: rank, keywordScore: score, vectorRank: null, vectorScore: null } } : {}),
      });
      if (results.length >= limit) break;
    }
  }
  return {
    query,
    mode: 'keyword',
    degraded,
    tookMs: Number((performance.now() - t0).toFixed(2)),
    results,
    ...(hint ? { hint } : {}),
  };
}

/** @returns the kinds accepted by `--kind` (for usage errors). */
export function isDocKind(k: string): k is DocKind {
  return (DOC_KINDS as readonly string[]).includes(k);
}
