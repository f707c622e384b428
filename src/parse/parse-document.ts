// Text → MemoryDoc: BOM, line ends, front-matter, headings, links, tags, chunks and the typed meta
// recall filters on. Never throws on user content. Imports core and parse/* only (no library
// directly: remark lives in markdown.ts/extract.ts, gray-matter and yaml in front-matter.ts).
import { DiagnosticCode } from '../core/diagnostics.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { DocKind, DocMeta, FileRef, FrontMatter, Heading, MemoryDoc } from '../core/document.js';
import { contentHash } from '../core/hash.js';
import { dailyDateOf } from '../core/layout.js';
import type { RelPath } from '../core/paths.js';
import { slugOf } from '../core/paths.js';
import { LineIndex, range } from '../core/position.js';
import { scanBlocks } from './blocks.js';
import type { Block } from './blocks.js';
import { chunkDocument, resolveChunkOptions } from './chunk.js';
import type { ChunkOptions } from './chunk.js';
import { extractFromBlocks, extractFromMdast, toKnownHeadings } from './extract.js';
import type { Extracted } from './extract.js';
import { parseFrontMatter, stripBom } from './front-matter.js';
import { isSafeForMarkdownParser, parseMarkdown } from './markdown.js';
import { propertyLinks } from './property-links.js';
import { isSimpleMarkdown } from './simple.js';

/** Input of {@link parseDocument}. */
export interface ParseDocumentInput {
  readonly path: RelPath;
  readonly kind: DocKind;
  /** Decoded file text; a leading BOM is allowed (it is stripped and recorded). */
  readonly text: string;
  /** Chunk limits; defaults are `DEFAULT_CONFIG.chunking` (core/config.ts). */
  readonly chunking?: Partial<ChunkOptions>;
  /**
   * Let simple files skip the full parser (default true): when {@link isSimpleMarkdown} holds, the
   * line scanner gives the same headings, links, tags and chunks. False forces remark (tests).
   */
  readonly lineScanner?: boolean;
}

/** @returns the dominant line ending of `text` (`\n` when there is none or on a tie). */
export function dominantEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Replace every character of `text[0, end)` except line breaks with a space (same length, same lines). */
function blankOut(text: string, end: number): string {
  return text.slice(0, end).replace(/[^\r\n]/g, ' ') + text.slice(end);
}

/**
 * `text` for remark when it has no front-matter: a leading `---` line (a block that is not a YAML
 * mapping, read as body, or an unclosed one) becomes `***`, the same thematic break, so that
 * remark-frontmatter cannot take the lines up to a later `---` as a YAML node and drop them (R22).
 */
function asBody(text: string, fm: { frontMatter: unknown }): string {
  return !fm.frontMatter && text.startsWith('---') ? `***${text.slice(3)}` : text;
}

/**
 * Parse one memory file. Positions are computed on the BOM-less text (what the editor shows).
 * Never throws: content problems become `diagnostics`; an internal failure yields a document
 * with no headings, links or chunks and a `memory.parse.failed` diagnostic.
 */
