// Implicit supersession: in daily notes and other dated prose (no `supersedes:` front-matter), a
// later statement that changes a rule, fact or decision replaces an earlier one. Judged per query
// over the recall's candidates, never stored: an earlier candidate is replaced by a later-dated one
// when the sentences of each that answer the question's subject (their focal sentences; the
// question without "current", "rule", "which … should be used") name the same subject words, the
// earlier one's turn states a rule or decision (a normative word: "always", "never", "please", "we
// use", …) and the later one's turn announces a change ("from now on", "going forward", "instead",
// "switch to", "update our convention", …). The new wording may differ entirely ("use x_ now"
// after "start arguments with e_"); a later turn that only mentions the subject replaces nothing.
// Both focal sentences name the subject with the same phrase (versions.ts samePhrase: "function
// names" is not "function argument names"). A later directive of the same subject that announces no
// change ("I think it would be best if you use …") is a new version too (versions.ts).
// The earlier one is then `supersededBy` the latest (path:line, date), ranks right below it, and
// leaves the context block unless history is asked for.
// Pure; deps: indexes (evidence, tokenizer, stemmer), engine (types).
import type { ChunkRecord } from '../../engine/chunks/index-manager.js';
import { lineScore, sentences, type QueryWeights } from '../../indexes/evidence/evidence.js';
import { stemOf } from '../../indexes/lexical/lexical.js';
import { tokenize } from '../../core/tokenize.js';
import { versionsNewestFirst } from './version-order.js';
import { asksNorm } from './current-first.js';
import { bothHold, ruleShape, subjectOverlap, withoutContractions, type RuleShape } from './statement-words.js';
import { pairsOf, samePhrase, sequenceOf, slotVersions } from './versions.js';

/** Where and when the newer statement of the same thing stands. */
export interface Restatement {
  /** Workspace-relative path of the newer statement. */
  readonly path: string;
  /** 1-based file line of its focal sentence. */
  readonly line: number;
  /** Its date (YYYY-MM-DD). */
  readonly date: string;
}

/**
 * Share of the subject words named by either of two focal sentences that both name: at or above it
 * they answer the question with the same words (a sentence about "method names" and one about
 * "function names" do not).
 */
const SAME_QUERY_TERMS = 0.75;
/**
 * Least share of the subject's weight (of the words the candidates hold) the shared words carry:
 * the subject is what was asked, not a side word of it.
 */
const MIN_SUBJECT = 0.3;

/**
 * A sentence that states a rule, a standing fact or a decision, or changes one: normative words
 * (always, never, must, should, make sure, want/need you to, please), rule nouns (rule, convention, policy,
 * standard, guideline), and change words (from now on, going forward, instead, no longer, switch,
 * update, change, decided, replace, we use / we've moved to).
 */
const STATEMENT =
  /\b(?:always|never|must|should|make sure|(?:want|need|like|ask|expect)s? you to|please|from now on|going forward|moving forward|henceforth|instead|no longer|any ?more|rather than|stop using|switch(?:ed|ing)? (?:to|over)|chang(?:e|ed|ing)|updat(?:e|ed|ing)|replac(?:e|ed|ing)|decid(?:e|ed)|rules?|conventions?|polic(?:y|ies)|standards?|guidelines?|(?:we|team|everyone) (?:now |primarily |mainly |all )?use)\b/iu;

/**
 * Words that announce a change of a standing rule or decision: "from now on", "from this point on",
 * "going forward", "moving forward", "henceforth", "instead", "no longer", "anymore", "switch to",
 * "transition to", "start using", "we'll be using",
 * "update"/"change"/"adjust"/"revise" (you on) (our / the / a previous …) convention|rule|instruction|…,
 * "new convention". A later passage with one of them that
 * covers the same question terms restates the rule even in other words ("use x_ now" after "start
 * arguments with e_"), so it needs no further shared words.
 */
const CHANGE =
  /\b(?:from now on|from this point (?:on|onwards?|forward)|going forward|moving forward|henceforth|instead|no longer|any ?more|switch(?:ed|ing)? (?:to|over)|transition(?:ed|ing)? to|(?:start|begin|began|begun)(?:s|ed|ning|ing)? (?:using|to use)|(?:we(?:'ll| will)|you(?:'ll| will)) be using|(?:updat|chang|adjust|revis)(?:e|ed|es|ing)? (?:you )?(?:to |on |in |of |about )?(?:our |the |your |my |this |that |a |an |some |these |those |previous |earlier )?(?:\w+ ){0,2}(?:conventions?|rules?|polic(?:y|ies)|standards?|guidelines?|practices?|style|instructions?|advice|approach|process|setup|changes?|updates?)|new (?:conventions?|rules?|polic(?:y|ies)|standards?|guidelines?))\b/iu;

