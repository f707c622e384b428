// Front-matter: BOM and CRLF aware detection of the `---` block on line 1, YAML parsed with the
// `yaml` package (core schema: dates stay strings), other languages rejected unevaluated.
// A flat block of one-line keys, scalars and lists takes the cheap path of front-matter-simple.ts
// (same data and spans, proven by a property test); every other block is parsed in full.
// The ONLY importer of gray-matter and of `yaml`. Imports only core besides those two.
import matter from 'gray-matter';
import { isAlias, isMap, isScalar, isSeq, parseDocument as parseYamlDocument, visit } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { DiagnosticCode } from '../core/diagnostics.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { FrontMatter, NodeRange } from '../core/document.js';
import type { RelPath } from '../core/paths.js';
import { LineIndex } from '../core/position.js';
import type { Range } from '../core/position.js';
import { parseSimpleYaml } from './front-matter-simple.js';

/** Outcome of {@link parseFrontMatter}. All offsets and ranges are on {@link FrontMatterResult.text}. */
export interface FrontMatterResult {
  /** The text with a leading BOM removed (what the editor shows). */
  readonly text: string;
  /** Whether the input began with U+FEFF. */
  readonly hasBom: boolean;
  /** The parsed block; undefined when the file has no (closed) front-matter block. */
  readonly frontMatter: FrontMatter | undefined;
  /** Offset in {@link text} where the body starts (0 without a closed block). */
  readonly bodyOffset: number;
  /** 0-based line where the body starts (0 without a closed block). */
  readonly bodyStartLine: number;
  /** 0-based line of the closing delimiter; undefined without a closed block. */
  readonly closeLine: number | undefined;
  /** invalid-yaml, unsupported-language, unclosed, not-object. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Most YAML errors reported for one block (the first ones are the useful ones). */
const MAX_YAML_ERRORS = 10;

/** Engine for a language we never evaluate; a second guard behind our own language check. */
const refuse = {
  parse(): never {
    throw new Error('front-matter language is not supported');
  },
  stringify(): never {
    throw new Error('front-matter language is not supported');
  },
};

/** @returns the text without a leading U+FEFF, and whether there was one. */
export function stripBom(text: string): { text: string; hasBom: boolean } {
  return text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), hasBom: true } : { text, hasBom: false };
}

/** @returns true for a declared language that means YAML (`---`, `---yaml`, `---yml`). */
function isYamlLanguage(lang: string): boolean {
  return lang === '' || /^ya?ml$/i.test(lang);
}

/**
 * Find the front-matter block of `text` (BOM already removed) and parse it.
 * Never throws on user content. `lines` may be passed when the caller already built one for `text`.
 * `options.simple: false` always runs the full YAML parse (tests compare the two paths).
 */
