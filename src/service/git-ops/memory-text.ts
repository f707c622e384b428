// One file's text parsed as the workspace loader parses it (a commit's blob, a planned write): what
// the checkpoint's trailers, the memory diff and ACE's follow-up front-matter edits read.
// deps: core, engine (parse-cache.ts: parse), service (Memory type).
import type { MemoryDoc } from '../../core/document.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import { parseFiles } from '../../engine/load/parse-cache.js';
import type { Memory } from '../memory.js';

/**
 * Parse one file's text the way the workspace loader does (ACE uses it for follow-up front-matter edits).
 * @returns undefined when the path is not memory or not a valid workspace path.
 */
export function parseMemoryText(
  memory: Pick<Memory, 'loaded' | 'config'>,
  path: string,
  text: string,
): MemoryDoc | undefined {
  const kind = classify(path, memory.loaded.layout);
  if (!kind) return undefined;
  let rel: RelPath;
  try {
    rel = toRelPath(path);
  } catch {
    return undefined;
  }
  const ws = parseFiles([{ path: rel, kind, text, hash: contentHash(text) }], memory.config);
  return ws.tryGet(rel);
}
