// The three kinds of edit `gitmem integrate` makes in a file a person may also write, as pure functions
// of the file's text: a JSON merge (keys set, elements appended), a TOML block and a markdown block
// between markers. Each has an `add` (idempotent: adding twice gives the text of adding once) and a
// `remove` that takes out only what `add` put in. JSON files may hold comments and trailing commas
// (JSONC): they are read and edited with jsonc-parser, which keeps them. A TOML file gitmem adds a block
// to must parse as TOML first (smol-toml). deps: jsonc-parser, smol-toml.

import {
  applyEdits,
  modify,
  parse,
  printParseErrorCode,
  type FormattingOptions,
  type JSONPath,
  type ParseError,
  type ParseOptions,
  visit,
} from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';

/** One JSON addition: `value` at the key path `at`, set (an object key) or appended (to an array). */
export interface JsonAddition {
  readonly at: readonly string[];
  readonly value: unknown;
  readonly mode: 'set' | 'append';
  /**
   * Values an earlier gitmem wrote at `at` (mode set) or in its list (mode append): replaced by `value`,
   * and taken out by remove.
   */
  readonly replaces?: readonly unknown[];
}

/** `here` is the addition's value, or one an earlier gitmem wrote in its place. */
function isOurs(a: JsonAddition, here: unknown): boolean {
  return sameJson(here, a.value) || (a.replaces ?? []).some((r) => sameJson(here, r));
}

/** A file's JSON could not be merged (not JSON, or not an object where one is needed). */
export class EditError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The indent unit of a JSON text (its first indented line), default two spaces. */
function indentOf(text: string): string | number {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : 2;
}

/** How jsonc-parser formats what it inserts: the file's own indent unit and line ending. */
function formatting(text: string): FormattingOptions {
  const unit = indentOf(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (typeof unit === 'number') return { insertSpaces: true, tabSize: unit, eol };
  return unit.includes('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: unit.length, eol };
}

/** Line and column (1-based) of a character offset, for error messages. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/**
 * The JSON object in `text`, which may hold comments and trailing commas (JSONC, as VS Code, Cursor,
 * Gemini CLI and Claude Code read their settings). @throws EditError when it is not valid JSONC or
 * not an object.
 */
function parseObject(text: string | undefined, path: string): Record<string, unknown> {
  if (text === undefined || !text.trim()) return {};
  const errors: ParseError[] = [];
  const j: unknown = parse(text, errors, JSONC);
  const first = errors[0];
  if (first)
    throw new EditError(
      `${path} is not valid JSON (${printParseErrorCode(first.error)} at ${lineColumn(text, first.offset)}); nothing written: fix the file or edit it by hand`,
    );
  if (!isObject(j)) throw new EditError(`${path} does not hold a JSON object; nothing written`);
  assertNoDuplicateKeys(text, path);
  return j;
}

/**
 * Refuse a key declared twice in one object: hosts disagree on which one counts (JSON.parse takes the
 * last) and jsonc-parser edits the first, so gitmem's server could land where the host never looks
 * (docs/bad-inputs.md R75). @throws EditError naming the key and its line; nothing written.
 */
function assertNoDuplicateKeys(text: string, path: string): void {
  const open: Set<string>[] = [];
  let dup: { key: string; offset: number } | undefined;
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (key, offset) => {
      const keys = open[open.length - 1]!;
      if (keys.has(key)) dup ??= { key, offset };
      keys.add(key);
    },
  });
  if (dup)
    throw new EditError(
      `${path} declares "${dup.key}" twice (again at ${lineColumn(text, dup.offset)}); hosts read only one of them, so nothing written: keep one and run again`,
    );
}

const JSONC: ParseOptions = { allowTrailingComma: true, disallowComments: false };

/** `text` with the value at `at` set (undefined: removed) by jsonc-parser, comments and layout kept. */
function modified(text: string, at: JSONPath, value: unknown, isArrayInsertion = false): string {
  return applyEdits(text, modify(text, at, value, { formattingOptions: formatting(text), isArrayInsertion }));
}

/** What an addition found in the file: added, already there, or someone else's value in the way. */
export interface JsonOutcome {
  readonly text: string;
  /** Additions whose key already holds a different value (left as it is). */
  readonly conflicts: string[];
}

/**
 * Merge `additions` into the JSON object `old` (undefined: no file). An existing file is edited in
 * place (its comments, order and layout kept); a new one is written with two-space indents.
 */
