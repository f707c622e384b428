// Possible contradictions: a new memory that is a near match on subject with an existing one of the
// same type and tags, but says something different (a negation, another number, an opposite word,
// another value in the same place; the rule is service/shared/claims.ts). Surfaced, never resolved:
// the writer is told and chooses "supersede the old one" or "keep both" (`compatible_with`); recall
// labels such pairs among its results (service/trust/conflicts.ts). Lexical and deterministic,
// measured on fixtures/conflicts/pairs.json (`npm run bench`, bench/conflicts.ts).
// deps: core, service/shared (claims).
import { bodyOf } from '../../core/document.js';
import { namesId, type MemoryWorkspace } from '../../core/workspace.js';
import type { MemoryDoc } from '../../core/document.js';
import { compareClaimTexts, comparePrepared, prepareClaim, type ConflictReason, type PreparedClaim } from './claims.js';

export type { ConflictReason } from './claims.js';

export interface ConflictVerdict {
  /** Share of the shorter text's subject words the other holds (numbers, dates, negations and filler left out), 0…1. */
  readonly similarity: number;
  /** Empty when the texts agree, elaborate one another, or are about different things. */
  readonly reasons: readonly ConflictReason[];
}

/**
 * Compare two memory texts (service/shared/claims.ts): `reasons` is non-empty only when they are
 * about the same subject and are the same statement with a negation added or removed, or with one
 * slot replaced by a value of the same kind (a number, an opposite word, a name).
 */
export function compareClaims(a: string, b: string): ConflictVerdict {
  return compareClaimTexts(a, b);
}

/** Each document's body cut into claim tokens once (documents are immutable; a write compares a new text with the same candidates again). */
const PREPARED = new WeakMap<MemoryDoc, PreparedClaim>();

function preparedBody(d: MemoryDoc): PreparedClaim {
  let p = PREPARED.get(d);
  if (!p) PREPARED.set(d, (p = prepareClaim(bodyOf(d))));
  return p;
}

/** A possible conflict of a new or edited entry with an existing one (JSON field `possible_conflict`). */
export interface PossibleConflict {
  readonly id: string;
  readonly path: string;
  readonly similarity: number;
  readonly reasons: readonly ConflictReason[];
  /** What the writer can do: supersede the old entry, or keep both (`compatible_with`). */
  readonly options: readonly ['supersede', 'keep_both'];
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return a.length === b.length;
  return a.some((t) => b.includes(t));
}

/**
 * Entries of `ws` that `text` (an entry of `type` with `tags`, at `self` when it exists) may
 * contradict: same type, a shared tag (or both untagged), not retired, not already linked to it by
 * `supersedes` or `compatible_with` either way. Best first, at most `limit`.
 */
export function findPossibleConflicts(
  ws: MemoryWorkspace,
  entry: {
    text: string;
    type: string | undefined;
    tags: readonly string[];
    id?: string;
    path?: string;
    supersedes?: readonly string[];
    compatibleWith?: readonly string[];
  },
  limit = 3,
): PossibleConflict[] {
  const out: PossibleConflict[] = [];
  const linked = [...(entry.supersedes ?? []), ...(entry.compatibleWith ?? [])];
  const mine = prepareClaim(entry.text);
  for (const d of ws.docs()) {
    if (d.kind !== 'entry' || d.path === entry.path || d.meta.type !== entry.type || !d.meta.id) continue;
    if (d.meta.duplicateOf || d.meta.status === 'superseded' || d.meta.status === 'archived') continue;
    if (namesId(linked, d.meta.id) || namesId(d.meta.supersedes, entry.id) || namesId(d.meta.compatibleWith, entry.id))
      continue;
    if (!sameTags(entry.tags, d.meta.tags)) continue;
    const v = comparePrepared(mine, preparedBody(d));
    if (v.reasons.length)
      out.push({
        id: d.meta.id,
        path: d.path,
        similarity: v.similarity,
        reasons: v.reasons,
        options: ['supersede', 'keep_both'],
      });
  }
  return out.sort((x, y) => y.similarity - x.similarity || (x.path < y.path ? -1 : 1)).slice(0, limit);
}
