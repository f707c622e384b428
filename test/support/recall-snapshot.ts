// A hand-built index snapshot for unit tests of recall's orchestration (service/recall): chunk
// records written out, a keyword searcher that returns the hits a test lists (and records what it was
// asked for), and a vector half that answers with fixed cosines. The logic around the indexes is
// under test, not the indexes themselves.
import type { ChunkRecord, IndexSnapshot } from '../../src/engine/chunks/index-manager.js';
import type { LexicalHit, LexicalSearcher, ParsedQuery } from '../../src/indexes/lexical/lexical.js';
import { parseQuery } from '../../src/indexes/query/query.js';
import type { VectorSearch } from '../../src/service/recall/types.js';

/** A chunk record of `memory/<id>.md` whose text starts at line 3 unless `startLine` is given. */
export function chunk(id: string, text: string, over: Partial<ChunkRecord> = {}): ChunkRecord {
  const startLine = over.startLine ?? 3;
  return {
    id,
    path: `memory/${id}.md`,
    kind: 'note',
    startLine,
    endLine: startLine + text.split('\n').length - 1,
    headingPath: [],
    text,
    tags: [],
    vkey: `v-${id}`,
    ...over,
  };
}

export interface FakeSnapshot extends IndexSnapshot {
  /** Every keyword search asked for: the limit given (undefined = every match). */
  readonly searches: (number | undefined)[];
}

/**
 * A snapshot over `chunks` whose keyword search returns `hits` (best first) cut to the limit asked
 * for, whatever the query (an empty query finds nothing, as the real index does).
 */
export function fakeSnapshot(chunks: readonly ChunkRecord[], hits: readonly LexicalHit[]): FakeSnapshot {
  const searches: (number | undefined)[] = [];
  const lexical: LexicalSearcher = {
    size: chunks.length,
    has: (ref) => chunks.some((c) => c.id === ref),
    parseQuery,
    search(query: ParsedQuery | string, limit?: number) {
      searches.push(limit);
      const parsed = typeof query === 'string' ? parseQuery(query) : query;
      if (parsed.empty) return [];
      return hits.slice(0, limit ?? hits.length).map((h) => ({ ...h }));
    },
    idf: () => 1,
  };
  return {
    lexical,
    chunks: new Map(chunks.map((c) => [c.id, c])),
    manifest: {} as IndexSnapshot['manifest'],
    source: 'loaded',
    ms: 0,
    searches,
  };
}

/** Keyword hits with the given scores, in the order given. */
export const hitsOf = (...pairs: [string, number][]): LexicalHit[] =>
  pairs.map(([ref, score]) => ({ ref, score }) as LexicalHit);

/**
 * A vector half answering every query with `cosines` (embedding key → cosine), best first, and
 * recording what it was asked (the query texts, k and the keys to score besides the top k). `answer: undefined`
 * models an embedder that fails at query time.
 */
export function fakeVectors(
  cosines: Record<string, number> | undefined,
  unavailable?: string,
): VectorSearch & {
  calls: { k: number; also: string[] | undefined }[];
  queries: (string | readonly string[])[];
} {
  const calls: { k: number; also: string[] | undefined }[] = [];
  const queries: (string | readonly string[])[] = [];
  return {
    unavailable,
    calls,
    queries,
    async search(query, k, accept, also) {
      calls.push({ k, also: also ? [...also] : undefined });
      queries.push(query);
      if (cosines === undefined) return undefined;
      return Object.entries(cosines)
        .filter(([key]) => !accept || accept(key))
        .map(([ref, score]) => ({ ref, score }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    },
  };
}

/** A daily-note chunk of `date` (`YYYY-MM-DD`) holding `lines` from line 3. */
export const dayChunk = (id: string, date: string, lines: readonly string[]): ChunkRecord =>
  chunk(id, lines.join('\n'), { path: `memory/${date}.md`, kind: 'daily', date });
