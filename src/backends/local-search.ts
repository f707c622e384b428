// Simple local search over the layered memory files (long-term, daily notes, DREAMS.md): no index,
// term overlap per line, bounded snippets. The `file` backend's search and the `qmd` backend's
// fallback. deps: core, backends/project-files (and through it service + platform).
import type { RelPath } from '../core/paths.js';
import { wordTokens } from '../core/tokenize.js';
import { cutUnits } from '../core/words.js';
import { layerOf, openProjectWorkspace, readText, type ProjectFileOptions } from './project-files.js';
import { MAX_SNIPPET_CHARS, type MemorySearchOptions, type MemorySearchResult } from './types.js';

/** Clamp a search limit to 1…20 (default 5), as the contract says. */
export function clampSearchLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return 5;
  return Math.max(1, Math.min(20, Math.floor(limit)));
}

/**
 * Lower-case query terms: the words of the one tokenizer (core/tokenize.ts wordTokens: identifier
 * pieces, CJK bigrams), at least 2 characters unless beyond Latin, de-duplicated, at most 32.
 */
export function queryTerms(query: string): string[] {
  if (typeof query !== 'string') return [];
  // eslint-disable-next-line no-control-regex -- a range that starts at U+0000 on purpose (Latin scripts)
  const terms = wordTokens(query).filter((t) => t.length >= 2 || /[^\u0000-\u024f]/u.test(t));
  return [...new Set(terms)].slice(0, 32);
}

/** Cut `text` to at most {@link MAX_SNIPPET_CHARS} characters, on a code-point boundary, with an ellipsis. */
export function boundSnippet(text: string, max = MAX_SNIPPET_CHARS): string {
  const t = text.trim();
  if (t.length <= max) return t;
  return `${cutUnits(t, max - 1)}…`; // never splits a surrogate pair
}

/**
 * Search the layered files of `rootDir`: each non-blank line scores the number of distinct query terms
 * it contains (a heading line is skipped; its words count for the lines under it at half weight).
 * @returns at most `limit` results, best first; `[]` for a query without usable terms.
 * @throws MemoryBackendError as {@link openProjectWorkspace} (unreadable single files are skipped).
 */
export async function searchProjectMemory(
  rootDir: string,
  options: MemorySearchOptions,
  fileOptions: ProjectFileOptions = {},
): Promise<MemorySearchResult[]> {
  const backend = fileOptions.backend ?? 'file';
  const terms = queryTerms(options?.query);
  if (terms.length === 0) return [];
  const limit = clampSearchLimit(options.limit);
  const ws = await openProjectWorkspace(rootDir, fileOptions);
  const paths = await ws.fs.list((p) => layerOf(p, ws.layout) !== undefined);
  const hits: MemorySearchResult[] = [];
  for (const p of paths) {
    let text: string | undefined;
    try {
      text = await readText(ws, p as RelPath, backend);
    } catch {
      continue; // one bad file (binary, too large, symlink out) never hides the others
    }
    if (!text) continue;
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    let heading = '';
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line.trim()) continue;
      if (/^#{1,6}\s/.test(line)) {
        heading = line.replace(/^#+\s*/, '').toLowerCase();
        continue;
      }
      const lower = line.toLowerCase();
      let score = 0;
      let direct = 0;
      for (const t of terms) {
        if (lower.includes(t)) {
          score += 1;
          direct++;
        } else if (heading.includes(t)) score += 0.5;
      }
      if (direct === 0) continue;
      hits.push({
        path: p,
        lineStart: i + 1,
        lineEnd: i + 1,
        snippet: boundSnippet(line),
        score: score / terms.length,
        backend,
      });
    }
  }
  return hits
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.lineStart - b.lineStart)
    .slice(0, limit);
}
