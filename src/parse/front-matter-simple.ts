// The cheap path for simple front-matter: a flat mapping of `key: value` lines whose values are plain
// or quoted one-line scalars, flow lists (`[a, b]`) or block lists (`- a` lines). For such a block a
// line scanner finds the same data and the same key and value spans as the full YAML parse (core
// schema) that front-matter.ts runs, so the lexer, composer and node tree are skipped.
// Anything else (comments, nesting, anchors, tags, escapes, multi-line or number-like values other
// than plain decimal integers, duplicate keys) answers undefined and the full parse decides.
// test/properties/front-matter-simple.test.ts proves the equality on generated blocks and on the
// front-matter of every file of fixtures/corpora. Imports nothing.

/** Offsets into the YAML source: [start, end). */
export type Span = readonly [number, number];

/** What the scanner found: the data (as the full parse builds it) and the spans by JSON pointer. */
export interface SimpleYaml {
  readonly data: Record<string, unknown>;
  /** JSON pointer → key span (mapping values only) and value span, in document order. */
  readonly spans: readonly { readonly pointer: string; readonly key?: Span; readonly value: Span }[];
}

/** Keys: a letter or `_`, then letters, digits, `_`, `-`. */
const RE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Keys the core schema reads as something other than the same string. */
const RE_KEY_SPECIAL = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/**
 * A plain scalar on one line, block context: begins with a letter, digit or one of `_ . / ( ~ $ +`
 * and goes on with letters, digits, spaces and harmless punctuation; `:` only when a non-space
 * follows it, `#` only right after a non-space (else it starts a comment).
 */
