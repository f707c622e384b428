// Test support for test/unit/validate: builds MemoryDoc values from markdown text without src/parse
// (validate must not depend on the parser). Front-matter is parsed with `yaml` (core schema, so
// dates stay strings) and every node gets key/value ranges by JSON pointer, as parse/ promises.
// Links are found with regular expressions; good enough for hand-written test documents.
import { isMap, isPair, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { DiagnosticCode, type Diagnostic } from '../../src/core/diagnostics.js';
import type {
  DocKind,
  DocMeta,
  FileRef,
  FrontMatter,
  Heading,
  Link,
  MemoryDoc,
  NodeRange,
} from '../../src/core/document.js';
import { contentHash } from '../../src/core/hash.js';
import { classify, dailyDateOf, layoutPreset } from '../../src/core/layout.js';
import { slugOf, toRelPath } from '../../src/core/paths.js';
import { LineIndex, range, type Range } from '../../src/core/position.js';
import { MemoryWorkspace } from '../../src/core/workspace.js';

const FENCE = /^---([^\r\n]*)\r?\n/;

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function parseFrontMatter(text: string, lines: LineIndex, path: MemoryDoc['path']) {
  const open = FENCE.exec(text);
  if (!open) return { frontMatter: undefined, bodyStart: 0, diagnostics: [] as Diagnostic[] };
  const contentStart = open[0].length;
  const close = /^---[ \t]*(?:\r?\n|$)/m;
  close.lastIndex = 0;
  const rest = text.slice(contentStart);
  const m = close.exec(rest);
  if (!m) return { frontMatter: undefined, bodyStart: 0, diagnostics: [] as Diagnostic[] };
  const contentEnd = contentStart + m.index;
  const blockEnd = contentEnd + m[0].replace(/\r?\n$/, '').length;
  const blockRange = lines.rangeOf(0, blockEnd);
  const language = open[1]!.trim() || 'yaml';
  const nodes: Record<string, NodeRange> = { '': { value: blockRange } };
  const diagnostics: Diagnostic[] = [];
  let data: Record<string, unknown> | undefined;
  if (language === 'yaml') {
    const src = text.slice(contentStart, contentEnd);
    const doc = parseDocument(src, { schema: 'core' });
    const at = (n: { range?: readonly number[] | null | undefined } | null | undefined): Range | undefined =>
      n?.range ? lines.rangeOf(contentStart + n.range[0]!, contentStart + n.range[1]!) : undefined;
    if (doc.errors.length > 0) {
      diagnostics.push({
        path,
        range: blockRange,
        severity: 'error',
        code: DiagnosticCode.invalidYaml,
        message: doc.errors[0]!.message,
      });
    } else {
      const js: unknown = doc.toJS();
      if (js === null || js === undefined) data = {};
      else if (typeof js === 'object' && !Array.isArray(js)) data = js as Record<string, unknown>;
      else {
        diagnostics.push({
          path,
          range: blockRange,
          severity: 'error',
          code: DiagnosticCode.frontMatterNotObject,
          message: 'not a mapping',
        });
      }
      const walk = (node: YamlNode | null | undefined, pointer: string): void => {
        if (isMap(node)) {
          for (const pair of node.items) {
            if (!isPair(pair)) continue;
            const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
            const p = `${pointer}/${escapePointer(key)}`;
            const keyRange = at(pair.key as YamlNode);
            const valueRange = at(pair.value as YamlNode) ?? keyRange;
            if (valueRange) nodes[p] = keyRange ? { key: keyRange, value: valueRange } : { value: valueRange };
            walk(pair.value as YamlNode, p);
          }
        } else if (isSeq(node)) {
          node.items.forEach((item, i) => {
            const p = `${pointer}/${i}`;
            const r = at(item as YamlNode);
            if (r) nodes[p] = { value: r };
            walk(item as YamlNode, p);
          });
        }
      };
      walk(doc.contents as YamlNode, '');
    }
  }
  const frontMatter: FrontMatter = { language, data, range: blockRange, nodes };
  const bodyStart = blockEnd + (text.slice(blockEnd).match(/^\r?\n/)?.[0].length ?? 0);
  return { frontMatter, bodyStart, diagnostics };
}

function findLinks(text: string, from: number, lines: LineIndex): Link[] {
  const body = text.slice(from);
  const out: Link[] = [];
  for (const m of body.matchAll(/\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]/g)) {
    const start = from + m.index;
    out.push({ kind: 'wiki', target: m[1]!.trim(), range: lines.rangeOf(start, start + m[0].length) });
  }
  for (const m of body.matchAll(/(?<![!\]])\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const start = from + m.index;
    out.push({ kind: 'markdown', target: m[2]!, range: lines.rangeOf(start, start + m[0].length) });
  }
  return out.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

function findHeadings(lines: LineIndex, fromLine: number): Heading[] {
  const out: Heading[] = [];
  for (let l = fromLine; l < lines.lineCount; l++) {
    const t = lines.lineText(l);
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(t);
    if (m) out.push({ depth: m[1]!.length, text: m[2]!, range: range(l, 0, l, t.length) });
  }
  return out;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function metaOf(
  kind: DocKind,
  path: string,
  data: Readonly<Record<string, unknown>> | undefined,
  headings: Heading[],
): DocMeta {
  const d = data ?? {};
  const typed = kind === 'entry' || kind === 'playbook';
  const files: FileRef[] = Array.isArray(d.files)
    ? d.files.flatMap((f): FileRef[] =>
        typeof f === 'string'
          ? [{ path: f }]
          : f && typeof f === 'object' && typeof (f as FileRef).path === 'string'
            ? [f as FileRef]
            : [],
      )
    : [];
  const id = typed ? (str(d.id) ?? slugOf(path)) : undefined;
  const title = str(d.title) ?? headings[0]?.text;
  const date = kind === 'daily' ? dailyDateOf(path) : str(d.created);
  const source = d.source && typeof d.source === 'object' ? (d.source as Record<string, unknown>) : {};
  // As parse/ reads it: one id or a list, trimmed.
  const supersedes = (Array.isArray(d.supersedes) ? d.supersedes : d.supersedes === undefined ? [] : [d.supersedes])
    .map((x) => str(x)?.trim())
    .filter((x): x is string => x !== undefined);
  return {
    ...(id === undefined ? {} : { id }),
    ...(str(d.type) === undefined ? {} : { type: str(d.type) }),
    ...(title === undefined ? {} : { title }),
    tags: Array.isArray(d.tags) ? d.tags.filter((t): t is string => typeof t === 'string') : [],
    files,
    ...(date === undefined ? {} : { date }),
    ...(str(d.status) === undefined ? {} : { status: str(d.status) }),
    ...(str(d.duplicate_of) === undefined ? {} : { duplicateOf: str(d.duplicate_of) }),
    ...(str(d.category) === undefined ? {} : { category: str(d.category) }),
    ...(typeof d.priority === 'number' ? { priority: d.priority } : {}),
    ...(typeof d.active === 'boolean' ? { active: d.active } : {}),
    ...(str(source.agent) === undefined ? {} : { agent: str(source.agent) }),
    ...(supersedes.length ? { supersedes } : {}),
  };
}

/**
 * Build a {@link MemoryDoc} from markdown. `kind` defaults to what the default layout says about
 * `path` (`memory/entries/x.md` → entry), falling back to `note`.
 */
export function makeDoc(path: string, text: string, kind?: DocKind): MemoryDoc {
  const rel = toRelPath(path);
  const hasBom = text.startsWith('\uFEFF');
  const shown = hasBom ? text.slice(1) : text;
  const lines = new LineIndex(shown);
  const k = kind ?? classify(rel, layoutPreset('default')) ?? 'note';
  const { frontMatter, bodyStart, diagnostics } = parseFrontMatter(shown, lines, rel);
  const headings = findHeadings(lines, lines.positionAt(bodyStart).line);
  return {
    path: rel,
    kind: k,
    text: shown,
    hasBom,
    eol: shown.includes('\r\n') ? '\r\n' : '\n',
    contentHash: contentHash(shown),
    frontMatter,
    headings,
    links: findLinks(shown, bodyStart, lines),
    chunks: [],
    meta: metaOf(k, rel, frontMatter?.data, headings),
    diagnostics,
  };
}

/** Build a workspace from `{ path: markdown }`. */
export function makeWorkspace(files: Readonly<Record<string, string>>): MemoryWorkspace {
  return new MemoryWorkspace(Object.entries(files).map(([p, t]) => makeDoc(p, t)));
}

/** Front-matter block + body, for readable tests: `md(['type: decision'], '# Title')`. */
export function md(frontMatterLines: readonly string[], body = ''): string {
  return `---\n${frontMatterLines.join('\n')}\n---\n${body}`;
}
