// Versions of one thing: implicit supersession without change words. Two dated statements are
// versions of the same rule, fact or decision when both are directive or decision-like (an addressed
// wish or request, a judgement of what is best, a team norm, an imperative, a stated rule — never a
// question, never a pleasantry such as "keep it up"), in the sentence that names the question's
// subject or one next to it, and those sentences name the same subject words with the same phrase,
// possibly with different values ("start function argument names with 'e_'" and, a week later,
// "I think it would be best if you start function argument names with 'f_'"). The later-dated one
// is the current version; the earlier is `supersededBy` it. restatement.ts merges these with its
// change-announcement rule and ranks the newer above the earlier.
// Judged per query over the recall's candidates, never stored.
// Pure; deps: indexes (evidence, tokenizer, stemmer), engine (types).
import type { ChunkRecord } from '../../engine/chunks/index-manager.js';
import { lineScore, sentences, type QueryWeights } from '../../indexes/evidence/evidence.js';
import { stemOf } from '../../indexes/lexical/lexical.js';
import { tokenize } from '../../core/tokenize.js';
import type { Restatement } from './restatement.js';
import { bothHold, ruleShape, subjectOverlap, withoutContractions, type RuleShape } from './statement-words.js';

/**
 * A sentence that asks for, decides or states how something is done. Read off one sentence that is
 * not a question. Word classes only (who is addressed, modal and judgement words, imperatives at the
 * start of a clause), never the things a rule is about.
 */
