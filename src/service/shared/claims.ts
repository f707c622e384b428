// Two claims side by side: are they the same statement with one thing changed? The texts are cut into
// claim tokens (words, numbers, names; dates and list numbers set aside), aligned word for word (the
// longest common subsequence), and what differs is read as hunks: words one side adds (an elaboration)
// or a slot whose words were replaced. A contradiction is the same statement with a negation added
// or removed, or with exactly one slot replaced by a value of the same kind (a number for a number,
// an opposite word, a name for a name). Two or more replaced slots, or a number against words, make
// different statements. Pure and lexical: no model, no I/O. Measured on fixtures/conflicts/pairs.json
// (bench/conflicts.ts, printed by `npm run bench`). deps: indexes (tokenizer).
import { stemWord } from '../../core/words.js';
import { STOP_WORDS, tokenize } from '../../core/tokenize.js';

/** Why two near matches look like they disagree. */
export type ConflictReason = 'negation' | 'number' | 'opposite' | 'substitution';

/** Share of the shorter text's subject words the other must hold for the two to be about one thing. */
export const SUBJECT_OVERLAP = 0.5;
/** At least this many subject words shared. */
const MIN_SHARED = 2;
/** A replaced slot holds at most this many words on each side (a value, not a new clause). */
const SLOT_WORDS = 2;
/** Tokens read per text (a claim is a line or a short entry; longer texts are cut). */
const MAX_TOKENS = 160;

type Kind = 'word' | 'num' | 'name' | 'date' | 'neg' | 'filler';

export interface ClaimToken {
  /** Comparison key: lower case, stemmed for words. */
  readonly key: string;
  readonly kind: Kind;
  /** A name, a number, code, a capitalised word inside a sentence or a short acronym: can be a fact's value. */
  readonly value: boolean;
  /** Subject parts: an identifier's pieces, a word's stem (empty for numbers, dates, negations, filler). */
  readonly parts: readonly string[];
}

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'without', 'cannot', 'nor', 'avoid']);
const OPPOSITES: readonly (readonly [string, string])[] = [
  ['enable', 'disable'],
  ['enabled', 'disabled'],
  ['always', 'never'],
  ['true', 'false'],
  ['allow', 'deny'],
  ['sync', 'async'],
  ['synchronous', 'asynchronous'],
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
  ['internal', 'external'],
  ['allowed', 'forbidden'],
];
/** Words too common to be a subject or a value; they still anchor the alignment. */
const FILLER = new Set([
  'do',
  'does',
  'did',
  'done',
  'we',
  'our',
  'us',
  'you',
  'your',
  'i',
  'my',
  'he',
  'she',
  'his',
  'her',
  'them',
  'itself',
  'can',
  'could',
  'may',
  'might',
  'must',
  'should',
  'would',
  'shall',
  'so',
  'also',
  'only',
  'just',
  'each',
  'every',
  'per',
  'all',
  'any',
  'some',
  'use',
  'uses',
  'used',
  'using',
  'been',
  'being',
  'am',
  'etc',
  'which',
  'who',
  'what',
  'when',
  'where',
  'how',
  'here',
  'now',
  'still',
  'very',
  'up',
]);
const COPULAS = new Set(['is', 'are', 'was', 'were', 'be']);
const MONTHS =
  /^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)$/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:t[\d:.]+(?:z|[+-]\d{2}:?\d{2})?)?$/;
const TIME = /^\d{1,2}:\d{2}(?::\d{2})?$/;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The shared light stemmer (core/words.ts), for ASCII words only: names and other scripts stay whole. */
function stem(t: string): string {
  return /[^a-z]/.test(t) ? t : stemWord(t);
}
const OPPOSITE_WORDS = new Set(OPPOSITES.flat());
const OPPOSITE_STEMS: readonly (readonly [string, string])[] = OPPOSITES.map(([x, y]) => [stem(x), stem(y)]);

/** Markdown and metadata that carry no claim: list markers, quotes, emphasis, link targets, `[key=value …]` trailers, HTML comments. */
function plain(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/^[ \t]*(?:(?:[-*+>]|\d{1,3}[.)])[ \t]+)+/gm, '')
    .replace(/!?\[([^\]\n]*)\]\([^)\s]*\)/g, '$1')
    .replace(/\[(?:[\w.-]+=[^\s\]]*\s*)+\]/g, ' ')
    .replace(/(\S\.\w{1,6})\((\d+),(\d+)\)/g, '$1:$2:$3')
    .replace(/\*\*|__/g, ' ');
}