export function parseFrontMatter(
  input: string,
  path: RelPath,
  lines?: LineIndex,
  options: { readonly simple?: boolean } = {},
): FrontMatterResult {
  const { text, hasBom } = stripBom(input);
  const none = (diagnostics: Diagnostic[] = []): FrontMatterResult => ({
    text,
    hasBom,
    frontMatter: undefined,
    bodyOffset: 0,
    bodyStartLine: 0,
    closeLine: undefined,
    diagnostics,
  });
  if (!text.startsWith('---')) return none();
  // `----` (or `--- -`…) on line 1 is a thematic break, not a delimiter (gray-matter's rule too).
  if (text.charAt(3) === '-') return none();
  const idx = lines ?? new LineIndex(text);
  const openEnd = idx.lineEnd(0);
  const rest = text.slice(3, openEnd);
  const language = rest.trim();

  // The closing delimiter: the first later line that is `---` plus optional blanks (remark's rule).
  let closeLine = -1;
  for (let l = 1; l < idx.lineCount; l++) {
    const start = idx.offsetAt({ line: l, character: 0 });
    if (text.charCodeAt(start) !== 45 /* - */) continue;
    if (/^---[ \t]*$/.test(idx.lineText(l))) {
      closeLine = l;
      break;
    }
  }
  if (closeLine < 0) {
    return none([
      {
        path,
        range: idx.rangeOf(0, openEnd),
        severity: 'warning',
        code: DiagnosticCode.unclosedFrontMatter,
        message: 'front-matter opened with --- on line 1 is never closed; the whole file is read as body',
      },
    ]);
  }

  const closeStart = idx.offsetAt({ line: closeLine, character: 0 });
  const blockEnd = idx.lineEnd(closeLine);
  const bodyStartLine = closeLine + 1;
  const bodyOffset = bodyStartLine < idx.lineCount ? idx.offsetAt({ line: bodyStartLine, character: 0 }) : text.length;
  const blockRange = idx.rangeOf(0, blockEnd);
  const base = { text, hasBom, bodyOffset, bodyStartLine, closeLine };
  const nodes: Record<string, NodeRange> = { '': { value: blockRange } };

  if (!isYamlLanguage(language)) {
    const langStart = 3 + (rest.length - rest.trimStart().length);
    return {
      ...base,
      frontMatter: { language, data: undefined, range: blockRange, nodes },
      diagnostics: [
        {
          path,
          range: idx.rangeOf(langStart, langStart + language.length),
          severity: 'error',
          code: DiagnosticCode.unsupportedLanguage,
          message: `front-matter language "${language}" is not supported (only YAML); it was not evaluated`,
          data: { language },
        },
      ],
    };
  }

  const contentStart = Math.min(idx.offsetAt({ line: 1, character: 0 }), closeStart);
  const source = text.slice(contentStart, closeStart);
  let outcome: YamlOutcome | undefined =
    options.simple === false ? undefined : simpleOutcome(source, contentStart, idx);
  if (outcome) {
    Object.assign(nodes, outcome.nodes);
    return {
      ...base,
      frontMatter: { language: 'yaml', data: outcome.data, range: blockRange, nodes },
      diagnostics: [],
    };
  }
  // gray-matter is the designated front-matter splitter; our detection above stays authoritative
  // (gray-matter closes on any `\n---` prefix and cannot report an unclosed block), so the engine
  // parses the exact block we found. The options object is always passed: without it gray-matter
  // caches results by content and shares data objects between parses (B08).
  try {
    matter(`---\n${source}\n---\n`, {
      language: 'yaml',
      excerpt: false,
      engines: {
        yaml: {
          parse: () => {
            outcome = parseYaml(source, contentStart, idx, path);
            return {};
          },
          stringify: refuse.stringify,
        },
        yml: refuse,
        js: refuse,
        javascript: refuse,
        coffee: refuse,
        coffeescript: refuse,
        cson: refuse,
        toml: refuse,
        json: refuse,
      },
    });
  } catch {
    /* gray-matter itself failed; fall through to our own parse below */
  }
  // gray-matter skips the engine for an empty (or comment-only) block.
  outcome ??= parseYaml(source, contentStart, idx, path);
  // A block that is not a YAML mapping (prose or a list between a leading `---` rule and a later
  // one) is body text, kept for recall, with a hint saying so (docs/bad-inputs.md R22).
  if (outcome.notMapping) return none([readAsBody(path, idx.rangeOf(0, openEnd), closeLine)]);
  Object.assign(nodes, outcome.nodes);
  nodes[''] = { value: blockRange };
  return {
    ...base,
    frontMatter: { language: 'yaml', data: outcome.data, range: blockRange, nodes },
    diagnostics: outcome.diagnostics,
  };
}

interface YamlOutcome {
  data: Record<string, unknown> | undefined;
  nodes: Record<string, NodeRange>;
  diagnostics: Diagnostic[];
  /** The block is valid YAML but not a mapping (a scalar such as prose, or a list): it is body. */
  notMapping?: boolean;
}

/**
 * The hint for a leading `---` … `---` block read as body (a thematic break, the text, and a
 * setext underline or rule) because it is not a YAML mapping. Before, the text between the rules was
 * dropped from recall and validate said only "front-matter must be a mapping".
 */
function readAsBody(path: RelPath, range: Range, closeLine: number): Diagnostic {
  return {
    path,
    range,
    severity: 'hint',
    code: DiagnosticCode.frontMatterNotObject,
    message:
      `the --- block on lines 1-${closeLine + 1} is not a YAML mapping, so it is read as body text and indexed; ` +
      'to make it front-matter, write `key: value` lines (for example `title: …`)',
  };
}

/** The cheap path's outcome for a simple block (front-matter-simple.ts), else undefined. */
function simpleOutcome(source: string, offset: number, idx: LineIndex): YamlOutcome | undefined {
  const simple = parseSimpleYaml(source);
  if (!simple) return undefined;
  const at = (a: number, b: number): Range => idx.rangeOf(offset + a, offset + Math.max(a, b));
  const nodes: Record<string, NodeRange> = {};
  for (const s of simple.spans)
    nodes[s.pointer] = s.key
      ? { key: at(s.key[0], s.key[1]), value: at(s.value[0], s.value[1]) }
      : { value: at(s.value[0], s.value[1]) };
  return { data: simple.data, nodes, diagnostics: [] };
}

