// What a sentence says about a subject, read for implicit supersession (versions.ts, restatement.ts):
// the words that name a subject and whether a turn only reads back someone else's rule. Word classes
// only, never the things a rule is about.
// Pure; no dependencies.

/**
 * A contraction's tail after a pronoun or verb: "I'd", "we'll", "you're", "they've", "it's", "I'm",
 * "don't". The tokenizer joins "I'd" into the word `id` (the stem of "IDE") and "we'll" into `well`;
 * a contraction never names what a rule is about.
 */
const CONTRACTION = /(\p{L})['’](?:d|ll|re|ve|s|m|t)\b/giu;

/**
 * `text` with every contraction's tail dropped ("I'd like you to use Vim" → "I like you to use Vim"),
 * so its words can be matched against a question's subject. Same length or shorter; other text as is.
 */
export function withoutContractions(text: string): string {
  return text.replace(CONTRACTION, '$1');
}

/**
 * Where a naming or form rule puts its value: at the start ("start method names with 'b_'", "begin
 * them with", "prefix"), at the end ("end attribute names with '_q'", "suffix"), or anywhere
 * ("include a single digit", "contain"). Rules that put values in different places add to each other
 * (a name can start with `b_` and end with `_q`); only a rule about the same place replaces another.
 */
const ASPECTS: readonly (readonly [string, RegExp])[] = [
  [
    'start',
    /\b(?:(?:start|begin|began|begun|prefix)(?:s|ed|es|ning|ing)?\b(?:\s+[^\s.;:!?]+){0,5}?\s+with\b|prefix(?:es|ed)?\b)/iu,
  ],
  ['end', /\b(?:(?:end|finish)(?:s|ed|es|ing)?\b(?:\s+[^\s.;:!?]+){0,5}?\s+with\b|suffix(?:es|ed)?\b)/iu],
  ['include', /\b(?:includ(?:e|es|ed|ing)|contain(?:s|ed|ing)?)\b/iu],
];

/** The places a sentence's rule puts its value ({@link ASPECTS}); empty when it names none. */
export function aspectsOf(sentence: string): Set<string> {
  return new Set(ASPECTS.filter(([, re]) => re.test(sentence)).map(([k]) => k));
}

/**
 * Whether two statements are rules about different places of the same thing (one says where a name
 * starts, the other where it ends): then neither replaces the other. False when either names no place.
 */
export function otherPlaces(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (!a.size || !b.size) return false;
  for (const k of a) if (b.has(k)) return false;
  return true;
}

/** How much of a subject two statements name ({@link subjectOverlap}). */
export interface SubjectOverlap {
  /** Subject words `a` names; `nb` those `b` names; `both` those both name. */
  readonly na: number;
  readonly nb: number;
  readonly both: number;
  /** The weight of the words both name. */
  readonly shared: number;
}

/**
 * Count the subject words (`weights`: word → weight) each of two statements' word sets names, and
 * those both name with their weight. Each word counts once, however common. A word in `elided` that
 * only one statement names is left out (the kind of thing asked for, "which … tool", may go unnamed
 * by a statement that names the thing).
 */
export function subjectOverlap(
  a: ReadonlySet<string>,
  b: ReadonlySet<string>,
  weights: ReadonlyMap<string, number>,
  elided: ReadonlySet<string> = new Set(),
): SubjectOverlap {
  let na = 0;
  let nb = 0;
  let both = 0;
  let shared = 0;
  for (const [t, w] of weights) {
    const inA = a.has(t);
    const inB = b.has(t);
    if (elided.has(t) && inA !== inB) continue;
    if (inA) na++;
    if (inB) nb++;
    if (inA && inB) {
      both++;
      shared += w;
    }
  }
  return { na, nb, both, shared };
}