/** Whether `text` (a turn) announces a change of a standing rule or decision ({@link CHANGE}). */
export function announcesChange(text: string): boolean {
  return CHANGE.test(text);
}

interface Focal extends RuleShape {
  readonly ref: string;
  readonly c: ChunkRecord;
  readonly date: string;
  readonly line: number;
  /** Stemmed terms of the focal sentence. */
  readonly terms: ReadonlySet<string>;
  readonly statement: boolean;
  /** Whether the passage announces a change ({@link CHANGE}). */
  readonly change: boolean;
  /** Subject words side by side in the focal sentence (versions.ts pairsOf). */
  readonly pairs: ReadonlySet<string>;
}

/** A list marker and a short `Name:` speaker label at the start of a line: who spoke is not the subject. */
const LEAD = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,30}:\s)?/u;

const termsOf = (text: string) => new Set(tokenize(withoutContractions(text.replace(LEAD, ''))).map(stemOf));

/** The query terms `text` names. */
const namedIn = (q: QueryWeights, text: string) => new Set([...termsOf(text)].filter((t) => q.terms.has(t)));

/**
 * The chunk's sentence that best answers the query (its subject terms), with its file line;
 * undefined when none matches. When that sentence's turn states no rule, a sentence of a turn that
 * does and names every query term it names takes its place (the rule, not the listener's "I'll start
 * method names with x_"). Whether it states
 * (`statement`) or changes (`change`) a rule is read off its whole line, a turn of the conversation: "I wanted to talk about our version control system.
 * Going forward, use GitLab." and "From now on, start function names with a_. Also, end argument
 * names with _h." state each of their rules.
 */
function focalOf(ref: string, c: ChunkRecord, q: QueryWeights): Focal | undefined {
  type Sentence = { text: string; turn: string; line: number; s: number; statement: boolean; named: Set<string> };
  const all: Sentence[] = [];
  c.text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    const statement = STATEMENT.test(l);
    for (const s of sentences(l)) {
      const text = withoutContractions(s.at === 0 ? s.text.replace(LEAD, '') : s.text);
      const v = lineScore(q, text);
      if (v > 0) all.push({ text: s.text, turn: l, line: c.startLine + i, s: v, statement, named: namedIn(q, text) });
    }
  });
  let best: Sentence | undefined;
  for (const x of all) if (!best || x.s > best.s) best = x;
  // The listener's read-back ("I'll start method names with x_") names the rule the speaker's turn states.
  if (best && !best.statement) {
    const b = best;
    for (const x of all)
      if (x.statement && [...b.named].every((t) => x.named.has(t)) && (best === b || x.s > best.s)) best = x;
  }
  if (!best) return undefined;
  const b = best;
  const turn = all.filter((x) => x.turn === b.turn);
  const alike = (text: string) => [...b.named].every((t) => turn.find((x) => x.text === text)?.named.has(t));
  return {
    ...ruleShape(
      b.text,
      turn.map((x) => x.text),
      alike,
    ),
    ref,
    c,
    date: c.date!.slice(0, 10),
    // A hard-split piece of one long line keeps its own first line.
    line: Math.min(best.line, c.endLine),
    terms: termsOf(best.text),
    statement: best.statement,
    change: CHANGE.test(best.turn),
    pairs: pairsOf(sequenceOf(best.text), q),
  };
}

/**
 * Words a question uses to ask for the standing version of something ("what is the *current rule*
 * for naming methods", "the latest policy on …"), its question words and its frame ("which … should
be used", "the rule about …"): they say
 * which statement is wanted, not what it is about, so the subject is the question without them.
 */
const ASKS_CURRENT = new Set(
  [
    ...['current', 'currently', 'latest', 'now', 'nowadays', 'today', 'still', 'rule', 'rules', 'policy', 'policies'],
    ...['what', 'which', 'who', 'how', 'when', 'where', 'why', 'should', 'do', 'does', 'did', 'can', 'could', 'would'],
    ...['about', 'use', 'used', 'using'],
  ].map(stemOf),
);

