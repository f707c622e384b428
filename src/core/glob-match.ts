// A glob compiled to segment tokens and matched without backtracking blow-up (U48).
// Semantics follow picomatch with `dot: true` (the test oracle, test/unit/core/glob-match.test.ts):
// `*` and `?` stay inside one path segment, a segment that is exactly `**` spans zero or more
// segments, `[...]` classes (with `!`/`^` negation, ranges and POSIX names), `{a,b}` and `{1..3}`
// braces, `\` escapes, a leading `!` negates. Extglobs (`@(…)`, `+(…)`, …) are refused.
// Why not a RegExp: picomatch's RegExp for `*a*a*a*a*a*a*a*a*b` backtracks for minutes on a long
// path name, and a JavaScript RegExp cannot be interrupted, so one glob from `--file`, an MCP call or
// a config froze the process (SIGTERM included). Here a segment is matched by the greedy
// one-star-backtrack scan (time ≤ pattern × segment length) and segments by a memo over
// (pattern segment, path segment) pairs, so a match costs at most a product of lengths.
import { MemoryError } from './errors.js';

type Token =
  | { readonly k: 'char'; readonly c: string }
  | { readonly k: 'one' }
  | { readonly k: 'star' }
  | { readonly k: 'class'; readonly re: RegExp };

/** One `/`-separated piece of a pattern: `**` alone, or a token run. */
type Plain = { readonly globstar: false; readonly tokens: readonly Token[] };
type Segment = { readonly globstar: true } | Plain;

/** The most alternatives brace expansion may produce for one glob. */
const MAX_ALTERNATIVES = 256;

const POSIX: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7F',
  blank: ' \\t',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '\\x21-\\x7E',
  lower: 'a-z',
  print: '\\x20-\\x7E ',
  punct: '\\-!"#$%&\'()\\*+,.\\/:;<=>?@[\\]^_`{|}~',
  space: ' \\t\\r\\n\\v\\f',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: 'A-Fa-f0-9',
};

/** A compiled glob: `test(path)` answers whether a POSIX workspace-relative path matches. */
export interface GlobMatcher {
  readonly glob: string;
  test(path: string): boolean;
}

/**
 * Compile `glob` (see the file comment for the syntax). `scan: true` always uses the segment scan,
 * never the RegExp (the tests check both give the same answers).
 * @throws MemoryError `usage` for an extglob or a brace set expanding past 256 alternatives.
 */
