// The one front-matter key editor: set a key, or add an item to a list key, of a document's YAML
// front-matter as the smallest text edit (the value token replaced, or one line added before the
// closing delimiter), so a change shows in `git diff` as the one line it is, with comments, key
// order, list style and line ends kept. Every value is rendered by the one scalar renderer,
// `yamlFlowValue` (parse/serialize.ts, over the `yaml` library): a value taken from another file
// (an id, a tag, a title) is quoted where YAML needs it and can never break its line or add keys.
// The editor's quick fixes offer the edit ({@link frontMatterKeyEdit}); ACE, dedupe and the dream
// pass write the edited text ({@link withFrontMatterKey}, {@link withListItem}). deps: core, parse.
import type { MemoryDoc } from '../core/document.js';
import { LineIndex, range, type Range } from '../core/position.js';
import { yamlFlowValue } from './serialize.js';

/** One text edit of a document: `range` replaced by `newText`. */
export interface FrontMatterEdit {
  readonly range: Range;
  readonly newText: string;
}

/** `value` as it is written inside a flow list (`[a, "b, c"]`), the same in a block list item. */
function listItem(value: string): string {
  return yamlFlowValue([value]).slice(1, -1);
}

/** The edit that writes `rendered` as the value of the existing key node, or adds `key: rendered`. */
function valueEdit(doc: MemoryDoc, li: LineIndex, key: string, rendered: string): FrontMatterEdit {
  const fm = doc.frontMatter!;
  const node = fm.nodes[`/${key}`];
  if (!node) {
    const closing = fm.range.end.line; // the closing `---` line: insert before it
    return { range: range(closing, 0, closing, 0), newText: `${key}: ${rendered}${doc.eol}` };
  }
  const start = li.offsetAt(node.value.start);
  const end = li.offsetAt(node.value.end);
  // `key:` with nothing after it: the whole rest of the line becomes `: value`.
  if (node.key && (start === end || doc.text.slice(start, end).trim() === '')) {
    const line = node.key.end.line;
    return {
      range: range(line, node.key.end.character, line, li.lineText(line).length),
      newText: `: ${rendered}`,
    };
  }
  return { range: node.value, newText: rendered };
}

function applied(doc: MemoryDoc, li: LineIndex, edit: FrontMatterEdit): string {
  const a = li.offsetAt(edit.range.start);
  const b = li.offsetAt(edit.range.end);
  return `${doc.text.slice(0, a)}${edit.newText}${doc.text.slice(b)}`;
}

/**
 * The edit that sets `key: value` in the YAML front-matter of `doc` (a string, number, boolean,
 * list or map, rendered as one YAML value on one line).
 * @returns undefined when `doc` has no YAML front-matter block.
 */
export function frontMatterKeyEdit(doc: MemoryDoc, key: string, value: unknown): FrontMatterEdit | undefined {
  const fm = doc.frontMatter;
  if (!fm || fm.language !== 'yaml') return undefined;
  return valueEdit(doc, new LineIndex(doc.text), key, yamlFlowValue(value));
}

/**
 * `doc`'s text with front-matter `key` set to `value`; unchanged when it already holds that value.
 * @returns undefined when `doc` has no YAML front-matter mapping.
 */
export function withFrontMatterKey(doc: MemoryDoc, key: string, value: string | number | boolean): string | undefined {
  const fm = doc.frontMatter;
  if (!fm || fm.language !== 'yaml' || !fm.data) return undefined;
  if (fm.data[key] === value) return doc.text;
  const li = new LineIndex(doc.text);
  return applied(doc, li, valueEdit(doc, li, key, yamlFlowValue(value)));
}

/**
 * `doc`'s text with `value` added to the front-matter list `key`: a new `- item` line in a block
 * list (its indentation kept), a new item in a flow list, a flow list when the key is absent or
 * empty; a scalar becomes a list. Unchanged when the value is already there.
 * @returns undefined when `doc` has no YAML front-matter mapping.
 */
export function withListItem(doc: MemoryDoc, key: string, value: string): string | undefined {
  const fm = doc.frontMatter;
  if (!fm || fm.language !== 'yaml' || !fm.data) return undefined;
  const current = fm.data[key];
  const list = Array.isArray(current) ? current.map(String) : current == null ? [] : [String(current)];
  if (list.includes(value)) return doc.text;
  const li = new LineIndex(doc.text);
  const node = fm.nodes[`/${key}`];
  if (node && Array.isArray(current) && current.length > 0) {
    const raw = doc.text.slice(li.offsetAt(node.value.start), li.offsetAt(node.value.end)).trim();
    if (raw.startsWith('[')) {
      const inner = raw.slice(1, -1).trim().replace(/,\s*$/, '');
      return applied(doc, li, { range: node.value, newText: `[${inner}, ${listItem(value)}]` });
    }
    // Block list: a new `- item` line after the last item, with the same indentation.
    const last = fm.nodes[`/${key}/${current.length - 1}`];
    const lastLine = last ? last.value.end.line : node.value.end.line;
    const indent = /^(\s*-\s*)/.exec(li.lineText(last ? last.value.start.line : node.value.start.line))?.[1] ?? '  - ';
    const at = lastLine + 1;
    return applied(doc, li, { range: range(at, 0, at, 0), newText: `${indent}${listItem(value)}${doc.eol}` });
  }
  return applied(doc, li, valueEdit(doc, li, key, yamlFlowValue([...list, value])));
}
