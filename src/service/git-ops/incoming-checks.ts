// What a sync brought in, checked the way a local write is: an incoming entry that repeats a live
// entry (the dedupe policy, service/shared/dedupe-policy.ts, and with a model the rule by meaning of
// the same module, as `remember` applies it) or may contradict one (the conflict
// check, service/shared/conflict.ts) is reported, never resolved: the people who wrote them choose
// (supersede, keep both with `compatible_with`, or mark `duplicate_of`).
// deps: core, git (diff types), service/shared.
import { bodyOf, type MemoryDoc } from '../../core/document.js';
import type { RelPath } from '../../core/paths.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import type { MemoryDiffChange } from '../../git/diff.js';
import { findPossibleConflicts, type ConflictReason } from '../shared/conflict.js';
import { findDuplicate, linkedForDedupe } from '../shared/dedupe-policy.js';
import { titleFrom } from '../shared/text-utils.js';

/**
 * The rule by meaning (dedupe-policy.ts `findDuplicateByMeaning` over the workspace), when a model is on.
 * `own` is the incoming entry's parsed document: its stored vector is read instead of embedding its text.
 */
export type ByMeaning = (
  incoming: { readonly text: string; readonly type: string; readonly title: string; readonly own: MemoryDoc },
  exclude: (path: string) => boolean,
) => Promise<{ readonly id: string; readonly path: string; readonly similarity: number } | undefined>;

/** An incoming entry that repeats, or may contradict, another live entry (JSON `incomingFindings`). */
export interface IncomingFinding {
  readonly finding: 'duplicate' | 'possible_conflict';
  /** The entry that came in (added, or its text changed). */
  readonly id: string;
  readonly path: string;
  /** The entry it repeats or may contradict. */
  readonly with: { readonly id: string; readonly path: string };
  readonly similarity: number;
  /** Why a possible conflict looks like one (negation, number, opposite, substitution). */
  readonly reasons?: readonly ConflictReason[];
  /** What to do about it. */
  readonly hint: string;
}

/** Whether `c` added an entry or rewrote an entry's text: the changes {@link checkIncoming} checks. */
function checked(c: MemoryDiffChange): boolean {
  return c.kind === 'entry' && c.change !== 'removed' && (c.change !== 'changed' || c.bodyChanged);
}

/**
 * Whether any of `changes` is one {@link checkIncoming} checks: without one, the caller need not read
 * the workspace for it.
 */
export function checksIncoming(changes: readonly MemoryDiffChange[]): boolean {
  return changes.some(checked);
}

/**
 * Check the entries `changes` added or rewrote (as they are now in `ws`) against the other entries.
 * A pair is reported once. `jaccard` is the config's `dedupe.jaccard`.
 */
export async function checkIncoming(
  ws: MemoryWorkspace,
  changes: readonly MemoryDiffChange[],
  jaccard: number,
  byMeaning?: ByMeaning,
): Promise<IncomingFinding[]> {
  const out: IncomingFinding[] = [];
  const pairs = new Set<string>();
  for (const c of changes) {
    if (!checked(c)) continue;
    const d = ws.tryGet(c.path as RelPath);
    const id = d?.meta.id;
    if (!d || d.kind !== 'entry' || !id || d.meta.duplicateOf) continue;
    if (d.meta.status === 'superseded' || d.meta.status === 'archived') continue;
    const text = bodyOf(d);
    // Not itself, nor an entry it supersedes or that supersedes it (a correction repeats its subject).
    const linked = (o: MemoryDoc) => linkedForDedupe(d, o);
    const byText = findDuplicate(
      ws.docs().filter((o) => !linked(o)),
      { text, type: d.meta.type },
      jaccard,
    );
    const near =
      byText || !byMeaning || !d.meta.type
        ? undefined
        : await byMeaning({ text, type: d.meta.type, title: (d.meta.title ?? titleFrom(text)).trim(), own: d }, (p) => {
            const o = ws.tryGet(p as RelPath);
            return !o || linked(o) === true;
          });
    const dup = byText
      ? { id: byText.doc.meta.id ?? byText.doc.path, path: byText.doc.path, similarity: byText.match.similarity }
      : near;
    const found = dup ? undefined : findPossibleConflicts(ws, entryOf(d, text), 1)[0];
    const other = dup ? { id: dup.id, path: dup.path } : found;
    if (!other) continue;
    const key = [d.path, other.path].sort().join('\0');
    if (pairs.has(key)) continue;
    pairs.add(key);
    if (dup)
      out.push({
        finding: 'duplicate',
        id,
        path: d.path,
        with: { id: other.id, path: other.path },
        similarity: dup.similarity,
        hint: `keep one: add \`duplicate_of: ${other.id}\` to ${id}, or remove it`,
      });
    else
      out.push({
        finding: 'possible_conflict',
        id,
        path: d.path,
        with: { id: other.id, path: other.path },
        similarity: found!.similarity,
        reasons: found!.reasons,
        hint: `supersede one (\`supersedes: [${other.id}]\` in ${id}) or keep both (\`compatible_with: [${other.id}]\`)`,
      });
  }
  return out;
}

function entryOf(d: MemoryDoc, text: string) {
  return {
    text,
    type: d.meta.type,
    tags: d.meta.tags,
    id: d.meta.id!,
    path: d.path,
    ...(d.meta.supersedes ? { supersedes: d.meta.supersedes } : {}),
    ...(d.meta.compatibleWith ? { compatibleWith: d.meta.compatibleWith } : {}),
  };
}