export function compileGlob(glob: string, options: { readonly scan?: boolean } = {}): GlobMatcher {
  let body = glob;
  let negate = false;
  while (body.startsWith('!') && !body.startsWith('!(')) {
    negate = !negate;
    body = body.slice(1);
  }
  if (/[@!+*?]\(/.test(body.replace(/\\./g, ''))) {
    throw new MemoryError(
      'usage',
      `glob ${JSON.stringify(glob.slice(0, 80))} uses an extglob ( @(…), +(…), *(…), ?(…), !(…) )`,
      {
        hint: 'use {a,b} alternatives or several globs instead',
      },
    );
  }
  const alternatives = expandBraces(body).map(parsePattern);
  const exact = alternatives.every((a) => a.every((seg) => !seg.globstar && seg.tokens.every((t) => t.k === 'char')));
  if (exact && !options.scan) {
    // No wildcard at all (`memory/MEMORY.md`, `{MEMORY,DREAMS}.md`): a set of paths.
    const paths = new Set(
      alternatives.map((a) =>
        a.map((seg) => (seg.globstar ? '' : seg.tokens.map((t) => (t.k === 'char' ? t.c : '')).join(''))).join('/'),
      ),
    );
    return { glob, test: (path) => paths.has(path) !== negate };
  }
  if (!options.scan && alternatives.every((a) => wildcards(a) <= REGEXP_WILDCARDS)) {
    // Few wildcards: a RegExp built from the same tokens (native code, the fastest on a cold start;
    // the stat walk classifies every file). Its backtracking is at most path length ^ 2.
    const re = new RegExp(`^(?:${alternatives.map(regExpSource).join('|')})$`);
    return { glob, test: (path) => re.test(path) !== negate };
  }
  return {
    glob,
    test(path: string): boolean {
      const segs = path.split('/');
      for (const a of alternatives) if (matchSegments(a, segs)) return !negate;
      return negate;
    },
  };
}

/**
 * Globs with at most this many wildcards (`*` runs and `**` segments) in each alternative match by
 * RegExp. Each unbounded quantifier multiplies the backtracking a failing match may do by the path
 * length: two bound it by length², while `*a*a*a*a*a*a*a*a*b` went past five minutes (U48).
 */
const REGEXP_WILDCARDS = 2;

function wildcards(segments: readonly Segment[]): number {
  let n = 0;
  for (const seg of segments) n += seg.globstar ? 1 : seg.tokens.filter((t) => t.k === 'star').length;
  return n;
}

/** The RegExp source of one alternative, meaning what {@link matchSegments} means. */
function regExpSource(segments: readonly Segment[]): string {
  let out = '';
  segments.forEach((seg, i) => {
    const first = i === 0;
    const last = i === segments.length - 1;
    if (seg.globstar) out += first && last ? '.*' : first ? '(?:.*/)?' : last ? '(?:/.*)?' : '/(?:.*/)?';
    else out += (first || segments[i - 1]!.globstar ? '' : '/') + segmentSource(seg.tokens);
  });
  return out;
}

function segmentSource(tokens: readonly Token[]): string {
  // A segment of stars alone needs one character (matchSegment: an empty segment matches no token).
  if (tokens.length > 0 && tokens.every((t) => t.k === 'star')) return '[^/]+';
  return tokens
    .map((t) => {
      if (t.k === 'char') return t.c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
      if (t.k === 'one') return '[^/]';
      if (t.k === 'star') return '[^/]*';
      return t.re.test('/') ? `(?!/)${t.re.source.slice(1, -1)}` : t.re.source.slice(1, -1);
    })
    .join('');
}

/** `{a,b}` and `{1..3}` expanded (nested too), outermost first; an unbalanced brace is literal. */
function expandBraces(glob: string): string[] {
  let out = [glob];
  for (let round = 0; round < 64; round++) {
    let changed = false;
    const next: string[] = [];
    for (const g of out) {
      const parts = expandOne(g);
      if (parts === undefined) next.push(g);
      else {
        changed = true;
        next.push(...parts);
      }
      if (next.length > MAX_ALTERNATIVES) {
        throw new MemoryError(
          'usage',
          `glob ${JSON.stringify(glob.slice(0, 80))} expands to more than ${MAX_ALTERNATIVES} alternatives`,
          {
            hint: 'use fewer or smaller {…} sets',
          },
        );
      }
    }
    out = next;
    if (!changed) break;
  }
  return out;
}

/** The first brace set of `g` expanded, or undefined when it has none. */
function expandOne(g: string): string[] | undefined {
  for (let i = 0; i < g.length; i++) {
    const ch = g[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      const end = classEnd(g, i);
      if (end > 0) i = end;
      continue;
    }
    if (ch !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = i; j < g.length; j++) {
      const c = g[j];
      if (c === '\\') j++;
      else if (c === '{') depth++;
      else if (c === ',' && depth === 1) commas.push(j);
      else if (c === '}' && --depth === 0) {
        const inner = g.slice(i + 1, j);
        const head = g.slice(0, i);
        const tail = g.slice(j + 1);
        if (commas.length > 0) {
          const pieces: string[] = [];
          let from = i + 1;
          for (const c2 of [...commas, j]) {
            pieces.push(g.slice(from, c2));
            from = c2 + 1;
          }
          return pieces.map((p) => head + p + tail);
        }
        const range = /^(-?\d+)\.\.(-?\d+)$|^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inner);
        if (range) return rangeOf(range).map((p) => head + p + tail);
        break;
      }
    }
  }
  return undefined;
}

function rangeOf(m: RegExpExecArray): string[] {
  const numeric = m[1] !== undefined;
  const a = numeric ? Number(m[1]) : m[3]!.charCodeAt(0);
  const b = numeric ? Number(m[2]) : m[4]!.charCodeAt(0);
  const step = a <= b ? 1 : -1;
  const out: string[] = [];
  for (let v = a; ; v += step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (v === b || out.length > MAX_ALTERNATIVES) break;
  }
  return out;
}

/** Index of the `]` closing the class opened at `open`, or -1 when it does not close. */
function classEnd(g: string, open: number): number {
  let j = open + 1;
  if (g[j] === '!' || g[j] === '^') j++;
  if (g[j] === ']') j++;
  for (; j < g.length; j++) {
    if (g[j] === '\\') j++;
    else if (g[j] === '[' && g[j + 1] === ':') {
      const close = g.indexOf(':]', j + 2);
      if (close > 0) j = close + 1;
    } else if (g[j] === ']') return j;
  }
  return -1;
}

function parsePattern(glob: string): Segment[] {
  const segs: Segment[] = [];
  for (const raw of splitSegments(glob)) {
    if (raw === '**') {
      if (!segs.at(-1)?.globstar) segs.push({ globstar: true });
      continue;
    }
    segs.push({ globstar: false, tokens: parseSegment(raw) });
  }
  return segs;
}