/** Parse one YAML block whose first character is at `offset` in the file. */
function parseYaml(source: string, offset: number, idx: LineIndex, path: RelPath): YamlOutcome {
  const nodes: Record<string, NodeRange> = {};
  const diagnostics: Diagnostic[] = [];
  const at = (a: number, b: number): Range => idx.rangeOf(offset + a, offset + Math.max(a, b));
  const blockRange = at(0, source.length);
  const invalid = (range: Range, message: string, data?: Record<string, unknown>): void => {
    diagnostics.push({
      path,
      range,
      severity: 'error',
      code: DiagnosticCode.invalidYaml,
      message,
      ...(data ? { data } : {}),
    });
  };
  let doc;
  try {
    // Core schema: no timestamp type, so `2024-03-10` stays the string as written (B06).
    doc = parseYamlDocument(source, {
      schema: 'core',
      version: '1.2',
      uniqueKeys: true,
      prettyErrors: false,
      logLevel: 'error',
    });
  } catch (e) {
    invalid(blockRange, `front-matter YAML could not be parsed: ${(e as Error).message}`);
    return { data: undefined, nodes, diagnostics };
  }
  // The parser reports one failure many times (a stack overflow at each level it unwinds, an unclosed
  // flow sequence once per bracket): each distinct message once, at its first position (B52).
  const seen = new Set<string>();
  for (const err of doc.errors) {
    const message = err.message.split('\n')[0] ?? 'invalid YAML';
    if (seen.has(message)) continue;
    if (seen.size === MAX_YAML_ERRORS) break;
    seen.add(message);
    const [a, b] = err.pos;
    invalid(at(Math.min(a, source.length), Math.min(Math.max(b, a + 1), source.length)), message, {
      yamlCode: err.code,
    });
  }
  if (doc.errors.length > 0) return { data: undefined, nodes, diagnostics };

  try {
    collectNodes(doc.contents, '', undefined, nodes, at);
  } catch {
    /* ranges are a convenience; never fail the parse over them */
  }
  delete nodes[''];

  // Explicit tags (`!!timestamp`, `!!binary`) can still produce non-JSON values: keep the text as written.
  visit(doc, {
    Scalar(_key, node) {
      if (node.value instanceof Date || node.value instanceof Uint8Array) {
        const src = (node as { source?: unknown }).source;
        node.value =
          typeof src === 'string' ? src : node.value instanceof Date ? node.value.toISOString() : String(src ?? '');
      }
    },
  });
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    invalid(blockRange, `front-matter YAML could not be read: ${(e as Error).message}`);
    return { data: undefined, nodes, diagnostics };
  }
  if (value === null || value === undefined) return { data: {}, nodes, diagnostics };
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Set || value instanceof Date)
    return { data: undefined, nodes, diagnostics, notMapping: true };
  return { data: toPlain(value) as Record<string, unknown>, nodes, diagnostics };
}

/** JSON pointer segment escaping (RFC 6901). */
function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function keyString(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  if (key && typeof key === 'object' && 'toString' in key) return String(key);
  return String(key);
}

function collectNodes(
  node: unknown,
  pointer: string,
  key: Range | undefined,
  out: Record<string, NodeRange>,
  at: (a: number, b: number) => Range,
): void {
  if (!node || typeof node !== 'object') return;
  const n = node as YamlNode;
  const r = n.range;
  if (r) out[pointer] = key ? { key, value: at(r[0], r[1]) } : { value: at(r[0], r[1]) };
  if (isAlias(n)) return;
  if (isMap(n)) {
    for (const pair of n.items) {
      const k = pair.key as YamlNode | null;
      const kr = k && typeof k === 'object' && k.range ? at(k.range[0], k.range[1]) : undefined;
      const child = `${pointer}/${escapePointer(keyString(k))}`;
      if (pair.value && typeof pair.value === 'object') collectNodes(pair.value, child, kr, out, at);
      else if (kr) out[child] = { key: kr, value: kr };
    }
  } else if (isSeq(n)) {
    n.items.forEach((item, i) => collectNodes(item, `${pointer}/${i}`, undefined, out, at));
  }
}

/** Deep copy into fresh plain objects and arrays; Dates → ISO strings, Maps → objects, Sets → arrays. */
function toPlain(v: unknown, depth = 0): unknown {
  if (depth > 200) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Array.isArray(v) || v instanceof Set) return [...v].map((x) => toPlain(x, depth + 1));
  if (v instanceof Uint8Array) return btoa(String.fromCharCode(...v.subarray(0, 65536)));
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) define(o, String(k), toPlain(x, depth + 1));
    return o;
  }
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v)) define(o, k, toPlain((v as Record<string, unknown>)[k], depth + 1));
    return o;
  }
  if (typeof v === 'function' || typeof v === 'symbol') return undefined;
  return v;
}

/** Own-property assignment that is safe for keys such as `__proto__`. */
function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}