/** The question's subject: its weights without {@link ASKS_CURRENT} words (all of them when nothing else is left). */
export function subjectOf(q: QueryWeights): QueryWeights {
  const terms = new Map([...q.terms].filter(([t]) => !ASKS_CURRENT.has(t)));
  if (terms.size === 0 || terms.size === q.terms.size) return q;
  let total = 0;
  for (const w of terms.values()) total += w;
  return { terms, total };
}

/**
 * Whether the later focal sentence `b` changes the rule the earlier `a` states (see the file comment).
 * @param held the subject weight the candidates hold.
 */
function changes(a: Focal, b: Focal, q: QueryWeights, held: number): boolean {
  if (!a.statement || !b.change || held <= 0) return false;
  // Each subject word the passages name counts once here, however common: in a coding memory
  // "function" and "method" are frequent, yet a rule about one is not a rule about the other.
  const { na, nb, both, shared } = subjectOverlap(a.terms, b.terms, q.terms);
  return (
    both >= SAME_QUERY_TERMS * Math.max(na, nb) &&
    shared >= MIN_SUBJECT * held &&
    samePhrase(a.pairs, b.pairs) &&
    !bothHold(a, b)
  );
}

/**
 * Which candidates a later candidate restates (implicit supersession), over the first `depth` hits.
 * Only dated chunks that are not typed entries take part (entries use `supersedes:`, truth.ts).
 * @param hits best first.
 * @param q the question's term weights (idf); its subject is taken from them ({@link subjectOf}).
 * @param text the question as typed: a "which … tool" phrase's kind word may go unnamed (versions.ts elidedKind).
 * @returns chunk id → the newest statement of the same thing (a later date than the chunk's).
 */
export function restatements(
  hits: readonly { ref: string }[],
  chunk: (ref: string) => ChunkRecord | undefined,
  question: QueryWeights,
  depth = hits.length,
  text = '',
): Map<string, Restatement> {
  const focals: Focal[] = [];
  const q = subjectOf(question);
  for (const h of hits.slice(0, depth)) {
    const c = chunk(h.ref);
    if (!c || c.entry || !c.date || !/^\d{4}-\d{2}-\d{2}/.test(c.date)) continue;
    const f = focalOf(h.ref, c, q);
    if (f?.statement) focals.push(f);
  }
  // The question's weight the candidates hold: words of the question no candidate has ("current",
  // "rule") cannot name the subject.
  const seen = new Set<string>();
  for (const f of focals) for (const t of f.terms) if (q.terms.has(t)) seen.add(t);
  let held = 0;
  for (const t of seen) held += q.terms.get(t)!;
  const out = new Map<string, Restatement>();
  // Newest first: the first later match found is the newest statement of the thing.
  const byDate = [...focals].sort((x, y) => (x.date < y.date ? 1 : x.date > y.date ? -1 : 0));
  for (let i = 0; i < byDate.length; i++) {
    const a = byDate[i]!;
    for (let j = 0; j < i; j++) {
      const b = byDate[j]!;
      if (b.date <= a.date) continue;
      if (changes(a, b, q, held)) {
        out.set(a.ref, { path: b.c.path, line: b.line, date: b.date });
        break;
      }
    }
  }
  // Versions of the same thing stated without change words (versions.ts); the newer statement wins.
  for (const [ref, r] of slotVersions(hits, chunk, q, depth, text)) {
    const had = out.get(ref);
    if (!had || had.date < r.date) out.set(ref, r);
  }
  return out;
}

/**
 * `hits` with every restated hit that ranks above the hit that restates it (the newest statement)
 * moved right below that hit, its score capped just under that hit's; then the versions of each
 * thing in date order over the slots they hold (version-order.ts), so a later statement of the same
 * thing always ranks above an earlier one. Other hits keep their order.
 * @param within the results returned: only versions among the first `within` hits trade places.
 */