/** `glob` cut at each `/` outside a class (a `/` inside `[...]` is not a separator). */
function splitSegments(glob: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '[') {
      const end = classEnd(glob, i);
      if (end > 0) i = end;
    } else if (glob[i] === '/') {
      out.push(glob.slice(from, i));
      from = i + 1;
    }
  }
  out.push(glob.slice(from));
  return out;
}

function parseSegment(raw: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\\' && i + 1 < raw.length) tokens.push({ k: 'char', c: raw[++i]! });
    else if (ch === '*') {
      if (tokens.at(-1)?.k !== 'star') tokens.push({ k: 'star' });
    } else if (ch === '?') tokens.push({ k: 'one' });
    else if (ch === '[') {
      const end = classEnd(raw, i);
      if (end < 0) tokens.push({ k: 'char', c: ch });
      else {
        tokens.push({ k: 'class', re: classRegExp(raw.slice(i + 1, end)) });
        i = end;
      }
    } else tokens.push({ k: 'char', c: ch });
  }
  return tokens;
}

/** A one-character RegExp for the inside of a `[...]` class (never a slash). */
function classRegExp(inner: string): RegExp {
  let negate = false;
  let s = inner;
  if (s.startsWith('!') || s.startsWith('^')) {
    negate = true;
    s = s.slice(1);
  }
  let body = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '[' && s[i + 1] === ':') {
      const close = s.indexOf(':]', i + 2);
      const name = close > 0 ? s.slice(i + 2, close) : '';
      if (POSIX[name] !== undefined) {
        body += POSIX[name];
        i = close + 1;
        continue;
      }
    }
    if (ch === '\\' && i + 1 < s.length) body += `\\${s[++i]!}`;
    else if (ch === '-' && body.length > 0 && i + 1 < s.length) body += '-';
    else body += /[\]\\^-]/.test(ch) ? `\\${ch}` : ch;
  }
  return new RegExp(`^[${negate ? '^/' : ''}${body}]$`);
}

/** Greedy scan with one backtrack point (the last star): time ≤ tokens × text length. */
function matchSegment(tokens: readonly Token[], text: string): boolean {
  if (text.length === 0) return tokens.length === 0;
  let t = 0;
  let i = 0;
  let starT = -1;
  let starI = 0;
  while (i < text.length) {
    const tok = tokens[t];
    if (tok !== undefined) {
      if (tok.k === 'star') {
        starT = t++;
        starI = i;
        continue;
      }
      if (tok.k === 'one' || (tok.k === 'char' ? tok.c === text[i] : tok.re.test(text[i]!))) {
        t++;
        i++;
        continue;
      }
    }
    if (starT < 0) return false;
    t = starT + 1;
    i = ++starI;
  }
  while (tokens[t]?.k === 'star') t++;
  return t === tokens.length;
}

/**
 * Pattern segments against path segments, `**` spanning zero or more. With at most one `**` (most
 * globs: `memory/**\/*.md`) the segments before it match the path's first ones and those after it
 * its last ones; otherwise a memo over (pattern segment, path segment) pairs.
 */
function matchSegments(pattern: readonly Segment[], path: readonly string[]): boolean {
  const star = pattern.findIndex((seg) => seg.globstar);
  if (star < 0 || !pattern.some((seg, i) => i > star && seg.globstar)) {
    const after = star < 0 ? 0 : pattern.length - star - 1;
    const before = star < 0 ? pattern.length : star;
    if (star < 0 ? path.length !== before : path.length < before + after) return false;
    for (let i = 0; i < before; i++) if (!matchSegment((pattern[i] as Plain).tokens, path[i]!)) return false;
    for (let i = 1; i <= after; i++)
      if (!matchSegment((pattern[pattern.length - i] as Plain).tokens, path[path.length - i]!)) return false;
    return true;
  }
  return matchMemo(pattern, path);
}

function matchMemo(pattern: readonly Segment[], path: readonly string[]): boolean {
  const width = path.length + 1;
  // 0 unknown, 1 match, 2 no match
  const memo = new Uint8Array((pattern.length + 1) * width);
  const at = (p: number, s: number): boolean => {
    const key = p * width + s;
    const known = memo[key];
    if (known !== 0) return known === 1;
    let ok: boolean;
    const seg = pattern[p];
    if (seg === undefined) ok = s === path.length;
    else if (seg.globstar) ok = at(p + 1, s) || (s < path.length && at(p, s + 1));
    else ok = s < path.length && matchSegment(seg.tokens, path[s]!) && at(p + 1, s + 1);
    memo[key] = ok ? 1 : 2;
    return ok;
  };
  return at(0, 0);
}
