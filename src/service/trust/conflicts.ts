// Conflicts among the results of one recall: two results that contradict each other (the
// possible-conflict rule, service/shared/claims.ts, line by line over their evidence spans) or one
// that supersedes the other. The newer comes first; the other is labelled "conflicts with <id or
// path:line>" (`conflictsWith` on the result, a label on its line in the context block). Cheap at
// recall: only the returned and packed results, only what the index holds (chunk text, entry id,
// date, `supersedes`); nothing is re-read. Pure. deps: service/shared (claims).
import { comparePrepared, prepareClaim, type PreparedClaim } from '../shared/claims.js';

/** What the labeller needs of one result, in rank order. */
export interface ConflictView {
  readonly path: string;
  /** File line of `text`'s first line. */
  readonly startLine: number;
  /** The result's evidence lines (what the agent is shown). */
  readonly text: string;
  /** Entry id, when the result is a typed entry. */
  readonly entryId?: string;
  /** Entry `created` or daily-note date (YYYY-MM-DD…), else a date in its headings. */
  readonly date?: string;
  readonly headingPath?: readonly string[];
  /** Ids this entry lists in `supersedes:`. */
  readonly supersedes?: readonly string[];
  /** Ids of entries that supersede this one. */
  readonly supersededBy?: readonly string[];
  /** Ids this entry was declared compatible with (`compatible_with:`, "keep both"). */
  readonly compatibleWith?: readonly string[];
}

/** The labels: a new rank order (indices into the views) and, per labelled view, what it conflicts with. */
export interface ConflictLabels {
  /** Every index once; a newer result moved just before the older one it conflicts with. */
  readonly order: readonly number[];
  /** View index → references (`entry id` or `path:line`) of the newer results it conflicts with. */
  readonly conflictsWith: ReadonlyMap<number, readonly string[]>;
}

/** Most lines of one result compared (an evidence span is at most five). */
const MAX_LINES = 8;
/** Lines shorter than this (in characters, trimmed) are no claim. */
const MIN_LINE = 12;

interface Claim {
  readonly line: number;
  readonly prepared: PreparedClaim;
}

const DATE = /(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)/;

/** An ISO date or date-time (compared as text: ISO sorts by time), else the last date in the headings above. */
function dateOf(v: ConflictView): string | undefined {
  if (v.date && /^\d{4}-\d{2}-\d{2}/.test(v.date)) return v.date;
  for (const h of [...(v.headingPath ?? [])].reverse()) {
    const m = DATE.exec(h);
    if (m) return m[1];
  }
  return undefined;
}