/** The claim tokens of `text`, in order. */
export function claimTokens(text: string): ClaimToken[] {
  const out: ClaimToken[] = [];
  // Words, code spans and identifiers; `=` splits a setting from its value (`MODE=true`).
  const raw = plain(text).match(/`[^`\n]+`|[^\s,;()[\]{}"“”‘’<>|!?=→—–…、，。：；！？（）「」]+/gu) ?? [];
  let sentenceStart = true;
  for (const r0 of raw) {
    if (out.length >= MAX_TOKENS) break;
    const code = r0.startsWith('`');
    if (code) {
      // A code span: each of its words is a name (`MODE=true` is the name MODE and the value true).
      for (const w of r0
        .slice(1, -1)
        .split(/[\s=(),'"]+/)
        .filter((x) => /[\p{L}\p{N}]/u.test(x))) {
        const lw = w.toLowerCase();
        out.push(OPPOSITE_WORDS.has(lw) ? { key: lw, kind: 'word', value: true, parts: [lw] } : nameToken(lw));
      }
      sentenceStart = false;
      continue;
    }
    const ends = /[.:]$/.test(r0);
    const r = r0.replace(/^['"*_~>#.:]+|['"*_~.:]+$/g, '').replace(/['’]s$/, '');
    if (!r || !/[\p{L}\p{N}]/u.test(r)) {
      if (ends) sentenceStart = true;
      continue;
    }
    const lower = r.toLowerCase();
    const first = sentenceStart;
    sentenceStart = ends;
    if (CJK.test(r)) {
      for (const t of tokenize(r, { fold: false, stopWords: false }))
        out.push({ key: t, kind: /\d/.test(t) ? 'num' : 'word', value: false, parts: /\d/.test(t) ? [] : [t] });
      continue;
    }
    if (/^\d{1,2}$/.test(lower) && out.length && out[out.length - 1]!.kind === 'date') {
      out.push({ key: lower, kind: 'date', value: false, parts: [] }); // "April 14, 2025": the day after a month
      continue;
    }
    if (DATE.test(lower) || (/^\d{4}$/.test(lower) && out.length && out[out.length - 1]!.kind === 'date')) {
      out.push({ key: lower, kind: 'date', value: false, parts: [] });
      continue;
    }
    if (MONTHS.test(lower) && /^[A-Z]/.test(r) && lower !== 'may') {
      out.push({ key: lower, kind: 'date', value: false, parts: [] });
      continue;
    }
    if (TIME.test(lower) && out.length && out[out.length - 1]!.kind === 'date') {
      out.push({ key: lower, kind: 'date', value: false, parts: [] }); // a time stamped on a date
      continue;
    }
    if (/n['’]t$/.test(lower) || NEGATIONS.has(lower)) {
      out.push({ key: 'not', kind: 'neg', value: false, parts: [] });
      continue;
    }
    if (STOP_WORDS.has(lower) || COPULAS.has(lower)) {
      if (COPULAS.has(lower)) out.push({ key: lower, kind: 'filler', value: false, parts: [] });
      continue;
    }
    if (FILLER.has(lower)) {
      out.push({ key: lower, kind: 'filler', value: false, parts: [] });
      continue;
    }
    if (/\d/.test(lower) && !/[/\\]|\.[a-z]{1,6}(?::\d+)*$/.test(lower)) {
      out.push({ key: lower.replace(/^0+(?=\d)/, ''), kind: 'num', value: true, parts: [] });
      continue;
    }
    if (/[._/\\@:=-]|\p{L}\d|\d\p{L}/u.test(r) || /[a-z][A-Z]/.test(r)) {
      out.push(nameToken(lower));
      continue;
    }
    // A capitalised word inside a sentence is a name; a word in capitals is one only when short (an acronym, not emphasis).
    const capital = /^\p{Lu}/u.test(r) && !/^[\p{Lu}\d]+$/u.test(r) && !first;
    const acronym = /^[\p{Lu}\d]{2,5}$/u.test(r);
    const key = stem(lower);
    out.push({ key, kind: 'word', value: capital || acronym, parts: [key] });
  }
  return out;
}

function nameToken(lower: string): ClaimToken {
  const parts = lower
    .split(/[^\p{L}\p{N}]+/u)
    .filter((p) => p && !/^\d+$/.test(p))
    .map(stem);
  return { key: lower, kind: 'name', value: true, parts };
}

/** Whether two keys name the same thing: equal, or a `*` glob of one covers the other (`STRIPE_PRICE_*`). */
function same(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.endsWith('*') && a.length > 2) return b.startsWith(a.slice(0, -1));
  if (b.endsWith('*') && b.length > 2) return a.startsWith(b.slice(0, -1));
  return false;
}

const aligned = (t: ClaimToken) => t.kind === 'word' || t.kind === 'num' || t.kind === 'name';

/** Index pairs (into `a` and `b`) of a longest common subsequence of their aligned tokens. */
function lcs(a: readonly ClaimToken[], b: readonly ClaimToken[]): [number, number][] {
  const ai = a.flatMap((t, i) => (aligned(t) ? [i] : []));
  const bi = b.flatMap((t, i) => (aligned(t) ? [i] : []));
  const n = ai.length;
  const m = bi.length;
  const dp: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      dp[i]![j] = same(a[ai[i]!]!.key, b[bi[j]!]!.key)
        ? dp[i + 1]![j + 1]! + 1
        : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const out: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (same(a[ai[i]!]!.key, b[bi[j]!]!.key)) {
      out.push([ai[i]!, bi[j]!]);
      i++;
      j++;
    } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/** Subject words: every part of the words and names (numbers, dates, negations and filler left out). */
function subjectOf(ts: readonly ClaimToken[]): Set<string> {
  const s = new Set<string>();
  for (const t of ts) for (const p of t.parts) s.add(p);
  return s;
}

/** The verdict on two claims. */
export interface ClaimComparison {
  /** Share of the shorter text's subject words the other holds (overlap coefficient), 0…1. */
  readonly similarity: number;
  /** Empty when the texts agree, elaborate one another, or say different things. */
  readonly reasons: readonly ConflictReason[];
}

interface Hunk {
  readonly a: readonly ClaimToken[];
  readonly b: readonly ClaimToken[];
  /** A shared word comes before it (the claim's subject is named first). */
  readonly anchored: boolean;
  /** It ends both texts and follows a copula (`… is <value>`). */
  readonly complement: boolean;
  /** It ends both texts. */
  readonly tail: boolean;
}

function hunksOf(A: readonly ClaimToken[], B: readonly ClaimToken[], pairs: readonly [number, number][]): Hunk[] {
  const out: Hunk[] = [];
  let pa = 0;
  let pb = 0;
  const stops = [...pairs, [A.length, B.length] as [number, number]];
  stops.forEach(([i, j], k) => {
    const a = A.slice(pa, i);
    const b = B.slice(pb, j);
    if (a.length || b.length) {
      // `… is <value>` at the end of both texts: the copula is the hunk's first token on each side.
      const copula = (x: readonly ClaimToken[]) => x.length > 1 && COPULAS.has(x[0]!.key);
      const tail = k === stops.length - 1;
      out.push({ a, b, anchored: k > 0, tail, complement: tail && copula(a) && copula(b) });
    }
    pa = i + 1;
    pb = j + 1;
  });
  return out;
}

/** Negations in `x` that bear on what `other` says: a word of `other` follows within three tokens. */
function scopedNegations(x: readonly ClaimToken[], other: readonly ClaimToken[]): number[] {
  const keys = other.filter(aligned).map((t) => t.key);
  const out: number[] = [];
  x.forEach((t, i) => {
    if (t.kind !== 'neg') return;
    const next = x.slice(i + 1, i + 5).filter(aligned);
    if (next.slice(0, 3).some((n) => keys.some((k) => same(k, n.key)))) out.push(i);
  });
  return out;
}

/**
 * Compare two memory texts. `reasons` is non-empty only when their subjects overlap
 * ({@link SUBJECT_OVERLAP}, at least two shared subject words) and they are the same statement with
 * a negation added or removed, or with one slot replaced by a value of the same kind.
 */
export function compareClaimTexts(a: string, b: string): ClaimComparison {
  return comparePrepared(prepareClaim(a), prepareClaim(b));
}

/** A text cut into claim tokens once, for comparing it with many others (recall's labels). */
export interface PreparedClaim {
  readonly tokens: readonly ClaimToken[];
  readonly subject: ReadonlySet<string>;
}

/** @returns `text`'s claim tokens and subject words, for {@link comparePrepared}. */
export function prepareClaim(text: string): PreparedClaim {
  const tokens = claimTokens(text);
  return { tokens, subject: subjectOf(tokens) };
}

/** {@link compareClaimTexts} over prepared texts. */
export function comparePrepared(pa: PreparedClaim, pb: PreparedClaim): ClaimComparison {
  const A = pa.tokens;
  const B = pb.tokens;
  const sa = pa.subject;
  const sb = pb.subject;
  let shared = 0;
  for (const t of sa) if (sb.has(t)) shared++;
  const smaller = Math.min(sa.size, sb.size);
  const similarity = smaller ? Number((shared / smaller).toFixed(3)) : 0;
  if (shared < MIN_SHARED || similarity < SUBJECT_OVERLAP) return { similarity, reasons: [] };

  // Two dated events on different dates are two events, not one fact said twice.
  const dates = (x: readonly ClaimToken[]) =>
    x.filter((t) => t.kind === 'date' && /^\d{4}/.test(t.key)).map((t) => t.key);
  const da = dates(A);
  const db = dates(B);
  if (da.length && db.length && !da.some((d) => db.includes(d))) return { similarity, reasons: [] };

  const pairs = lcs(A, B);
  const hunks = hunksOf(A, B, pairs);
  // A compound counts as moved when the other text holds its parts as words (`free-plan` / `free plan`).
  const inA = new Set(A.filter((t) => t.kind === 'word').map((t) => t.key));
  const inB = new Set(B.filter((t) => t.kind === 'word').map((t) => t.key));
  const keysA = A.filter(aligned).map((t) => t.key);
  const keysB = B.filter(aligned).map((t) => t.key);
  // What a side of a hunk really replaces: its words and numbers, less those the other text holds elsewhere (moved, not changed).
  const changed = (side: readonly ClaimToken[], otherKeys: readonly string[], otherParts: ReadonlySet<string>) =>
    side.filter(
      (t) =>
        aligned(t) &&
        !otherKeys.some((k) => same(k, t.key)) &&
        !(t.parts.length > 0 && t.parts.every((p) => otherParts.has(p))),
    );
  const negA = new Set(scopedNegations(A, B).map((i) => A[i]!));
  const negB = new Set(scopedNegations(B, A).map((i) => B[i]!));
  const replaced: { a: ClaimToken[]; b: ClaimToken[]; hunk: Hunk; negated: boolean }[] = [];
  for (const h of hunks) {
    const a2 = changed(h.a, keysB, inB);
    const b2 = changed(h.b, keysA, inA);
    // Different tails, one longer than a slot (an aside each text adds), change no value, unless
    // both hold a number (a changed number is a changed value wherever it stands).
    const num = (x: readonly ClaimToken[]) => x.some((t) => t.kind === 'num');
    const tail = h.tail && (a2.length > SLOT_WORDS || b2.length > SLOT_WORDS) && !(num(a2) && num(b2));
    if (a2.length && b2.length && !tail)
      replaced.push({ a: a2, b: b2, hunk: h, negated: h.a.some((t) => negA.has(t)) || h.b.some((t) => negB.has(t)) });
  }
  const reasons: ConflictReason[] = [];
  // One change only: a negation that bears on shared words counts as one, unless it sits in the replaced slot.
  const negation = negA.size % 2 !== negB.size % 2;
  const changes = replaced.length + (negation && !replaced.some((r) => r.negated) ? 1 : 0);
  if (changes !== 1 || pairs.length < MIN_SHARED) return { similarity, reasons };
  if (negation) reasons.push('negation');
  if (replaced.length === 1 && !replaced[0]!.negated) {
    const { a: x, b: y, hunk } = replaced[0]!;
    const numX = x.some((t) => t.kind === 'num');
    const numY = y.some((t) => t.kind === 'num');
    const has = (side: readonly ClaimToken[], w: string) => side.some((t) => t.key === w);
    if (OPPOSITE_STEMS.some(([p, q]) => (has(x, p) && has(y, q)) || (has(x, q) && has(y, p)))) reasons.push('opposite');
    else if (numX && numY) reasons.push('number');
    else if (
      !numX &&
      !numY &&
      hunk.anchored &&
      x.length <= SLOT_WORDS &&
      y.length <= SLOT_WORDS &&
      ([...x, ...y].some((t) => t.value) || hunk.complement) &&
      !x.some((t) => y.some((u) => t.kind === 'word' && u.kind === 'word' && t.key.slice(0, 5) === u.key.slice(0, 5)))
    )
      reasons.push('substitution');
  }
  return { similarity, reasons };
}
