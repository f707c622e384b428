// Completion in core terms: enum values from the schemas, tags in use (and catalogued in tags.md),
// entry ids inside `[[` and in `duplicate_of`/`supersedes`, code file paths under `files`, and
// front-matter keys. deps: core, validate (schemas).
import { tagCatalogue } from '../core/tags.js';
import { slugOf, type RelPath } from '../core/paths.js';
import { LineIndex, range, type Position, type Range } from '../core/position.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { SCHEMAS } from '../validate/schema.js';
import { inFrontMatter, parentKey } from './front-matter.js';
import { distance, enumValues } from './schema-values.js';
import { never, type Cancel, type CompletionAnswer, type CompletionEntry, type EditorView } from './types.js';

/**
 * Completion at `pos` in `path`: enum values of `type`/`status`/`category`/`relation`, tags in
 * use under `tags`, entry ids inside `[[` and in `duplicate_of`/`supersedes`, code file paths under
 * `files`, and front-matter keys at the start of a front-matter line.
 */
export function complete(view: EditorView, path: RelPath, pos: Position, cancel: Cancel = never): CompletionAnswer {
  const doc = view.workspace.tryGet(path);
  if (!doc) return { items: [], incomplete: false };
  const li = new LineIndex(doc.text);
  const line = li.lineText(pos.line);
  const col = Math.min(pos.character, line.length);
  const before = line.slice(0, col);

  // [[id completion anywhere outside front-matter
  const open = before.lastIndexOf('[[');
  if (open >= 0 && !before.slice(open).includes(']]') && !inFrontMatter(doc, li, pos.line)) {
    const typed = before.slice(open + 2);
    if (!/[|#\]]/.test(typed)) {
      const closed = line.slice(col).startsWith(']]');
      const end = wordEnd(line, col);
      return {
        items: idItems(
          view.workspace,
          typed,
          range(pos.line, open + 2, pos.line, end),
          closed || line.slice(end).startsWith(']]') ? '' : ']]',
          cancel,
        ),
        incomplete: false,
      };
    }
  }
  if (!inFrontMatter(doc, li, pos.line)) return { items: [], incomplete: false };

  const schema = doc.kind === 'playbook' ? SCHEMAS.playbook : doc.kind === 'entry' ? SCHEMAS.entry : undefined;
  const keyLine = /^(\s*)(-\s+)?([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
  const item = /^(\s*)-\s*(.*)$/.exec(line);
  const at: ValueSite = { view, schema, pos, col, line, cancel };
  // Value position of `key: value` on this line (also `- { path: … }` and `relation:` inside files).
  if (keyLine && col >= line.indexOf(':', (keyLine[1] ?? '').length) + 1) {
    const key = keyLine[3]!;
    const valueStart = line.length - keyLine[4]!.length;
    const parent = keyLine[1]!.length > 0 || keyLine[2] ? parentKey(li, pos.line) : undefined;
    return valueItems(at, parent ? `${parent}.${key}` : key, before.slice(valueStart));
  }
  // Inline flow list or mapping (`tags: [a, b|`, `- { path: sr|`).
  const flow = /([A-Za-z_][\w-]*)\s*:\s*[[{]?[^:]*$/.exec(before);
  if (flow && (before.includes('[') || before.includes('{'))) {
    const parent = item ? parentKey(li, pos.line) : undefined;
    return valueItems(
      at,
      parent ? `${parent}.${flow[1]!}` : flow[1]!,
      before.slice(flow.index + flow[0].length - lastToken(before).length),
    );
  }
  // List item under a key (`tags:` / `files:` / `supersedes:` followed by `  - …`).
  if (item) {
    const parent = parentKey(li, pos.line);
    if (parent)
      return valueItems(at, `${parent}[]`, item[2]!.slice(0, Math.max(0, col - (line.length - item[2]!.length))));
  }
  // Start of a key at column 0.
  if (/^[A-Za-z_]*$/.test(before) && schema) {
    const props = Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>);
    const present = new Set(Object.keys(doc.frontMatter?.data ?? {}));
    const items: CompletionEntry[] = props
      .filter(([k]) => !present.has(k))
      .map(([k, p]) => ({
        label: k,
        kind: 'key' as const,
        insertText: `${k}: `,
        range: range(pos.line, 0, pos.line, wordEnd(line, col)),
        ...(typeof p.title === 'string' ? { detail: p.title } : {}),
        ...(typeof p.description === 'string' ? { documentation: p.description } : {}),
      }));
    return { items, incomplete: false };
  }
  return { items: [], incomplete: false };
}

/** Where a front-matter value is being completed: the document's schema and the cursor on its line. */
interface ValueSite {
  readonly view: EditorView;
  /** The entry or playbook schema (undefined for other files: no enum values). */
  readonly schema: Readonly<Record<string, unknown>> | undefined;
  readonly pos: Position;
  /** The cursor's column, clamped to the line. */
  readonly col: number;
  /** The text of the cursor's line. */
  readonly line: string;
  readonly cancel: Cancel;
}

/**
 * Values for `key` (dotted, `parent.key`, or `parent[]` for a list item) at `at`, with `typedRaw`
 * the text typed so far in the value: tags, entry ids, code file paths, or the schema's enum values.
 */
function valueItems(at: ValueSite, key: string, typedRaw: string): CompletionAnswer {
  const { view, schema, pos, col, line, cancel } = at;
  const typed = lastToken(typedRaw);
  const start = col - typed.length;
  const r = range(pos.line, start, pos.line, wordEnd(line, col));
  const field = key.replace(/\[\]$/, '').replace(/^files\.(path)$/, 'files');
  const leaf = field.split('.').pop()!;
  if (leaf === 'tags') {
    // Tags in use, then catalogued ones (tags.md) nobody uses yet; descriptions from the catalogue.
    const catalogue = tagCatalogue(view.workspace)?.tags;
    const counts = tagCounts(view.workspace);
    const used = new Set(counts.map(([t]) => t));
    const all: [string, number][] = [
      ...counts,
      ...[...(catalogue?.keys() ?? [])]
        .filter((t) => !used.has(t))
        .sort()
        .map((t): [string, number] => [t, 0]),
    ];
    return {
      items: all
        .filter(([t]) => t.toLowerCase().startsWith(typed.toLowerCase()))
        .map(([t, n], i) => {
          const info = catalogue?.get(t);
          const usage = `used by ${n} memor${n === 1 ? 'y' : 'ies'}`;
          return {
            label: t,
            kind: 'tag' as const,
            detail: info?.category ? `${info.category} · ${usage}` : usage,
            ...(info?.description ? { documentation: info.description } : {}),
            range: r,
            sortText: String(i).padStart(5, '0'),
          };
        }),
      incomplete: false,
    };
  }
  if (leaf === 'duplicate_of' || leaf === 'supersedes')
    return { items: idItems(view.workspace, typed, r, '', cancel), incomplete: false };
  if (field === 'files' || key === 'files[]' || field === 'files.path') {
    const lower = typed.toLowerCase();
    const items: CompletionEntry[] = [];
    let incomplete = false;
    for (const f of view.codeFiles()) {
      if (cancel()) return { items, incomplete: true };
      if (!f.toLowerCase().includes(lower)) continue;
      if (items.length >= 200) {
        incomplete = true;
        break;
      }
      items.push({
        label: f,
        kind: 'file',
        range: r,
        sortText: f.toLowerCase().startsWith(lower) ? `0${f}` : `1${f}`,
      });
    }
    return { items, incomplete };
  }
  // Every value, closest to what is typed first: the client filters (fuzzy), and a typo such as
  // `decison` must still offer `decision`.
  const values = enumValues(schema, field, leaf);
  const ranked = typed ? [...values].sort((a, b) => distance(typed, a) - distance(typed, b)) : values;
  return {
    items: ranked.map((v, i) => ({
      label: v,
      kind: 'enum' as const,
      range: r,
      sortText: String(i).padStart(3, '0'),
      detail: `${leaf} value`,
    })),
    incomplete: false,
  };
}

function idItems(ws: MemoryWorkspace, typed: string, r: Range, suffix: string, cancel: Cancel): CompletionEntry[] {
  const lower = typed.trim().toLowerCase();
  const out: CompletionEntry[] = [];
  for (const d of ws.docs()) {
    if (cancel()) break;
    if (d.kind !== 'entry' && d.kind !== 'playbook') continue;
    const id = d.meta.id ?? slugOf(d.path);
    if (lower && !id.toLowerCase().includes(lower) && !(d.meta.title ?? '').toLowerCase().includes(lower)) continue;
    out.push({
      label: id,
      kind: 'id',
      insertText: id + suffix,
      range: r,
      detail: [d.meta.type, d.meta.title].filter(Boolean).join(' · ') || d.path,
      documentation: d.path,
      sortText: id.toLowerCase().startsWith(lower) ? `0${id}` : `1${id}`,
    });
    if (out.length >= 500) break;
  }
  return out;
}

/** Tags in use, most used first. */
export function tagCounts(ws: MemoryWorkspace): [string, number][] {
  const counts = new Map<string, number>();
  for (const d of ws.docs()) for (const t of d.meta.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

function lastToken(s: string): string {
  const m = /[^\s,[\]{}:'"]*$/.exec(s);
  return m ? m[0] : '';
}

function wordEnd(line: string, col: number): number {
  let e = col;
  while (e < line.length && /[^\s,[\]{}'"|#]/.test(line[e]!)) e++;
  return e;
}
