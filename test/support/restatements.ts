// Shared by the unit tests of implicit supersession (service/recall/restatement.ts, versions.ts,
// statement-words.ts): run `restatements` over hand-built chunks as recall runs it, every chunk a hit
// in the order given.
import { tokenize } from '../../src/core/tokenize.js';
import type { ChunkRecord } from '../../src/engine/chunks/index-manager.js';
import { queryWeights } from '../../src/indexes/evidence/evidence.js';
import { restatements } from '../../src/service/recall/restatement.js';

/** The versions `restatements` finds among `chunks` (best first) for `question`. */
export function versionsOf(question: string, chunks: readonly ChunkRecord[]): ReturnType<typeof restatements> {
  const byId = new Map(chunks.map((c) => [c.id, c]));
  return restatements(
    chunks.map((c) => ({ ref: c.id })),
    (ref) => byId.get(ref),
    queryWeights(tokenize(question)),
    chunks.length,
    question,
  );
}