export function parseDocument(input: ParseDocumentInput): MemoryDoc {
  const raw = typeof input.text === 'string' ? input.text : '';
  const { text, hasBom } = stripBom(raw);
  try {
    return parseUnsafe(input, text, hasBom);
  } catch (e) {
    return {
      path: input.path,
      kind: input.kind,
      text,
      hasBom,
      eol: safe(() => dominantEol(text), '\n'),
      contentHash: contentHash(text),
      frontMatter: undefined,
      headings: [],
      links: [],
      chunks: [],
      meta: { tags: [], files: [] },
      diagnostics: [
        {
          path: input.path,
          range: range(0, 0, 0, 0),
          severity: 'error',
          code: DiagnosticCode.parseFailed,
          message: `internal parser failure: ${e instanceof Error ? e.message : String(e)}`,
        },
      ],
    };
  }
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

function parseUnsafe(input: ParseDocumentInput, text: string, hasBom: boolean): MemoryDoc {
  const { path, kind } = input;
  const lines = new LineIndex(text);
  const fm = parseFrontMatter(text, path, lines);
  const diagnostics: Diagnostic[] = [...fm.diagnostics];
  const bodyStartLine = fm.bodyStartLine;

  let extracted: Extracted | undefined;
  let blocks: Block[] | undefined;
  if (input.lineScanner !== false && isSimpleMarkdown(text, lines, bodyStartLine)) {
    // Simple body: the scanner's result equals remark's (parse/simple.ts), at a fraction of the cost.
    blocks = scanBlocks(lines, { startLine: bodyStartLine });
    extracted = extractFromBlocks(blocks, text, lines);
  } else if (isSafeForMarkdownParser(text)) {
    try {
      // remark-frontmatter is left to recognise plain `---` … `---` YAML blocks; any other block
      // (`---js`, `---toml`, delimiters with trailing blanks) is blanked so that remark cannot read
      // it as a setext heading or an unclosed code fence. Blanking keeps every offset and line.
      const plainDelimiters =
        lines.lineText(0) === '---' && fm.closeLine !== undefined && lines.lineText(fm.closeLine) === '---';
      const md = fm.frontMatter && !plainDelimiters ? blankOut(text, fm.bodyOffset) : asBody(text, fm);
      const root = parseMarkdown(md);
      extracted = extractFromMdast(root, text, lines, bodyStartLine);
      blocks = scanBlocks(lines, { startLine: bodyStartLine, headings: toKnownHeadings(extracted.headings) });
    } catch {
      extracted = undefined; // fall back to the line scanner below
    }
  }
  if (!extracted || !blocks) {
    blocks = scanBlocks(lines, { startLine: bodyStartLine });
    extracted = extractFromBlocks(blocks, text, lines);
  }
  const chunks = chunkDocument({ path, kind, text, lines, blocks, options: resolveChunkOptions(input.chunking) });

  return {
    path,
    kind,
    text,
    hasBom,
    eol: dominantEol(text),
    contentHash: contentHash(text),
    frontMatter: fm.frontMatter,
    headings: extracted.headings,
    links: [...propertyLinks(fm.frontMatter, text, lines), ...extracted.links],
    chunks,
    meta: buildMeta(path, kind, fm.frontMatter, extracted.headings, extracted.tags),
    diagnostics,
  };
}

/** @returns normalised tags: strings (or a comma/space separated string), `#` stripped, lowercase, unique. */
export function normaliseTags(value: unknown): string[] {
  const raw: string[] = [];
  if (typeof value === 'string') raw.push(...value.split(/[,\s]+/));
  else if (Array.isArray(value)) {
    for (const v of value) {
      if (typeof v === 'string') raw.push(v);
      else if (typeof v === 'number' && Number.isFinite(v)) raw.push(String(v));
    }
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const r of raw) {
    const t = r.trim().replace(/^#+/, '').trim().toLowerCase();
    if (!t || seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out;
}

function linesOf(v: unknown): number[] | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return [v];
  if (Array.isArray(v)) {
    const nums = v.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    return nums.length > 0 ? nums : undefined;
  }
  if (typeof v === 'string') {
    const m = /^\s*(\d+)\s*(?:[-–:]\s*(\d+))?\s*$/.exec(v);
    if (m) return m[2] ? [Number(m[1]), Number(m[2])] : [Number(m[1])];
  }
  return undefined;
}

/** @returns `files:` entries: strings or `{ path, relation?, lines? }` objects; anything else is dropped. */
export function normaliseFiles(value: unknown): FileRef[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const out: FileRef[] = [];
  for (const v of list) {
    if (typeof v === 'string') {
      if (v.trim()) out.push({ path: v.trim() });
    } else if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.path !== 'string' || !o.path.trim()) continue;
      const lines = linesOf(o.lines);
      out.push({
        path: o.path.trim(),
        ...(typeof o.relation === 'string' ? { relation: o.relation } : {}),
        ...(lines ? { lines } : {}),
      });
    }
  }
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function buildMeta(
  path: RelPath,
  kind: DocKind,
  fm: FrontMatter | undefined,
  headings: readonly Heading[],
  inlineTags: readonly string[],
): DocMeta {
  const data = fm?.data ?? {};
  const fmTags = normaliseTags(data.tags);
  if (kind === 'entry' || kind === 'playbook') {
    const source =
      data.source && typeof data.source === 'object' && !Array.isArray(data.source)
        ? (data.source as Record<string, unknown>)
        : {};
    const priority = typeof data.priority === 'number' && Number.isFinite(data.priority) ? data.priority : undefined;
    const meta: { -readonly [K in keyof DocMeta]: DocMeta[K] } = {
      id: str(data.id)?.trim() ?? slugOf(path),
      tags: fmTags,
      files: normaliseFiles(data.files),
    };
    const title =
      str(data.title) ?? (typeof data.title === 'number' ? String(data.title) : undefined) ?? headings[0]?.text;
    if (str(data.type)) meta.type = str(data.type)!;
    if (title) meta.title = title;
    if (str(data.created)) meta.date = str(data.created)!;
    if (str(data.status)) meta.status = str(data.status)!;
    if (str(data.duplicate_of)) meta.duplicateOf = str(data.duplicate_of)!;
    const ids = (v: unknown): string[] =>
      (Array.isArray(v) ? v : v === undefined ? [] : [v])
        .map((x) => str(x)?.trim())
        .filter((x): x is string => x !== undefined);
    if (ids(data.supersedes).length) meta.supersedes = ids(data.supersedes);
    if (ids(data.compatible_with).length) meta.compatibleWith = ids(data.compatible_with);
    if (str(data.valid_until)) meta.validUntil = str(data.valid_until)!.trim();
    if (str(data.review_after)) meta.reviewAfter = str(data.review_after)!.trim();
    if (str(data.category)) meta.category = str(data.category)!;
    if (priority !== undefined) meta.priority = priority;
    if (typeof data.active === 'boolean') meta.active = data.active;
    if (str(source.agent)) meta.agent = str(source.agent)!;
    return meta;
  }
  if (kind === 'daily') {
    const date = dailyDateOf(path);
    const tags = normaliseTags([...fmTags, ...inlineTags]);
    return date ? { date, tags, files: [] } : { tags, files: [] };
  }
  return { tags: fmTags, files: [] };
}