const DIRECTIVE = new RegExp(
  [
    // An addressed wish or request: "I want you to", "I'd like us to", "we need everyone to", "I encourage you to".
    /\b(?:i|we)(?:'d| would| really| also| now| strongly)* (?:want|like|need|expect|ask|encourage|advise|recommend|suggest|urge|prefer|require)s? (?:you|us|everyone|the team|all of you|our team)\b/,
    /\bi(?:'d| would) (?:like|prefer|recommend|suggest|advise)\b/,
    /\b(?:i|we) (?:recommend|suggest|advise|prefer|require|insist)\b/,
    // A judgement of what is best: "I think it's best if", "it would be better to", "it's important that you".
    /\b(?:it|that)(?:'s| is| would be| will be| might be) (?:best|better|important|crucial|essential|necessary|required|mandatory|preferable|vital|a good idea) (?:if|that|to|for|you)\b/,
    // A norm of the team or of the listener: "we primarily use", "you should", "we'll be using".
    /\b(?:we|our team|the team|everyone|you) (?:\w+ly |now |always |all |only |still |will |'ll )?(?:use|prefer|follow|adhere to|stick (?:to|with)|rely on|go with|require|avoid)\b/,
    /\b(?:you|we|everyone) (?:should|must|need to|have to|are (?:expected|required|supposed|allowed|not allowed) to|(?:'ll|will) (?:be using|need to|have to|want to))\b(?! (?:feel|be|have been|keep (?:going|pushing|it up)))/,
    /\blet(?:'s| us) (?:\w+ )?(?:use|stick|switch|start using|adopt|avoid|stop|move to|utilize|go with)\b/,
    // An imperative at the start of a clause: "Always start …", "please end …", "Don't use …".
    /(?:^|[;:,]\s*)(?:so |and |but |now |also |then |just |please |always |never )*(?:use|start|end|begin|include|add|avoid|stop|keep|make sure|ensure|remember|refrain|don't|do not|prefix|write|put|name)\b(?! (?:it up|up the|going|at it|on|pushing|me (?:updated|posted)|in touch|it real|forget|worry|give up|miss|hesitate)\b)/,
    // A rule stated as such, or what is allowed.
    /\b(?:rule|convention|policy|standard|guideline|practice|requirement) (?:is|will be)\b/,
    /\b(?:is|are) (?:not |no longer |now )?(?:allowed|permitted|required|mandatory|forbidden|prohibited|an option)\b/,
    /\b(?:from now on|going forward|moving forward|henceforth|from this point on)\b/,
  ]
    .map((r) => r.source)
    .join('|'),
  'iu',
);

/** A list marker and a short `Name:` speaker label at the start of a line: who spoke is not the subject. */
const LEAD = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,30}:\s)?/u;

/** Whether one sentence directs or decides (see {@link DIRECTIVE}); a question never does. */
export function isDirective(sentence: string): boolean {
  const s = sentence.trim();
  return !s.endsWith('?') && DIRECTIVE.test(s);
}

/** One candidate's statement of the question's subject. */
export interface SlotStatement extends RuleShape {
  readonly ref: string;
  readonly path: string;
  /** YYYY-MM-DD. */
  readonly date: string;
  /** 1-based file line of the sentence that states it. */
  readonly line: number;
  /** Stemmed terms of its sentence (speaker label left out). */
  readonly terms: ReadonlySet<string>;
  /**
   * Subject words that stand next to each other in it ("function names": function+name; "function
   * argument names": function+argument, argument+name), as `a b` with a < b: the phrase the subject
   * is named by.
   */
  readonly pairs: ReadonlySet<string>;
}

/** Words skipped when reading which subject words stand together ("your method names", "all function names"). */
const DETERMINERS = new Set(['my', 'your', 'our', 'his', 'her', 'all', 'any', 'every', 'each', 'some', 'those']);

/** Terms of `text` in order, speaker label and determiners left out. */
export const sequenceOf = (text: string): string[] =>
  tokenize(withoutContractions(text.replace(LEAD, '')))
    .filter((t) => !DETERMINERS.has(t))
    .map(stemOf);

/** Unordered pairs of subject words next to each other in `seq`. */
export function pairsOf(seq: readonly string[], subject: QueryWeights): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < seq.length; i++) {
    const a = seq[i - 1]!;
    const b = seq[i]!;
    if (a !== b && subject.terms.has(a) && subject.terms.has(b)) out.add(a < b ? `${a} ${b}` : `${b} ${a}`);
  }
  return out;
}

/**
 * The sentence of chunk `c` that best states the subject: of the sentences that are directive or
 * stand next to a directive one in the same line (turn), the one scoring highest on `subject` (BM25).
 * @returns undefined when no such sentence names a subject word, or the chunk is undated.
 */
export function slotStatement(ref: string, c: ChunkRecord, subject: QueryWeights): SlotStatement | undefined {
  if (!c.date || !/^\d{4}-\d{2}-\d{2}/.test(c.date)) return undefined;
  let best: { line: number; s: number; text: string; turn: string[] } | undefined;
  c.text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    const ss = sentences(l.replace(LEAD, ''));
    const dir = ss.map((s) => isDirective(s.text));
    ss.forEach((s, k) => {
      // The directive is the sentence itself or one next to it ("About version control: going forward, use GitLab").
      if (!dir[k] && !dir[k - 1] && !dir[k + 1]) return;
      const v = lineScore(subject, withoutContractions(s.text));
      if (v > 0 && (!best || v > best.s))
        best = { line: c.startLine + i, s: v, text: s.text, turn: ss.map((x) => x.text) };
    });
  });
  if (!best) return undefined;
  const b: { line: number; text: string; turn: string[] } = best;
  const seq = sequenceOf(b.text);
  // A sentence of the same turn names the subject as fully: every subject word the statement names.
  const named = seq.filter((t) => subject.terms.has(t));
  const alike = (text: string) => {
    const other = new Set(sequenceOf(text));
    return named.length > 0 && named.every((t) => other.has(t));
  };
  return {
    ...ruleShape(b.text, b.turn, alike),
    ref,
    path: c.path,
    date: c.date.slice(0, 10),
    line: Math.min(b.line, c.endLine),
    terms: new Set(seq),
    pairs: pairsOf(seq, subject),
  };
}

/**
 * Share of the subject words named by either of two statements that both must name (a turn about
 * "method names" and one about "function names" answer "naming methods" with different words).
 */
const SAME_WORDS = 0.75;
/** Least share of the subject weight the candidates hold that the shared words carry. */
const SAME_WEIGHT = 0.5;

/** "Which version control system should …", "what test runner do we …": the phrase and its last word. */
const WHICH_KIND =
  /\b(?:which|what)\s+((?:[\p{L}\p{N}'-]+\s+){1,3}?)([\p{L}\p{N}'-]+)\s+(?:should|is|are|do|does|did|will|would|can|must|has|have|was|were)\b/iu;

/**
 * The word of a question that names only the kind of thing asked for: the last word of a "which …"
 * or "what …" phrase of two or more words ("tool" of "which project management tool should be
 * used", "system" of "which version control system"). A statement that names the thing itself ("we
 * use Trello for project management") need not name its kind. A one-word phrase ("which IDE") names
 * the subject itself and is never elided.
 * @returns stemmed terms (empty when the question has no such phrase).
 */
export function elidedKind(question: string): Set<string> {
  const m = WHICH_KIND.exec(question);
  if (!m || !m[1]!.trim()) return new Set();
  return new Set(tokenize(m[2]!).map(stemOf));
}

/**
 * Whether two statements name the subject with the same phrase: when either names subject words side
 * by side ({@link pairsOf}), the other names one such pair too ("function names" is not "function
 * argument names" though both hold both words of "naming functions").
 */
export function samePhrase(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (!a.size && !b.size) return true;
  for (const p of a) if (b.has(p)) return true;
  return false;
}

/**
 * Whether two statements are versions of the same thing: they name the same subject words (each word
 * counted once, however common: "function" and "method" differ) and those words carry at least
 * {@link SAME_WEIGHT} of the subject weight the candidates hold.
 * @param held the subject weight named by any candidate statement (> 0).
 */
export function sameSlot(
  a: SlotStatement,
  b: SlotStatement,
  subject: QueryWeights,
  held: number,
  elided: ReadonlySet<string> = new Set(),
): boolean {
  if (held <= 0) return false;
  // The kind of thing asked for ("which … tool", `elided`) may go unnamed by a statement that names the thing.
  const { na, nb, both, shared } = subjectOverlap(a.terms, b.terms, subject.terms, elided);
  if (both === 0 || both < SAME_WORDS * Math.max(na, nb) || shared < SAME_WEIGHT * held) return false;
  return samePhrase(a.pairs, b.pairs) && !bothHold(a, b);
}

/**
 * Which candidates a later statement of the same thing supersedes, over the first `depth` hits.
 * Typed entries take no part (they use `supersedes:`). Statements of one day are one version.
 * @param subject the question's subject weights (restatement.ts subjectOf).
 * @returns chunk id → the newest statement of the same thing.
 */
export function slotVersions(
  hits: readonly { ref: string }[],
  chunk: (ref: string) => ChunkRecord | undefined,
  subject: QueryWeights,
  depth = hits.length,
  question = '',
): Map<string, Restatement> {
  const out = new Map<string, Restatement>();
  const elided = elidedKind(question);
  if (subject.total <= 0) return out;
  const all: SlotStatement[] = [];
  for (const h of hits.slice(0, depth)) {
    const c = chunk(h.ref);
    if (!c || c.entry) continue;
    const s = slotStatement(h.ref, c, subject);
    if (s) all.push(s);
  }
  const seen = new Set<string>();
  for (const s of all) for (const t of s.terms) if (subject.terms.has(t)) seen.add(t);
  let held = 0;
  for (const t of seen) held += subject.terms.get(t)!;
  // Newest first: the first later match is the newest version.
  const byDate = [...all].sort((x, y) => (x.date < y.date ? 1 : x.date > y.date ? -1 : 0));
  for (let i = 0; i < byDate.length; i++) {
    const a = byDate[i]!;
    for (let j = 0; j < i; j++) {
      const b = byDate[j]!;
      if (b.date > a.date && sameSlot(a, b, subject, held, elided)) {
        out.set(a.ref, { path: b.path, line: b.line, date: b.date });
        break;
      }
    }
  }
  return out;
}
