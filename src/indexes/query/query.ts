// Keyword query parsing: user text → terms (optional / +required / -prohibited, trailing `*` prefix)
// and `type:` / `tag:` / `kind:` filters. Never throws; operator characters are syntax only when well
// formed and are otherwise dropped (B01). Pure: must not import lunr or any npm/Node module.
import { analyze, hasCjk } from '../../core/tokenize.js';
import { cutUnits } from '../../core/words.js';

/** How a term constrains the results. */
export type Presence = 'optional' | 'required' | 'prohibited';

/** One query word after parsing. */
export interface QueryTerm {
  /** The word as typed, with its `+`/`-` marker and trailing `*` removed. */
  readonly text: string;
  readonly presence: Presence;
  /** `word*`: also match every indexed word that starts with the word's tokens. */
  readonly prefix: boolean;
  /**
   * What a document must contain to satisfy a required term (or to be excluded by a prohibited
   * one): every part, where each part is satisfied by any of its alternatives (token, folded form).
   */
  readonly parts: readonly (readonly string[])[];
  /** Every token to score: parts, alternatives and joined wholes (`getusername`). */
  readonly tokens: readonly string[];
}

/** Field filters the caller applies on chunk metadata. Values are lower-cased. */
export interface QueryFilters {
  readonly type: readonly string[];
  readonly tag: readonly string[];
  readonly kind: readonly string[];
}

/** Result of {@link parseQuery}. */
export interface ParsedQuery {
  /** The query text (NFC). */
  readonly text: string;
  readonly terms: readonly QueryTerm[];
  readonly filters: QueryFilters;
  /** True when no term can match anything (no optional or required term with tokens). */
  readonly empty: boolean;
  /** Why the query is empty, for the user; undefined when `empty` is false. */
  readonly hint?: string;
}

/** Words after this many are ignored, so one pasted page cannot turn into thousands of clauses. */
export const MAX_QUERY_TERMS = 64;

/** Longest query text considered (UTF-16 code units). */
const MAX_QUERY_CHARS = 4096;

/**
 * Question and function words: they say what kind of answer is wanted ("which", "when", "did"),
 * not what it is about, yet they are frequent in notes and chat turns, so as keyword terms they
 * pull in lines that merely ask something. Dropped from a query that has other words to search for
 * (a query made only of them keeps them). The index itself is unchanged.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'do',
  'does',
  'did',
  'done',
  'doing',
  'can',
  'could',
  'would',
  'should',
  'shall',
  'might',
  'must',
  'am',
  'been',
  'i',
  'me',
  'my',
  'we',
  'us',
  'our',
  'you',
  'your',
  'he',
  'him',
  'his',
  'she',
  'her',
  'them',
]);

/** True when every part of the term is a {@link QUESTION_WORDS} word. */
function isQuestionWord(t: QueryTerm): boolean {
  return t.parts.length > 0 && t.parts.every((alts) => alts.some((a) => QUESTION_WORDS.has(a)));
}

const FILTER = /^(type|tag|kind):(.*)$/isu;
const WELL_FORMED_PRESENCE = /^[+-](?=[\p{L}\p{N}])/u;
const PREFIX = /[\p{L}\p{N}\p{M}]\*+$/u;
const USABLE = /[\p{L}\p{N}]/u;

function clip(text: string): string {
  return cutUnits(text, MAX_QUERY_CHARS);
}

function filterValues(raw: string): string[] {
  return raw
    .split(',')
    .map((v) =>
      v
        .replace(/^["'`]+|["'`]+$/g, '')
        .trim()
        .toLowerCase(),
    )
    .filter((v) => USABLE.test(v));
}

/**
 * Parse user query text. Never throws, whatever the input.
 *
 * - plain words → optional terms, tokenised by the index tokenizer (`--hard` → `hard`);
 * - `+word` / `-word` → required / prohibited, only when a letter or digit follows the sign;
 * - `word*` → prefix term (trailing wildcard only; a lone or leading `*` is dropped);
 * - `type:X`, `tag:X`, `kind:X` (comma-separated values allowed) → {@link QueryFilters};
 *   any other `word:word` is plain text; `~ ^ " ( )` and other operators are dropped.
 *
 * @returns `empty: true` with a `hint` when nothing searchable remains.
 */
export function parseQuery(text: string): ParsedQuery {
  const src = typeof text === 'string' ? clip(text).normalize('NFC') : '';
  const terms: QueryTerm[] = [];
  const filters = { type: [] as string[], tag: [] as string[], kind: [] as string[] };
  let sawFilter = false;
  let units = 0;
  for (const unit of src.split(/\s+/u)) {
    if (unit.length === 0) continue;
    if (++units > MAX_QUERY_TERMS) break;
    const f = FILTER.exec(unit);
    if (f) {
      const key = f[1]!.toLowerCase() as keyof QueryFilters;
      const values = filterValues(f[2]!);
      if (values.length > 0) {
        filters[key].push(...values.filter((v) => !filters[key].includes(v)));
        sawFilter = true;
      }
      continue; // `type:` with no value is dropped, never searched as text
    }
    let word = unit;
    let presence: Presence = 'optional';
    if (WELL_FORMED_PRESENCE.test(word)) {
      presence = word[0] === '+' ? 'required' : 'prohibited';
      word = word.slice(1);
    }
    const prefix = PREFIX.test(word);
    if (prefix) word = word.replace(/\*+$/u, '');
    const compounds = analyze(word);
    const parts: string[][] = [];
    const tokens: string[] = [];
    for (const c of compounds) {
      for (const p of c.parts) {
        parts.push([p.token, ...p.variants]);
        tokens.push(p.token, ...p.variants);
      }
      tokens.push(...c.joined);
      // A stop-word-only identifier (`it's`) still has its joined whole as a part.
      if (c.parts.length === 0 && c.joined.length > 0) parts.push([...c.joined]);
    }
    if (tokens.length === 0) continue;
    terms.push({ text: word, presence, prefix, parts, tokens: [...new Set(tokens)] });
  }
  const positive = terms.some((t) => t.presence !== 'prohibited');
  if (positive) {
    const content = terms.some((t) => t.presence !== 'prohibited' && !isQuestionWord(t));
    const kept = content ? terms.filter((t) => t.presence !== 'optional' || !isQuestionWord(t)) : terms;
    return { text: src, terms: kept, filters, empty: false };
  }
  const hint =
    terms.length > 0
      ? 'add at least one word to search for: "-word" only excludes results'
      : sawFilter
        ? 'add a word to search for; type:, tag: and kind: only filter results'
        : 'the query has no searchable words (operators such as ~ ^ * : " are ignored; common words like "the" are skipped)';
  return { text: src, terms, filters, empty: true, hint };
}

/**
 * Tokens of the optional and required terms, for snippets and highlighting.
 * @returns an empty array for an empty query.
 */
export function queryTokens(parsed: ParsedQuery): string[] {
  const out = new Set<string>();
  for (const t of parsed.terms) if (t.presence !== 'prohibited') for (const tok of t.tokens) out.add(tok);
  return [...out];
}

/** @returns true when `token` is a single CJK character, which only prefix-matches indexed bigrams. */
export function isSingleCjk(token: string): boolean {
  return hasCjk(token) && Array.from(token).length === 1;
}