export function addJson(old: string | undefined, additions: readonly JsonAddition[], path: string): JsonOutcome {
  const bom = old?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const fresh = old === undefined || !old.trim();
  let text = fresh ? '{}' : old.slice(bom.length);
  const conflicts: string[] = [];
  parseObject(text, path);
  for (const a of additions) {
    for (let d = 1; d < a.at.length; d++) {
      const step = valueAt(text, a.at.slice(0, d));
      if (step !== undefined && !isObject(step))
        throw new EditError(`${path}: "${a.at.join('.')}" crosses a value that is not an object; nothing written`);
    }
    const here = valueAt(text, a.at);
    if (a.mode === 'set') {
      if (here === undefined || (!sameJson(here, a.value) && isOurs(a, here)))
        text = modified(text, [...a.at], a.value);
      else if (!sameJson(here, a.value)) conflicts.push(a.at.join('.'));
    } else {
      if (here !== undefined && !Array.isArray(here))
        throw new EditError(`${path}: "${a.at.join('.')}" is not a list; nothing written`);
      if (!here?.some((v) => sameJson(v, a.value))) {
        const earlier = here?.findIndex((v) => isOurs(a, v)) ?? -1;
        text = modified(text, [...a.at, earlier], a.value, earlier < 0);
      }
    }
  }
  if (fresh) return { text: `${JSON.stringify(parseObject(text, path), null, 2)}\n`, conflicts };
  return { text: bom + text, conflicts };
}

/** The value at `at` in `text` (undefined: absent). */
function valueAt(text: string, at: readonly (string | number)[]): unknown {
  let v: unknown = parse(text, [], JSONC);
  for (const k of at) v = isObject(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/**
 * Take `additions` out of the JSON text (only values equal to them), and the objects and lists left
 * empty; the rest of the text (comments, layout) as it was. undefined: nothing but `{}` is left.
 */
export function removeJson(old: string, additions: readonly JsonAddition[], path: string): string | undefined {
  const bom = old.startsWith('\uFEFF') ? '\uFEFF' : '';
  let text = old.slice(bom.length);
  parseObject(text, path);
  let changed = false;
  for (const a of additions) {
    const here = valueAt(text, a.at);
    if (a.mode === 'set' && here !== undefined && isOurs(a, here)) {
      text = modified(text, [...a.at], undefined);
      changed = true;
    } else if (a.mode === 'append' && Array.isArray(here)) {
      const i = here.findIndex((v) => isOurs(a, v));
      if (i < 0) continue;
      text = modified(text, here.length === 1 ? [...a.at] : [...a.at, i], undefined);
      changed = true;
    } else continue;
    // objects left empty by this removal go too, innermost first
    for (let d = a.at.length - 1; d > 0; d--) {
      const parent = valueAt(text, a.at.slice(0, d));
      if (isObject(parent) && Object.keys(parent).length === 0) text = modified(text, a.at.slice(0, d), undefined);
    }
  }
  if (!changed) return old;
  return text.replace(/\s/g, '') === '{}' ? undefined : bom + text;
}

/**
 * Refuse to add to a TOML file that does not parse: appending a table to it would leave it as broken
 * and put gitmem's name on the result. @throws EditError with the parser's message (line, column).
 */
export function assertToml(text: string | undefined, path: string): void {
  if (text === undefined || !text.trim()) return;
  try {
    parseToml(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    const err = e as Error & { line?: number; column?: number };
    const what = err.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    const where = err.line ? ` at line ${err.line}, column ${err.column}` : '';
    throw new EditError(
      `${path} is not valid TOML (${what}${where}); nothing written: fix the file or edit it by hand`,
    );
  }
}

/** Markers of a block gitmem owns inside a file a person also writes. */
export interface BlockMarkers {
  readonly start: string;
  readonly end: string;
}

function findBlock(text: string, m: BlockMarkers): { from: number; to: number } | undefined {
  const from = text.indexOf(m.start);
  if (from < 0) return undefined;
  const endAt = text.indexOf(m.end, from);
  if (endAt < 0) return undefined;
  let to = endAt + m.end.length;
  if (text[to] === '\n') to++;
  return { from, to };
}

/**
 * Put `body` between the markers: replace the block when there is one, else append it after a blank
 * line. `preamble` (a rule file's front-matter, which must open the file) starts a file that does
 * not exist yet. @returns the new text (the same text when the block already reads so).
 */
export function addBlock(old: string | undefined, body: string, m: BlockMarkers, preamble = ''): string {
  const block = `${m.start}\n${body.replace(/\n+$/, '')}\n${m.end}\n`;
  if (old === undefined || old === '') return preamble + block;
  const at = findBlock(old, m);
  if (at) return old.slice(0, at.from) + block + old.slice(at.to);
  const sep = old.endsWith('\n\n') ? '' : old.endsWith('\n') ? '\n' : '\n\n';
  return old + sep + block;
}

/**
 * Take the block out, with the blank line `addBlock` put before it. undefined: nothing is left (or,
 * for a file `addBlock` starts with a `preamble`, only front-matter).
 */
export function removeBlock(old: string, m: BlockMarkers, preamble = ''): string | undefined {
  const at = findBlock(old, m);
  if (!at) return old;
  let from = at.from;
  // the separator addBlock wrote: one blank line (and a newline it had to add) before the block
  if (at.to === old.length && old.slice(0, from).endsWith('\n\n')) from -= 1;
  const out = old.slice(0, from) + old.slice(at.to);
  // a rule file left with only front-matter (this preamble, or an earlier gitmem's) holds nothing
  const onlyFrontMatter = preamble !== '' && /^---\r?\n[\s\S]*?\r?\n---$/.test(out.trim());
  return out.trim() === '' || onlyFrontMatter ? undefined : out;
}
