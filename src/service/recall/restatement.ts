// Implicit supersession: in daily notes and other dated prose (no `supersedes:` front-matter), a
// later statement of the same rule, fact or decision replaces an earlier one. Judged per query over
// the recall's candidates, never stored: two candidates from different dates are about the same
// thing when the sentences of each that answer the query (their focal sentences) cover the same
// query terms and share distinctive words beyond them, and both state a rule or a decision (a
// normative or change word: "always", "from now on", "instead", "we use", …). The earlier one is
// then `supersededBy` the latest (path:line, date), ranks right below it, and leaves the context
// block unless history is asked for. Pure; deps: indexes (evidence, tokenizer, stemmer), engine (types).
import type { ChunkRecord } from '../../engine/index-manager.js';
import { lineScore, sentences, type QueryWeights } from '../../indexes/evidence.js';
import { stemOf } from '../../indexes/lexical.js';
import { tokenize } from '../../indexes/tokenize.js';

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
 * Share of the larger query-term weight of two focal sentences that both hold: at or above it they
 * answer the question with the same terms (a sentence about "method names" and one about "function
 * names" do not).
 */
const SAME_QUERY_TERMS = 0.75;
/** Least share of the query's weight the shared query terms hold (the subject is what was asked). */
const MIN_SUBJECT = 0.3;
/**
 * Least idf-weighted overlap (shared weight ÷ the smaller sentence's weight) of the focal sentences'
 * words beyond the query: the statements say the same kind of thing, not merely name the subject.
 */
const MIN_OVERLAP = 0.1;

/**
 * A sentence that states a rule, a standing fact or a decision, or changes one: normative words
 * (always, never, must, should, make sure, want/need you to), rule nouns (rule, convention, policy,
 * standard, guideline), and change words (from now on, going forward, instead, no longer, switch,
 * update, change, decided, replace, we use / we've moved to).
 */
const STATEMENT =
  /\b(?:always|never|must|should|make sure|(?:want|need|like|ask|expect)s? you to|from now on|going forward|moving forward|henceforth|instead|no longer|any ?more|rather than|stop using|switch(?:ed|ing)? (?:to|over)|chang(?:e|ed|ing)|updat(?:e|ed|ing)|replac(?:e|ed|ing)|decid(?:e|ed)|rules?|conventions?|polic(?:y|ies)|standards?|guidelines?|(?:we|team|everyone) (?:now |primarily |mainly |all )?use)\b/iu;

interface Focal {
  readonly ref: string;
  readonly c: ChunkRecord;
  readonly date: string;
  readonly line: number;
  /** Stemmed terms of the focal sentence. */
  readonly terms: ReadonlySet<string>;
  readonly statement: boolean;
}

/** A list marker and a short `Name:` speaker label at the start of a line: who spoke is not the subject. */
const LEAD = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,30}:\s)?/u;

const termsOf = (text: string) => new Set(tokenize(text.replace(LEAD, '')).map(stemOf));

/** The chunk's sentence that best answers the query, with its file line; undefined when none matches. */
function focalOf(ref: string, c: ChunkRecord, q: QueryWeights): Focal | undefined {
  let best: { text: string; line: number; s: number } | undefined;
  c.text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    for (const s of sentences(l)) {
      const v = lineScore(q, s.at === 0 ? s.text.replace(LEAD, '') : s.text);
      if (v > 0 && (!best || v > best.s)) best = { text: s.text, line: c.startLine + i, s: v };
    }
  });
  if (!best) return undefined;
  // A hard-split piece of one long line keeps its own first line.
  const line = Math.min(best.line, c.endLine);
  return {
    ref,
    c,
    date: c.date!.slice(0, 10),
    line,
    terms: termsOf(best.text),
    statement: STATEMENT.test(best.text),
  };
}

