// Versions of one rule said in other words, linked by meaning. Two dated statements of a question's
// subject ("I'd like to introduce you to another tool we use for project management: Monday", a week
// later "I'd like you to start using Jira instead") often share too few of the subject's words for
// the word rules (current-first.ts alike, versions.ts sameSlot) to call them the same thing. Their
// chunks' embeddings (the vectors hybrid recall already has; engine/vectors/semantic.ts
// storedVector) still place them close. Two statements are linked here when their chunks' cosine is
// at least {@link NEAR}, they share a subject word, the later one's turn announces a change
// (restatement.ts announcesChange: "from now on", "instead", "update the instructions", …) and their
// rules' shapes do not let both hold (statement-words.ts bothHold: different places of a name, an
// addition). Used only to order close
// hits (current-first.ts): nothing is labelled superseded and nothing leaves the block.
// Pure; deps: engine (types), indexes (vector math), recall/versions, recall/statement-words.
import type { ChunkRecord } from '../../engine/chunks/index-manager.js';
import type { QueryWeights } from '../../indexes/evidence/evidence.js';
import { dot } from '../../indexes/vector/vector-mean.js';
import { bothHold } from './statement-words.js';
import { announcesChange } from './restatement.js';
import type { SlotStatement } from './versions.js';

/** Least cosine of two chunks' embeddings for their statements to count as one subject. */
const NEAR = 0.7;

/** The stored embedding of an embedding key (engine/vectors/semantic.ts storedVector), or undefined. */
export type StoredVector = (vkey: string) => Float32Array | undefined;

/** Whether an earlier and a later statement are versions of one rule by meaning (see the file comment). */
export type NearInMeaning = (earlier: SlotStatement, later: SlotStatement) => boolean;

/**
 * The meaning link over the chunks of one recall.
 * @param chunk chunk id → record (its `vkey` names its embedding).
 * @param stored the stored vectors; undefined (keyword recall) gives a link that never holds.
 * @param subject the question's subject weights (restatement.ts subjectOf).
 */
export function nearInMeaning(
  chunk: (ref: string) => ChunkRecord | undefined,
  stored: StoredVector | undefined,
  subject: QueryWeights,
  near = NEAR,
): NearInMeaning {
  if (!stored) return () => false;
  const vectors = new Map<string, Float32Array | undefined>();
  const vectorOf = (ref: string) => {
    if (!vectors.has(ref)) {
      const key = chunk(ref)?.vkey;
      vectors.set(ref, key ? stored(key) : undefined);
    }
    return vectors.get(ref);
  };
  // The line (a turn of the conversation) that holds a statement.
  const turnOf = (s: SlotStatement) => {
    const c = chunk(s.ref);
    return c ? (c.text.split('\n')[s.line - c.startLine] ?? '') : '';
  };
  return (a, b) => {
    if (![...subject.terms.keys()].some((t) => a.terms.has(t) && b.terms.has(t))) return false;
    if (bothHold(a, b) || !announcesChange(turnOf(b))) return false;
    const va = vectorOf(a.ref);
    const vb = vectorOf(b.ref);
    if (!va || !vb) return false;
    return dot(va, vb) >= near;
  };
}
