// Possible contradictions: a new memory that is a near match on subject with an existing one of the
// same type and tags, but says something different (a negation, another number, an opposite word,
// another value in the same place). Surfaced, never resolved: the writer is told and chooses
// "supersede the old one" or "keep both" (`compatible_with`). Lexical and deterministic, measured
// on fixtures/conflicts/pairs.json (test/unit/service/conflict.test.ts prints precision and recall).
// deps: core, indexes (tokenizer).
import { bodyOf } from '../../core/document.js';
import { namesId, type MemoryWorkspace } from '../../core/workspace.js';
import { tokenize } from '../../indexes/tokenize.js';

/** Subject similarity (Jaccard of subject words) at or above which two memories are about the same thing. */
const SUBJECT_SIMILARITY = 0.4;

/** Why two near matches look like they disagree. */
export type ConflictReason = 'negation' | 'number' | 'opposite' | 'substitution';

export interface ConflictVerdict {
  /** Jaccard of the subject words (numbers, negations and opposite words left out), 0…1. */
  readonly similarity: number;
  /** Empty when the texts agree or are about different things. */
  readonly reasons: readonly ConflictReason[];
}

const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'none',
  'without',
  'cannot',
  'don',
  'doesn',
  'didn',
  'isn',
  'aren',
  'wasn',
  'won',
  'mustn',
  'shouldn',
  'avoid',
]);
const OPPOSITES: readonly (readonly [string, string])[] = [
  ['enable', 'disable'],
  ['always', 'never'],
  ['true', 'false'],
  ['allow', 'deny'],
  ['sync', 'async'],
  ['synchronous', 'asynchronous'],
  ['synchronously', 'asynchronously'],
  ['before', 'after'],
  ['increase', 'decrease'],
  ['required', 'optional'],
  ['include', 'exclude'],
  ['accept', 'reject'],
  ['public', 'private'],
  ['yes', 'no'],
  ['first', 'last'],
  ['min', 'max'],
  ['minimum', 'maximum'],
  ['higher', 'lower'],
  ['faster', 'slower'],
  ['start', 'stop'],
  ['open', 'close'],
  ['add', 'remove'],
  ['keep', 'drop'],
  ['local', 'remote'],
  ['inside', 'outside'],
];
const OPPOSITE_WORDS = new Set(OPPOSITES.flat());
/** Words too common to be the subject of a memory. */
const FILLER = new Set([
  'do',
  'does',
  'we',
  'our',
  'you',
  'your',
  'can',
  'may',
  'must',
  'should',
  'so',
  'also',
  'only',
  'each',
  'every',
  'per',
  'all',
  'any',
  'them',
  'itself',
  'use',
  'uses',
  'used',
]);

/** Crude English stemming, enough to match `deploys`/`deploy`, `tagged`/`tags`, `cached`/`cache`. */
function stem(t: string): string {
  if (t.length <= 3 || /\d/.test(t)) return t;
  let s = t;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  else if (s.endsWith('es') && s.length > 4 && /(ss|x|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss')) s = s.slice(0, -1);
  if (/([b-df-hj-np-tv-z])\1$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('e') && s.length > 4) s = s.slice(0, -1);
  return s;
}

interface Analysed {
  /** Every token, stemmed, in order. */
  readonly seq: readonly string[];
  readonly all: ReadonlySet<string>;
  /** Subject words: no numbers, negations, opposite words or filler. */
  readonly subject: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
  readonly negated: boolean;
}

function analyse(text: string): Analysed {
  const raw = tokenize(text, { fold: false });
  const seq = raw.map(stem);
  const subject = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    if (/\d/.test(r) || NEGATIONS.has(r) || OPPOSITE_WORDS.has(r) || OPPOSITE_WORDS.has(seq[i]!) || FILLER.has(r))
      continue;
    subject.add(seq[i]!);
  }
  const numbers = new Set((text.match(/\d+(?:[.,:]\d+)*/g) ?? []).map((n) => n.replace(/^0+(?=\d)/, '')));
  return { seq, all: new Set(seq), subject, numbers, negated: raw.some((r) => NEGATIONS.has(r)) };
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** The token after the first `anchor` in `seq` that is a subject word, or undefined. */
function after(x: Analysed, anchor: string): string | undefined {
  const i = x.seq.indexOf(anchor);
  for (let j = i + 1; i >= 0 && j < x.seq.length; j++)
    if (x.subject.has(x.seq[j]!) || /\d/.test(x.seq[j]!)) return x.seq[j];
  return undefined;
}

/**
 * Compare two memory texts. `reasons` is non-empty only when their subjects are near matches
 * ({@link SUBJECT_SIMILARITY}) and they differ in what they claim.
 */
export function compareClaims(a: string, b: string): ConflictVerdict {
  const A = analyse(a);
  const B = analyse(b);
  const similarity = Number(jaccard(A.subject, B.subject).toFixed(3));
  if (similarity < SUBJECT_SIMILARITY) return { similarity, reasons: [] };
  const reasons: ConflictReason[] = [];
  if (A.negated !== B.negated) reasons.push('negation');
  if (
    A.numbers.size &&
    B.numbers.size &&
    ([...A.numbers].some((n) => !B.numbers.has(n)) || [...B.numbers].some((n) => !A.numbers.has(n)))
  )
    reasons.push('number');
  if (OPPOSITES.some(([x, y]) => (has(A, x) && has(B, y) && !has(A, y)) || (has(A, y) && has(B, x) && !has(A, x))))
    reasons.push('opposite');
  // The same word followed by different words that the other text never uses: "deploys run on
  // Tuesday" / "deploys run on Friday". Variants of one word (shared 4-letter prefix) do not count.
  if (!reasons.length) {
    for (const t of A.subject) {
      if (!B.subject.has(t)) continue;
      const x = after(A, t);
      const y = after(B, t);
      if (x && y && x !== y && !B.all.has(x) && !A.all.has(y) && x.slice(0, 4) !== y.slice(0, 4)) {
        reasons.push('substitution');
        break;
      }
    }
  }
  return { similarity, reasons };
}

function has(x: Analysed, word: string): boolean {
  return x.all.has(word) || x.all.has(stem(word));
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
  for (const d of ws.docs()) {
    if (d.kind !== 'entry' || d.path === entry.path || d.meta.type !== entry.type || !d.meta.id) continue;
    if (d.meta.duplicateOf || d.meta.status === 'superseded' || d.meta.status === 'archived') continue;
    if (namesId(linked, d.meta.id) || namesId(d.meta.supersedes, entry.id) || namesId(d.meta.compatibleWith, entry.id))
      continue;
    if (!sameTags(entry.tags, d.meta.tags)) continue;
    const v = compareClaims(entry.text, bodyOf(d));
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