/** Whether the earlier focal sentence `a` and the later `b` state the same thing (see the file comment). */
function sameSubject(a: Focal, b: Focal, q: QueryWeights, idf: (t: string) => number): boolean {
  if (!a.statement || !b.statement || q.total <= 0) return false;
  let wa = 0;
  let wb = 0;
  let shared = 0;
  for (const [t, w] of q.terms) {
    const inA = a.terms.has(t);
    const inB = b.terms.has(t);
    if (inA) wa += w;
    if (inB) wb += w;
    if (inA && inB) shared += w;
  }
  if (shared < SAME_QUERY_TERMS * Math.max(wa, wb) || shared < MIN_SUBJECT * q.total) return false;
  let ra = 0;
  let rb = 0;
  let both = 0;
  for (const t of a.terms) if (!q.terms.has(t)) ra += idf(t);
  for (const t of b.terms) {
    if (q.terms.has(t)) continue;
    rb += idf(t);
    if (a.terms.has(t)) both += idf(t);
  }
  const smaller = Math.min(ra, rb);
  return smaller > 0 && both >= MIN_OVERLAP * smaller;
}

/**
 * Which candidates a later candidate restates (implicit supersession), over the first `depth` hits.
 * Only dated chunks that are not typed entries take part (entries use `supersedes:`, truth.ts).
 * @param hits best first.
 * @param idf the keyword index's idf of a stemmed term (1 when unknown).
 * @returns chunk id → the newest statement of the same thing (a later date than the chunk's).
 */
export function restatements(
  hits: readonly { ref: string }[],
  chunk: (ref: string) => ChunkRecord | undefined,
  q: QueryWeights,
  idf: (term: string) => number = () => 1,
  depth = hits.length,
): Map<string, Restatement> {
  const focals: Focal[] = [];
  for (const h of hits.slice(0, depth)) {
    const c = chunk(h.ref);
    if (!c || c.entry || !c.date || !/^\d{4}-\d{2}-\d{2}/.test(c.date)) continue;
    const f = focalOf(h.ref, c, q);
    if (f?.statement) focals.push(f);
  }
  const out = new Map<string, Restatement>();
  // Newest first: the first later match found is the newest statement of the thing.
  const byDate = [...focals].sort((x, y) => (x.date < y.date ? 1 : x.date > y.date ? -1 : 0));
  for (let i = 0; i < byDate.length; i++) {
    const a = byDate[i]!;
    for (let j = 0; j < i; j++) {
      const b = byDate[j]!;
      if (b.date <= a.date) continue;
      if (sameSubject(a, b, q, idf)) {
        out.set(a.ref, { path: b.c.path, line: b.line, date: b.date });
        break;
      }
    }
  }
  return out;
}

/**
 * `hits` with every restated hit moved right below the hit that restates it (the newest statement),
 * its score capped just under that hit's, so a later statement of the same thing always ranks above
 * an earlier one. Other hits keep their order.
 */
export function newerFirst<T extends { ref: string; score: number }>(
  hits: readonly T[],
  restated: ReadonlyMap<string, Restatement>,
  chunk: (ref: string) => ChunkRecord | undefined,
): T[] {
  if (restated.size === 0) return [...hits];
  // The newer statement's hit: the chunk holding its line.
  const holder = (r: Restatement) =>
    hits.find((h) => {
      const c = chunk(h.ref);
      return c && c.path === r.path && r.line >= c.startLine && r.line <= c.endLine;
    });
  const after = new Map<string, T[]>();
  const out: T[] = [];
  for (const h of hits) {
    const r = restated.get(h.ref);
    const by = r ? holder(r) : undefined;
    if (by && by.ref !== h.ref) after.set(by.ref, [...(after.get(by.ref) ?? []), h]);
  }
  const moved = new Set([...after.values()].flat().map((h) => h.ref));
  const emit = (h: T, cap: number) => {
    const score = Math.min(h.score, cap);
    out.push(score === h.score ? h : { ...h, score });
    for (const d of after.get(h.ref) ?? []) emit(d, score * (1 - 1e-6));
  };
  for (const h of hits) if (!moved.has(h.ref)) emit(h, Number.POSITIVE_INFINITY);
  return out;
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
