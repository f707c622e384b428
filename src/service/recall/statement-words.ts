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
 * them with", "prefix"), at the end ("end attribute names with '_q'", "suffix"), in the letter case
 * ("use CamelCase for class names", "all uppercase letters"), or anywhere ("include a single digit",
 * "contain"). Rules that put values in different places
 * add to each other (a name can start with `b_` and end with `_q`); only a rule about the same place
 * replaces another. "Start" before a verb in -ing ("start ending them with", "start using") starts
 * a habit, not a name; "prepend" puts a value at the start, "append" at the end.
 */
const ASPECTS: readonly (readonly [string, RegExp])[] = [
  [
    'start',
    /\b(?:(?:start|begin|began|begun|prefix)(?:s|ed|es|ning|ing)?\b(?!\s+\w+ing\b)(?:\s+[^\s.;:!?]+){0,5}?\s+with\b|prefix(?:es|ed)?\b|prepend(?:s|ed|ing)?\b)/iu,
  ],
  [
    'end',
    /\b(?:(?:end|finish)(?:s|ed|es|ing)?\b(?:\s+[^\s.;:!?]+){0,5}?\s+with\b|suffix(?:es|ed)?\b|append(?:s|ed|ing)?\b)/iu,
  ],
  [
    'case',
    /\b(?:(?:upper|lower|camel|pascal|snake|kebab|title|screaming)[ _-]?case|capital(?:s|ised|ized|i[sz]ation)|all caps)\b/iu,
  ],
  ['include', /\b(?:includ(?:e|es|ed|ing)|contain(?:s|ed|ing)?|incorporat(?:e|es|ed|ing))\b/iu],
];

/** Places that hold one value at a time: a name has one start, one end, one letter case. */
const ONE_VALUE = new Set(['start', 'end', 'case']);

/**
 * A rule that adds a member or a part, asked for or promised: "add the `@retry` decorator to all
 * functions", "always import the `gzip` module", "include 'chx' in attribute names", "I'll
 * incorporate …", "names should contain …". The verb stands where a directive or a promise puts it
 * (after "to", "please", "you", "we", "I'll", "should", "must", "and", at the start of a clause),
 * never after any other subject ("they only add overhead", "the benefits include …").
 */
const ADDS =
  /(?:^|[,;:.!]\s+|\b(?:to|please|you|we|i|(?:i|we|you)(?:['’]ll| will)|will|should|must|and|then)\s+)(?:(?:also|always|just|now|still|simply|then)\s+)*(?:includ(?:e|ing)|contain|incorporat(?:e|ing)|add(?:ing)?|import(?:ing)?|attach(?:ing)?)\b(?!\s+(?:that|to that|on)\b)/iu;

/** Whether a sentence's rule adds a member or a part ({@link ADDS}). */
export function addsTo(sentence: string): boolean {
  return ADDS.test(sentence.trim());
}

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

/**
 * Words by which a statement takes back an earlier one: "instead", "no longer", "anymore", "rather
 * than", "in place of", "replace", "switch to", "stop", "drop", "remove".
 * "From now on" and "going forward" are not among them: they say when a rule starts, and a new rule
 * that adds ("from now on, also include 'chx'") leaves the earlier ones standing.
 */
const RETRACTS =
  /\b(?:instead|no longer|anymore|any longer|rather than|in place of|replac(?:e|es|ed|ing)|switch(?:es|ed|ing)? (?:to|over|from|back)|stop(?:s|ped|ping)?|drop(?:s|ped|ping)?|remov(?:e|es|ed|ing))\b/iu;

/** Whether `text` takes back an earlier statement ({@link RETRACTS}). */
export function retracts(text: string): boolean {
  return RETRACTS.test(text);
}

/** What a statement's rule says, for judging whether a later one replaces it. */
export interface RuleShape {
  /** Where its rule puts its value ({@link aspectsOf}). */
  readonly aspects: ReadonlySet<string>;
  /** Whether its rule adds a member or a part ({@link addsTo}). */
  readonly adds: boolean;
  /** Whether it takes back an earlier statement ({@link retracts}). */
  readonly retracts: boolean;
}

/**
 * Whether an earlier and a later statement of one subject both hold, so the later replaces nothing:
 * - the later one takes the earlier back ("instead", "no longer", …): it replaces it, unless the two
 *   are about different places of the subject (start and end of a name);
 * - the earlier one adds a member or a part (include, add, import): an addition stands until taken back;
 * - the later one only adds: it adds to what holds;
 * - otherwise they both hold only when they are about different places ({@link otherPlaces}).
 * Two statements that name no place are versions of one thing, as before (the caller has already
 * judged that they name the same subject).
 */
export function bothHold(earlier: RuleShape, later: RuleShape): boolean {
  if (later.retracts) return otherPlaces(earlier.aspects, later.aspects);
  if (earlier.adds) return true;
  if (later.adds && ![...later.aspects].some((k) => ONE_VALUE.has(k))) return true;
  return otherPlaces(earlier.aspects, later.aspects);
}

/**
 * The shape of a statement whose sentence `focal` names the subject: its own places, or, when it
 * names none ("Another thing: about function names."), those of the sentences of the same turn that
 * name the subject as fully (`alike`); whether any of those sentences takes an earlier one back.
 */
export function ruleShape(focal: string, turn: readonly string[], alike: (sentence: string) => boolean): RuleShape {
  const own = aspectsOf(focal);
  const near = turn.filter((s) => s !== focal && alike(s));
  const aspects = own.size ? own : new Set(near.flatMap((s) => [...aspectsOf(s)]));
  const adds = addsTo(focal) || (!own.size && near.some(addsTo));
  return { aspects, adds, retracts: retracts(focal) || (!own.size && near.some(retracts)) };
}