function claimsOf(v: ConflictView): Claim[] {
  const out: Claim[] = [];
  v.text.split('\n').forEach((t, i) => {
    if (out.length >= MAX_LINES) return;
    const s = t.trim();
    if (s.length < MIN_LINE || /^#{1,6}\s/.test(s) || /^[-=*_\s|:]+$/.test(s)) return;
    out.push({ line: v.startLine + i, prepared: prepareClaim(s) });
  });
  // An entry's span may be one claim over several lines: compare it whole too.
  if (v.entryId && out.length > 1) out.push({ line: v.startLine, prepared: prepareClaim(v.text) });
  return out;
}

/** The first pair of lines of `a` and `b` that contradict each other: the line of `b` (for its reference). */
function contradiction(a: readonly Claim[], b: readonly Claim[]): Claim | undefined {
  for (const x of a) for (const y of b) if (comparePrepared(x.prepared, y.prepared).reasons.length) return y;
  return undefined;
}

const sameId = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();

/**
 * Which of `views` (best first) conflict, which of each pair is newer, and the order with the newer
 * first. Newer: the entry that supersedes the other; else the later date (entry `created` to the
 * second, a daily note's date, or a date in the headings above the line); else, in one file, the
 * later line; else the better-ranked. Two lines of one file are compared; two results of one entry
 * are not, nor two entries one of which lists the other in `compatible_with`.
 * @returns indices in the new order and the labels; O(lines²) comparisons over at most the views given.
 */
export function labelConflicts(views: readonly ConflictView[]): ConflictLabels {
  const claims = views.map(claimsOf);
  const labels = new Map<number, string[]>();
  const pairs: { older: number; newer: number }[] = [];
  for (let i = 0; i < views.length; i++) {
    for (let j = i + 1; j < views.length; j++) {
      const a = views[i]!;
      const b = views[j]!;
      if (a.path === b.path && (a.entryId || a.startLine === b.startLine)) continue;
      // The writer said "keep both": never labelled.
      if (
        a.compatibleWith?.some((id) => sameId(id, b.entryId)) ||
        b.compatibleWith?.some((id) => sameId(id, a.entryId))
      )
        continue;
      let newer: number | undefined;
      let line: { i: number; n: number } | undefined;
      if (a.supersedes?.some((id) => sameId(id, b.entryId)) || b.supersededBy?.some((id) => sameId(id, a.entryId)))
        newer = i;
      else if (b.supersedes?.some((id) => sameId(id, a.entryId)) || a.supersededBy?.some((id) => sameId(id, b.entryId)))
        newer = j;
      else {
        // A contradiction by claims needs an entry on one side at least: two prose lines (daily notes,
        // MEMORY.md bullets) compared pairwise across a whole answer met too many look-alikes (a later
        // note reordered above the month a question named; two bullets of one list), and a later note
        // restating an earlier one is restatement.ts's case.
        if (!a.entryId && !b.entryId) continue;
        const hit = contradiction(claims[i]!, claims[j]!);
        if (!hit) continue;
        const back = contradiction(claims[j]!, claims[i]!) ?? claims[i]![0]!;
        line = { i: back.line, n: hit.line };
        const da = dateOf(a);
        const db = dateOf(b);
        if (da && db && da !== db) newer = da > db ? i : j;
        else if (a.path === b.path) newer = line.n > line.i ? j : i;
        else newer = i;
      }
      const older = newer === i ? j : i;
      const nv = views[newer]!;
      const ref = nv.entryId ?? `${nv.path}:${line ? (newer === i ? line.i : line.n) : nv.startLine}`;
      const list = labels.get(older) ?? [];
      if (!list.includes(ref)) list.push(ref);
      labels.set(older, list);
      pairs.push({ older, newer });
    }
  }
  const order = views.map((_, k) => k);
  for (const { older, newer } of pairs.sort((x, y) => x.older - y.older)) {
    const po = order.indexOf(older);
    const pn = order.indexOf(newer);
    if (pn > po) {
      order.splice(pn, 1);
      order.splice(po, 0, newer);
    }
  }
  return { order, conflictsWith: labels };
}

/**
 * `items` (one per view index in `viewOf`, same order) in the labelled order, each labelled one
 * passed through `mark`. A newer item moved before an older one takes at least the older's score
 * through `lift` when given (the context-block packer weighs items by score).
 */
export function applyConflictLabels<T>(
  items: readonly T[],
  viewOf: readonly number[],
  labels: ConflictLabels,
  mark: (item: T, conflictsWith: readonly string[]) => T,
  lift?: { score: (item: T) => number | undefined; set: (item: T, score: number) => T },
): T[] {
  if (labels.conflictsWith.size === 0) return [...items];
  const at = new Map(viewOf.map((v, k) => [v, k]));
  const out: { view: number; item: T }[] = [];
  for (const v of labels.order) {
    const k = at.get(v);
    if (k === undefined) continue;
    const refs = labels.conflictsWith.get(v);
    out.push({ view: v, item: refs ? mark(items[k]!, refs) : items[k]! });
  }
  if (lift)
    for (let k = out.length - 2; k >= 0; k--) {
      const here = lift.score(out[k]!.item);
      const next = lift.score(out[k + 1]!.item);
      // Only a moved newer item (placed before an item it outranks by date, not by score) is lifted.
      if (here !== undefined && next !== undefined && here < next && out[k]!.view > out[k + 1]!.view)
        out[k] = { view: out[k]!.view, item: lift.set(out[k]!.item, next) };
    }
  return out.map((o) => o.item);
}