const RE_PLAIN_BLOCK = /^[\p{L}\p{N}_./(~$+](?:[\p{L}\p{N} _./()~$+,;!?&*=%@'"<>|^-]|:(?=[^\s:])|(?<=[^\s])#)*$/u;
/** The same in a flow list: no `,`, brackets or braces, no `:` at all, no `#`. */
const RE_PLAIN_FLOW = /^[\p{L}\p{N}_./(~$+][\p{L}\p{N} _./()~$+;!?&*=%@'"<>|^-]*$/u;
/** Quoted scalars without escapes (no backslash in double quotes, no doubled quote in single). */
const RE_DOUBLE = /^"([^"\\\p{Cc}]*)"$/u;
const RE_SINGLE = /^'([^'\p{Cc}]*)'$/u;
/** Core schema resolution of plain scalars (YAML 1.2). */
const RE_NULL = /^(?:~|[Nn]ull|NULL)$/;
const RE_TRUE = /^(?:[Tt]rue|TRUE)$/;
const RE_FALSE = /^(?:[Ff]alse|FALSE)$/;
const RE_DECIMAL = /^[0-9]{1,15}$/;
/** Plain scalars the core schema reads as numbers in forms this scanner leaves to the full parse. */
const RE_OTHER_NUMBER =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

type Scalar = { value: unknown } | undefined;

/** Resolve one trimmed scalar token (plain or quoted); undefined = not simple. */
function scalar(token: string, flow: boolean): Scalar {
  const c = token.charCodeAt(0);
  if (c === 34 /* " */) {
    const m = RE_DOUBLE.exec(token);
    return m ? { value: m[1] } : undefined;
  }
  if (c === 39 /* ' */) {
    const m = RE_SINGLE.exec(token);
    return m ? { value: m[1] } : undefined;
  }
  if (!(flow ? RE_PLAIN_FLOW : RE_PLAIN_BLOCK).test(token)) return undefined;
  if (RE_NULL.test(token)) return { value: null };
  if (RE_TRUE.test(token)) return { value: true };
  if (RE_FALSE.test(token)) return { value: false };
  if (RE_DECIMAL.test(token)) return { value: Number(token) };
  if (RE_OTHER_NUMBER.test(token)) return undefined;
  return { value: token };
}

/** Own-property assignment that is safe for keys such as `__proto__`. */
function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** The end of `s` without trailing spaces, from `from` up to `to`. */
function trimEnd(s: string, from: number, to: number): number {
  while (to > from && s.charCodeAt(to - 1) === 32) to--;
  return to;
}

/**
 * Scan `source` (the text between the front-matter delimiters, line ends included).
 * @returns the data and spans, or undefined when the block is not simple (the full parse decides).
 */
export function parseSimpleYaml(source: string): SimpleYaml | undefined {
  const data: Record<string, unknown> = {};
  const spans: { pointer: string; key?: Span; value: Span }[] = [];
  const seen = new Set<string>();
  // Line starts and ends (without the line break), CRLF aware; a lone CR is not simple.
  const starts: number[] = [];
  const ends: number[] = [];
  for (let pos = 0; pos < source.length;) {
    let nl = source.indexOf('\n', pos);
    if (nl < 0) nl = source.length;
    let end = nl;
    if (end > pos && source.charCodeAt(end - 1) === 13) end--;
    starts.push(pos);
    ends.push(end);
    pos = nl + 1;
  }
  for (let l = 0; l < starts.length;) {
    const s = starts[l]!;
    const e = ends[l]!;
    const line = source.slice(s, e);
    if (line.length === 0) {
      l++;
      continue;
    }
    if (/[\t\r\p{Cc}]/u.test(line)) return undefined;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const key = line.slice(0, colon);
    if (!RE_KEY.test(key) || RE_KEY_SPECIAL.test(key) || seen.has(key)) return undefined;
    seen.add(key);
    const keySpan: Span = [s, s + colon];
    const pointer = `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    let vs = s + colon + 1;
    if (vs < e && source.charCodeAt(vs) !== 32) return undefined; // `a:b` is one plain scalar
    while (vs < e && source.charCodeAt(vs) === 32) vs++;
    const ve = trimEnd(source, vs, e);
    if (vs === ve) {
      if (e > s + colon + 1) return undefined; // `key:` followed by spaces only: leave to the parser
      // Empty value: a block list on the next lines, or null.
      const items = blockList(source, starts, ends, l + 1, pointer);
      if (items === undefined) return undefined;
      if (items.values.length === 0) {
        define(data, key, null);
        spans.push({ pointer, key: keySpan, value: [vs, vs] });
        l++;
        continue;
      }
      define(data, key, items.values);
      spans.push({ pointer, key: keySpan, value: items.span }, ...items.spans);
      l = items.next;
      continue;
    }
    const token = source.slice(vs, ve);
    if (token.charCodeAt(0) === 91 /* [ */) {
      const list = flowList(source, vs, ve, pointer);
      if (!list) return undefined;
      define(data, key, list.values);
      spans.push({ pointer, key: keySpan, value: [vs, ve] }, ...list.spans);
    } else {
      const v = scalar(token, false);
      if (!v) return undefined;
      define(data, key, v.value);
      spans.push({ pointer, key: keySpan, value: [vs, ve] });
    }
    l++;
  }
  return { data, spans };
}

/** `[a, b]` between `vs` and `ve` (trimmed): its items, or undefined when not simple. */
function flowList(
  source: string,
  vs: number,
  ve: number,
  pointer: string,
): { values: unknown[]; spans: { pointer: string; value: Span }[] } | undefined {
  if (source.charCodeAt(ve - 1) !== 93 /* ] */) return undefined;
  const values: unknown[] = [];
  const spans: { pointer: string; value: Span }[] = [];
  const inner = source.slice(vs + 1, ve - 1);
  if (inner.length === 0) return { values, spans };
  let at = vs + 1;
  for (const part of inner.split(',')) {
    let a = at;
    let b = at + part.length;
    while (a < b && source.charCodeAt(a) === 32) a++;
    b = trimEnd(source, a, b);
    if (a === b) return undefined; // empty item, `[ ]` or a trailing comma
    const v = scalar(source.slice(a, b), true);
    if (!v) return undefined;
    spans.push({ pointer: `${pointer}/${values.length}`, value: [a, b] });
    values.push(v.value);
    at += part.length + 1;
  }
  return { values, spans };
}

/**
 * The `- item` lines from line `from` (all at one indentation), or none when line `from` is not a
 * list item. @returns undefined when they are not simple.
 */
function blockList(
  source: string,
  starts: readonly number[],
  ends: readonly number[],
  from: number,
  pointer: string,
): { values: unknown[]; spans: { pointer: string; value: Span }[]; span: Span; next: number } | undefined {
  const values: unknown[] = [];
  const spans: { pointer: string; value: Span }[] = [];
  let indent = -1;
  let l = from;
  for (; l < starts.length; l++) {
    const s = starts[l]!;
    const e = ends[l]!;
    let i = s;
    while (i < e && source.charCodeAt(i) === 32) i++;
    if (i === e) break; // a blank line ends the list (a blank line inside one is left to the parser)
    if (source.charCodeAt(i) !== 45 /* - */) {
      if (i > s) return undefined; // an indented line that is not an item: nesting
      break;
    }
    if (indent < 0) indent = i - s;
    else if (i - s !== indent) return undefined;
    if (source.charCodeAt(i + 1) !== 32) return undefined; // `-` alone, `-x`, `--`
    let a = i + 2;
    while (a < e && source.charCodeAt(a) === 32) a++;
    const b = trimEnd(source, a, e);
    if (a === b) return undefined;
    const line = source.slice(s, e);
    if (/[\t\r\p{Cc}]/u.test(line)) return undefined;
    const v = scalar(source.slice(a, b), false);
    if (!v) return undefined;
    spans.push({ pointer: `${pointer}/${values.length}`, value: [a, b] });
    values.push(v.value);
  }
  if (values.length === 0) return { values, spans, span: [0, 0], next: from };
  // The list's span runs from its first `-` to the start of the line after its last item.
  const first = starts[from]! + indent;
  const last = l - 1;
  const end = last + 1 < starts.length ? starts[last + 1]! : source.length;
  return { values, spans, span: [first, end], next: l };
}
