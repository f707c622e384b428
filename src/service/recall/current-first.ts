// The current version first, for questions that ask what holds now. A question that asks for a norm
// ("what is the current rule about …", "which tool should be used", "how often should we …") wants
// the latest statement of it. When two hits state the subject as a directive or decision on different
// days (versions.ts slotStatement), or the later one does and the earlier hit directs nothing, and
// they score close to each other, the later one ranks first, even
// when restatement.ts did not judge them versions of one thing (the later one names the subject with
// other words: "I believe it would be best if you started using a notebook" after "stop using a
// physical notebook for notes"). Nothing is labelled superseded and nothing leaves the block: only
// the order of close hits changes, so a merely similar statement is never hidden.
// Pure; deps: engine (types), indexes (evidence), recall/versions.
import type { ChunkRecord } from '../../engine/chunks/index-manager.js';
import type { QueryWeights } from '../../indexes/evidence/evidence.js';
import { otherPlaces } from './statement-words.js';
import { slotStatement, type SlotStatement } from './versions.js';
import type { NearInMeaning } from './meaning-link.js';

/** Words of a question that asks what holds now: a norm or the current state of a rule. */
const ASKS_NORM = /\b(?:current(?:ly)?|latest|nowadays|should|must|supposed to|allowed|expected to)\b/iu;

/** Whether `question` asks for the rule or norm that holds now ({@link ASKS_NORM}). */
export function asksNorm(question: string): boolean {
  return ASKS_NORM.test(question);
}

/** A later statement moves above an earlier one when its score is at least this share of the earlier's. */
const CLOSE = 0.7;
/** How many ranks below a hit a later statement is looked for. */
const REACH = 3;

/** Share of the subject words named by either statement that both must name (versions.ts uses the same). */
const SAME_WORDS = 0.75;

/**
 * Whether statements `a` and `b` speak of the subject alike: they name mostly the same subject words
 * ({@link SAME_WORDS}; "add docstrings to functions" does not speak of "try statements in functions")
 * and do not put a name's value in different places (statement-words.ts otherPlaces).
 */
function alike(a: SlotStatement, b: SlotStatement, subject: QueryWeights): boolean {
  let na = 0;
  let nb = 0;
  let both = 0;
  for (const t of subject.terms.keys()) {
    if (a.terms.has(t)) na++;
    if (b.terms.has(t)) nb++;
    if (a.terms.has(t) && b.terms.has(t)) both++;
  }
  return both > 0 && both >= SAME_WORDS * Math.max(na, nb) && !otherPlaces(a.aspects, b.aspects);
}

/** Whether a statement names most of the subject's words ({@link SAME_WORDS} of them). */
function namesSubject(b: SlotStatement, subject: QueryWeights): boolean {
  let named = 0;
  for (const t of subject.terms.keys()) if (b.terms.has(t)) named++;
  return named > 0 && named >= SAME_WORDS * subject.terms.size;
}

/**
 * `hits` (best first) where, for a question asking what holds now, each dated hit among the first
 * `within` gives its slot to the latest later statement of the subject found up to
 * {@link REACH} ranks below it whose score is at least {@link CLOSE} of its own; the hits in between
 * move down one slot. A statement replaces one that speaks of the subject alike; a hit that states
 * nothing, a statement naming most subject words. Slots keep their scores. Other questions keep
 * their order.
 * @param subject the question's subject weights (restatement.ts subjectOf).
 * @param near two statements that speak of the subject alike by meaning (meaning-link.ts), besides the words.
 */
export function currentFirst<T extends { ref: string; score: number }>(
  hits: readonly T[],
  chunk: (ref: string) => ChunkRecord | undefined,
  subject: QueryWeights,
  question: string,
  within = hits.length,
  near?: NearInMeaning,
): T[] {
  const out = [...hits];
  if (!asksNorm(question) || subject.total <= 0) return out;
  const n = Math.min(within, out.length);
  const stated = new Map<string, SlotStatement | undefined>();
  const statementOf = (h: T) => {
    if (!stated.has(h.ref)) {
      const c = chunk(h.ref);
      stated.set(h.ref, c && !c.entry ? slotStatement(h.ref, c, subject) : undefined);
    }
    return stated.get(h.ref);
  };
  for (let i = 0; i < n; i++) {
    const a = statementOf(out[i]!);
    const day = a?.date ?? chunk(out[i]!.ref)?.date?.slice(0, 10);
    if (!day) continue;
    let pick = -1;
    let newest = day;
    for (let j = i + 1; j < Math.min(n, i + 1 + REACH); j++) {
      if (out[j]!.score < CLOSE * out[i]!.score) break;
      const b = statementOf(out[j]!);
      if (b && b.date > newest && (a ? alike(a, b, subject) || near?.(a, b) : namesSubject(b, subject))) {
        pick = j;
        newest = b.date;
      }
    }
    if (pick < 0) continue;
    const scores = out.slice(i, pick + 1).map((h) => h.score);
    const moved = [out[pick]!, ...out.slice(i, pick)];
    moved.forEach((h, k) => {
      out[i + k] = h.score === scores[k] ? h : { ...h, score: scores[k]! };
    });
  }
  return out;
}
