// Minimal text edits of a document's YAML front-matter (add an item to a list, set a scalar), so a
// curated change shows in `git diff` as the one line it is, with comments, key order, flow style and
// line ends kept. Works from the parsed node ranges in MemoryDoc.frontMatter. Pure; imports only core.
import type { MemoryDoc } from '../core/document.js';
import { LineIndex } from '../core/position.js';

/** A YAML scalar as written: plain when safe, double-quoted otherwise. */
function yamlScalar(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  if (
    /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(value) &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(value) &&
    !/^[\d.]+$/.test(value)
  )
    return value;
  return JSON.stringify(value);
}

function closingLine(doc: MemoryDoc): number {
  return doc.frontMatter!.range.end.line;
}

function insertLineBefore(text: string, line: number, content: string, eol: string): string {
  const li = new LineIndex(text);
  const at = li.offsetAt({ line, character: 0 });
  return `${text.slice(0, at)}${content}${eol}${text.slice(at)}`;
}

/**
 * @returns the document text with `value` added to the front-matter list `key` (created as a flow
 * list when absent; a scalar becomes a list). Unchanged when the value is already there.
 * @returns undefined when the document has no YAML front-matter mapping.
 */
export function withListItem(doc: MemoryDoc, key: string, value: string): string | undefined {
  const fm = doc.frontMatter;
  if (!fm || fm.language !== 'yaml' || !fm.data) return undefined;
  const current = fm.data[key];
  const list = Array.isArray(current)
    ? current.map(String)
    : current === undefined || current === null
      ? []
      : [String(current)];
  if (list.includes(value)) return doc.text;
  const text = doc.text;
  const li = new LineIndex(text);
  const node = fm.nodes[`/${key}`];
  if (!node) return insertLineBefore(text, closingLine(doc), `${key}: [${yamlScalar(value)}]`, doc.eol);
  const start = li.offsetAt(node.value.start);
  const end = li.offsetAt(node.value.end);
  const raw = text.slice(start, end);
  if (Array.isArray(current) && raw.trimStart().startsWith('[')) {
    const inner = raw.trim().slice(1, -1).trim();
    const next = inner ? `[${inner.replace(/,\s*$/, '')}, ${yamlScalar(value)}]` : `[${yamlScalar(value)}]`;
    return `${text.slice(0, start)}${next}${text.slice(end)}`;
  }
  if (Array.isArray(current) && current.length > 0) {
    // Block list: a new `- item` line after the last item, with the same indentation.
    const last = fm.nodes[`/${key}/${current.length - 1}`];
    const lastLine = last ? last.value.end.line : node.value.end.line;
    const itemLine = li.lineText(last ? last.value.start.line : node.value.start.line);
    const indent = /^(\s*-\s*)/.exec(itemLine)?.[1] ?? '  - ';
    return insertLineBefore(text, lastLine + 1, `${indent}${yamlScalar(value)}`, doc.eol);
  }
  // Empty value or a scalar: rewrite the value as a flow list.
  const next = `[${[...list, value].map(yamlScalar).join(', ')}]`;
  if (node.key && (current === null || current === undefined || raw.trim() === '')) {
    const keyEnd = li.offsetAt(node.key.end);
    const lineEnd = li.offsetAt({ line: node.key.end.line, character: li.lineText(node.key.end.line).length });
    return `${text.slice(0, keyEnd)}: ${next}${text.slice(lineEnd)}`;
  }
  return `${text.slice(0, start)}${next}${text.slice(end)}`;
}

/**
 * @returns the document text with front-matter `key` set to `value` (the value token replaced, or a
 * `key: value` line added before the closing delimiter). Unchanged when it already has that value.
 * @returns undefined when the document has no YAML front-matter mapping.
 */
export function withScalar(doc: MemoryDoc, key: string, value: string | number | boolean): string | undefined {
  const fm = doc.frontMatter;
  if (!fm || fm.language !== 'yaml' || !fm.data) return undefined;
  if (fm.data[key] === value) return doc.text;
  const text = doc.text;
  const node = fm.nodes[`/${key}`];
  if (!node) return insertLineBefore(text, closingLine(doc), `${key}: ${yamlScalar(value)}`, doc.eol);
  const li = new LineIndex(text);
  const start = li.offsetAt(node.value.start);
  const end = li.offsetAt(node.value.end);
  if (node.key && start === end) {
    const keyEnd = li.offsetAt(node.key.end);
    const lineEnd = li.offsetAt({ line: node.key.end.line, character: li.lineText(node.key.end.line).length });
    return `${text.slice(0, keyEnd)}: ${yamlScalar(value)}${text.slice(lineEnd)}`;
  }
  return `${text.slice(0, start)}${yamlScalar(value)}${text.slice(end)}`;
}

/** @returns `text` with `line` appended at the end of the body (one blank line before a new paragraph is not forced). */
export function withAppendedLine(doc: MemoryDoc, line: string): string {
  const text = doc.text;
  const body = text.endsWith('\n') ? text : `${text}${doc.eol}`;
  return `${body}${line}${doc.eol}`;
}
