// Test support: a one-line chunk record for the semantic index's unit and integration tests.
import type { ChunkRecord } from '../../src/engine/chunks/index-manager.js';
import { embedKey } from '../../src/engine/vectors/embed-text.js';

/**
 * A `note` chunk at line `line` of `path` with no heading path and no tags; `vkey` is the text's
 * embedding key (engine/vectors/semantic.ts embedKey), as the index computes it.
 */
export function noteChunk(id: string, path: string, line: number, text: string): ChunkRecord {
  const base = { headingPath: [] as string[], text };
  return {
    ...base,
    id,
    path,
    kind: 'note',
    startLine: line,
    endLine: line,
    tags: [],
    vkey: embedKey(base),
  } as unknown as ChunkRecord;
}