export function newerFirst<T extends { ref: string; score: number }>(
  hits: readonly T[],
  restated: ReadonlyMap<string, Restatement>,
  chunk: (ref: string) => ChunkRecord | undefined,
  within = hits.length,
  question?: string,
): T[] {
  if (restated.size === 0) return [...hits];
  // The newer statement's hit: the chunk holding its line.
  const holder = (r: Restatement) =>
    hits.find((h) => {
      const c = chunk(h.ref);
      return c && c.path === r.path && r.line >= c.startLine && r.line <= c.endLine;
    });
  const links = new Map<string, string>();
  for (const h of hits) {
    const r = restated.get(h.ref);
    if (r) links.set(h.ref, holder(r)?.ref ?? `${r.path}:${r.line}`);
  }
  const dayOf = (ref: string) => chunk(ref)?.date?.slice(0, 10) ?? '';
  // For a question about what holds now (current-first.ts asksNorm), first the versions of each thing
  // take the slots they hold, newest first (version-order.ts): the newer statement moves up into the
  // earlier one's slot, and no other hit moves. Another question ("when did …") may want the earlier.
  const slotted =
    question === undefined || asksNorm(question) ? versionsNewestFirst(hits, links, dayOf, within) : [...hits];
  const after = new Map<string, T[]>();
  const out: T[] = [];
  const rank = new Map(slotted.map((h, i) => [h.ref, i]));
  for (const h of slotted) {
    const r = restated.get(h.ref);
    const by = r ? holder(r) : undefined;
    // An earlier statement still ranked above the newer one (the newer one is below the results
    // returned) moves right below it; one already below it stays where it is (pulled up beside the
    // newer one, it would push other answers out of the first results).
    if (by && by.ref !== h.ref && rank.get(h.ref)! < rank.get(by.ref)!)
      after.set(by.ref, [...(after.get(by.ref) ?? []), h]);
  }
  const moved = new Set([...after.values()].flat().map((h) => h.ref));
  const emit = (h: T, cap: number) => {
    const score = Math.min(h.score, cap);
    out.push(score === h.score ? h : { ...h, score });
    for (const d of after.get(h.ref) ?? []) emit(d, score * (1 - 1e-6));
  };
  for (const h of slotted) if (!moved.has(h.ref)) emit(h, Number.POSITIVE_INFINITY);
  // Every later version above every earlier one, in the slots the versions hold (version-order.ts).
  return versionsNewestFirst(out, links, dayOf, within);
}

/**
 * For history (`recall --history`): every statement of a thing listed together, oldest first, where
 * the best-ranked of them stood; other hits keep their order.
 */
export function versionsInDateOrder<T extends { ref: string }>(
  hits: readonly T[],
  restated: ReadonlyMap<string, Restatement>,
  chunk: (ref: string) => ChunkRecord | undefined,
): T[] {
  if (restated.size === 0) return [...hits];
  const keyOf = (h: T): string => {
    const r = restated.get(h.ref);
    if (r) return `${r.path}:${r.line}`;
    const c = chunk(h.ref);
    // A newest statement is keyed by the line other hits point at, when it holds one.
    for (const x of restated.values())
      if (c && x.path === c.path && x.line >= c.startLine && x.line <= c.endLine) return `${x.path}:${x.line}`;
    return `#${h.ref}`;
  };
  const groups = new Map<string, T[]>();
  for (const h of hits) {
    const k = keyOf(h);
    groups.set(k, [...(groups.get(k) ?? []), h]);
  }
  const day = (h: T) => chunk(h.ref)?.date?.slice(0, 10) ?? '';
  return [...groups.values()].flatMap((g) =>
    g.length > 1 ? [...g].sort((a, b) => (day(a) < day(b) ? -1 : day(a) > day(b) ? 1 : 0)) : g,
  );
}

/**
 * Whether a question asks how something changed or went over time ("what changed in the deploy
 * script", "how did we fix the flaky test over time", "history of the pool size", "what did we do
 * before and what now"): its block then covers the notes involved, oldest first, and keeps earlier versions.
 */
export function asksHistory(query: string): boolean {
  return HISTORY.test(query);
}
const HISTORY =
  /\b(?:what|how)\b[^?.!]*\b(?:chang(?:e|ed|es)|evolv(?:e|ed))\b|\bover (?:time|the (?:years|months|weeks|sessions))\b|\bhistory of\b|\bchanges? (?:to|in|of)\b|\b(?:before|earlier|previously|at first)\b[^?.!]*\b(?:now|later|then)\b|\bhow did (?:we|you|they|\w+) (?:fix|solve|handle|approach)\b/iu;
