// Rename and move that keep links whole: the edits that renaming an entry id, a heading, or moving
// files and folders needs across the workspace. Pure over a MemoryWorkspace (nothing is written
// here): the language server turns a plan into a WorkspaceEdit, `gitmem mv` applies it through the
// Memory's guarded writes (service/files/move.ts). Edits are in the coordinates of the files as they are
// before any move (LSP applies willRenameFiles edits before the rename, and so does `gitmem mv`).
// deps: core.
import { posix } from 'node:path';
import type { Link, MemoryDoc } from '../../core/document.js';
import { MemoryError, shownValue } from '../../core/errors.js';
import { isExternalTarget, resolveLink } from '../../core/links.js';
import { resolveRelative, slugOf, type RelPath } from '../../core/paths.js';
import { LineIndex, range, type Position, type Range } from '../../core/position.js';
import type { MemoryWorkspace } from '../../core/workspace.js';

/** A text edit in a workspace file (same shape as the editor's code-action edits). */
export interface FileEdit {
  readonly path: RelPath;
  readonly range: Range;
  readonly newText: string;
}

/** One file (or folder) to rename. */
export interface FileMove {
  readonly from: RelPath;
  readonly to: RelPath;
}

/** Everything a rename or move changes: text edits first, then the moves. */
export interface RenamePlan {
  readonly edits: readonly FileEdit[];
  readonly moves: readonly FileMove[];
}

/** What the text at a position can be renamed as. `range` is the text the new name replaces. */
export type RenameTarget =
  | { readonly kind: 'id'; readonly id: string; readonly range: Range }
  | {
      readonly kind: 'heading';
      readonly path: RelPath;
      readonly index: number;
      readonly text: string;
      readonly range: Range;
    };

/** Front-matter values that hold entry ids (JSON pointers). */
const ID_REFS = /^\/(duplicate_of|supersedes(\/\d+)?|compatible_with(\/\d+)?)$/;
/** An id we can write bare in YAML and inside `[[…]]`. */
const ID_RE = /^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u;

/** @returns the heading text's range on an ATX heading line (`## Text ##`), or undefined (setext). */
function headingTextRange(li: LineIndex, line: number): Range | undefined {
  const text = li.lineText(line);
  const m = /^(\s{0,3}#{1,6}[ \t]+)(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(text);
  if (!m || !m[2]) return undefined;
  return range(line, m[1]!.length, line, m[1]!.length + m[2].length);
}

/** GitHub-style anchor of a heading: lower case, punctuation dropped, spaces → `-`. */
function anchorSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

interface Span {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Target and anchor spans (absolute offsets) of a `[[target#anchor|label]]` link. */
function wikiSpans(doc: MemoryDoc, li: LineIndex, l: Link): { target: Span; anchor?: Span } | undefined {
  const s = li.offsetAt(l.range.start);
  const raw = doc.text.slice(s, li.offsetAt(l.range.end));
  const open = raw.indexOf('[[');
  if (open < 0) return undefined;
  const inner = raw.slice(open + 2, raw.lastIndexOf(']]') < 0 ? raw.length : raw.lastIndexOf(']]'));
  const left = inner.split('|')[0]!;
  const hash = left.indexOf('#');
  const t = hash < 0 ? left : left.slice(0, hash);
  const lead = t.length - t.trimStart().length;
  const base = s + open + 2;
  const target = { start: base + lead, end: base + lead + t.trim().length, text: t.trim() };
  if (hash < 0) return { target };
  const a = left.slice(hash + 1);
  return { target, anchor: { start: base + hash + 1, end: base + hash + 1 + a.length, text: a } };
}

/** Path and anchor spans of a relative markdown link or definition. */
function markdownSpans(doc: MemoryDoc, li: LineIndex, l: Link): { path: Span; anchor?: Span } | undefined {
  const s = li.offsetAt(l.range.start);
  const raw = doc.text.slice(s, li.offsetAt(l.range.end));
  const at = raw.lastIndexOf(l.target);
  if (at < 0) return undefined;
  const cut = l.target.search(/[#?]/);
  const p = cut < 0 ? l.target : l.target.slice(0, cut);
  const path = { start: s + at, end: s + at + p.length, text: p };
  const hash = l.target.indexOf('#');
  if (hash < 0) return { path };
  const a = l.target.slice(hash + 1);
  return { path, anchor: { start: s + at + hash + 1, end: s + at + hash + 1 + a.length, text: a } };
}

function edit(doc: MemoryDoc, li: LineIndex, span: { start: number; end: number }, newText: string): FileEdit {
  return { path: doc.path, range: li.rangeOf(span.start, span.end), newText };
}

function valueAt(data: Readonly<Record<string, unknown>>, pointer: string): unknown {
  let cur: unknown = data;
  for (const part of pointer.split('/').slice(1))
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  return cur;
}

function contains(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const beforeEnd = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return afterStart && beforeEnd;
}

/**
 * @returns what can be renamed at `pos` in `path`: an entry id (inside `[[…]]`, or an `id:`,
 * `supersedes`, `duplicate_of`, `compatible_with` value) or an ATX heading; undefined elsewhere.
 */
export function renameTargetAt(ws: MemoryWorkspace, path: RelPath, pos: Position): RenameTarget | undefined {
  const doc = ws.tryGet(path);
  if (!doc) return undefined;
  const li = new LineIndex(doc.text);
  for (const l of doc.links) {
    if (l.kind !== 'wiki' || !contains(l.range, pos)) continue;
    const spans = wikiSpans(doc, li, l);
    if (!spans || !spans.target.text) return undefined;
    const docs = resolveLink(l, doc, ws);
    const entry = docs.find((d) => d.kind === 'entry' || d.kind === 'playbook');
    if (!entry?.meta.id) return undefined;
    return { kind: 'id', id: entry.meta.id, range: li.rangeOf(spans.target.start, spans.target.end) };
  }
  const fm = doc.frontMatter;
  if (fm?.data && contains(fm.range, pos)) {
    for (const [pointer, node] of Object.entries(fm.nodes)) {
      if (!contains(node.value, pos) || !(pointer === '/id' || ID_REFS.test(pointer))) continue;
      const v = valueAt(fm.data, pointer);
      if (typeof v !== 'string' || !v.trim()) continue;
      if (pointer === '/id' && doc.kind !== 'entry' && doc.kind !== 'playbook') return undefined;
      if (pointer !== '/id' && ws.byId(v.trim()).length === 0) return undefined;
      return { kind: 'id', id: v.trim(), range: node.value };
    }
    return undefined;
  }
  const index = doc.headings.findIndex((h) => h.range.start.line === pos.line);
  if (index >= 0) {
    const r = headingTextRange(li, pos.line);
    if (r) return { kind: 'heading', path, index, text: doc.headings[index]!.text, range: r };
  }
  return undefined;
}

/**
 * Rename entry id `oldId` to `newId`: its `id:` (added when the id was the file name), every
 * `[[oldId…]]` link that resolves to it, and `supersedes` / `duplicate_of` / `compatible_with` values.
 * @throws MemoryError `entry.not-found`, `usage` (bad or taken id, entry without front-matter).
 */
export function planIdRename(ws: MemoryWorkspace, oldId: string, newId: string): RenamePlan {
  const targets = ws.byId(oldId);
  if (targets.length === 0) throw new MemoryError('entry.not-found', `no memory with id ${shownValue(oldId)}`);
  const id = newId.trim();
  if (!ID_RE.test(id))
    throw new MemoryError(
      'usage',
      `"${newId}" is not a usable id: letters, digits, ".", "_" and "-", starting with a letter or digit`,
    );
  if (id === oldId) return { edits: [], moves: [] };
  if (ws.byId(id).length > 0)
    throw new MemoryError(
      'usage',
      `id "${id}" is already used by ${ws
        .byId(id)
        .map((d) => d.path)
        .join(', ')}`,
    );
  const edits: FileEdit[] = [];
  const paths = new Set(targets.map((d) => d.path));
  for (const d of targets) {
    const fm = d.frontMatter;
    if (!fm || fm.language !== 'yaml' || !fm.data)
      throw new MemoryError('usage', `${d.path} has no YAML front-matter to hold an id`);
    const node = fm.nodes['/id'];
    edits.push(
      node
        ? { path: d.path, range: node.value, newText: id }
        : { path: d.path, range: range(fm.range.end.line, 0, fm.range.end.line, 0), newText: `id: ${id}${d.eol}` },
    );
  }
  for (const d of ws.docs()) {
    const li = new LineIndex(d.text);
    for (const l of d.links) {
      if (l.kind !== 'wiki' || !resolveLink(l, d, ws).some((t) => paths.has(t.path))) continue;
      const spans = wikiSpans(d, li, l);
      if (spans?.target.text) edits.push(edit(d, li, spans.target, id));
    }
    edits.push(...idRefEdits(d, new Map([[oldId, id]])));
  }
  return { edits, moves: [] };
}

/** Edits of `supersedes` / `duplicate_of` / `compatible_with` values found in `renames`. */
function idRefEdits(d: MemoryDoc, renames: ReadonlyMap<string, string>): FileEdit[] {
  const fm = d.frontMatter;
  if (!fm?.data || renames.size === 0) return [];
  const out: FileEdit[] = [];
  for (const [pointer, node] of Object.entries(fm.nodes)) {
    if (!ID_REFS.test(pointer)) continue;
    const v = valueAt(fm.data, pointer);
    const to = typeof v === 'string' ? renames.get(v.trim()) : undefined;
    if (to !== undefined) out.push({ path: d.path, range: node.value, newText: to });
  }
  return out;
}

/**
 * Rename heading `index` of `path` to `newText`, and every link to it: `[[file#Heading]]`,
 * `[[#Heading]]` in the same file, and `[label](file.md#heading-anchor)`.
 * @throws MemoryError `usage` for a setext heading or an empty name.
 */
export function planHeadingRename(ws: MemoryWorkspace, path: RelPath, index: number, newText: string): RenamePlan {
  const doc = ws.tryGet(path);
  const h = doc?.headings[index];
  if (!doc || !h) throw new MemoryError('usage', `no heading ${index} in ${path}`);
  const name = newText.replace(/[\r\n]+/g, ' ').trim();
  if (!name) throw new MemoryError('usage', 'a heading needs some text');
  const li = new LineIndex(doc.text);
  const r = headingTextRange(li, h.range.start.line);
  if (!r) throw new MemoryError('usage', 'only "#" headings can be renamed (this one is underlined)');
  const edits: FileEdit[] = [{ path, range: r, newText: name }];
  const oldText = h.text.trim().toLowerCase();
  const oldSlug = anchorSlug(h.text);
  let markdownEdits = 0;
  let propertyEdits = 0;
  for (const d of ws.docs()) {
    const dli = d === doc ? li : new LineIndex(d.text);
    for (const l of d.links) {
      if (l.kind === 'wiki') {
        const spans = wikiSpans(d, dli, l);
        if (!spans?.anchor) continue;
        const here = spans.target.text === '' ? d.path === path : resolveLink(l, d, ws).some((t) => t.path === path);
        const a = spans.anchor.text.trim();
        if (here && (a.toLowerCase() === oldText || anchorSlug(a) === oldSlug)) {
          const e = edit(d, dli, spans.anchor, name);
          edits.push(e);
          if (d.frontMatter && contains(d.frontMatter.range, e.range.start)) propertyEdits++;
        }
      } else {
        const spans = markdownSpans(d, dli, l);
        if (!spans?.anchor || isExternalTarget(l.target)) continue;
        if (resolveRelative(d.path, spans.path.text) !== path) continue;
        let a = spans.anchor.text;
        try {
          a = decodeURIComponent(a);
        } catch {
          /* keep as written */
        }
        if (a === oldSlug) {
          edits.push(edit(d, dli, spans.anchor, anchorSlug(name)));
          markdownEdits++;
        }
      }
    }
  }
  // The new name goes inside every `[[file#Heading]]` that points here: link syntax in it would
  // break those links (or make new ones), so such a name is refused while any link needs it.
  const wikiEdits = edits.length - 1 - markdownEdits;
  const bad = /[[\]|#^\n]/.exec(name);
  if (bad && wikiEdits > 0)
    throw new MemoryError(
      'usage',
      `"${name}" cannot be a heading that [[links]] point at: "${bad[0]}" would break the ${wikiEdits} link${wikiEdits === 1 ? '' : 's'} to it (avoid [ ] | # ^)`,
    );
  // A `[[file#Heading]]` in a front-matter value sits inside a YAML string (E10): a quote, a
  // backslash or a colon there would end the string or change what the line means.
  const unsafe = /["'\\:]/.exec(name);
  if (unsafe && propertyEdits > 0)
    throw new MemoryError(
      'usage',
      `"${name}" cannot be a heading that front-matter [[links]] point at: '${unsafe[0]}' can end or change the YAML value around ${propertyEdits === 1 ? 'the 1 link' : `the ${propertyEdits} links`} (avoid " ' \\ :)`,
    );
  return { edits, moves: [] };
}

/** A relative link from `fromFile` to `target`, in the style of `original` (`./`, percent-encoding). */
function relativeLink(fromFile: RelPath, target: RelPath, original: string): string {
  let rel = posix.relative(posix.dirname(fromFile), target) || posix.basename(target);
  if (original.startsWith('./') && !rel.startsWith('../')) rel = `./${rel}`;
  return /%[0-9a-f]{2}/i.test(original) ? encodeURI(rel) : rel;
}

/**
 * Move files or folders (`from` may be a folder: everything under it moves). Every relative link
 * into a moved file, every relative link inside a moved file, and every `[[file-name]]` link (and
 * id reference) to a moved file whose name, and so implicit id, changes. `known` lists every file
 * of the root (memory or not) so that folder moves and links to code files are followed.
 * @throws MemoryError `usage` when a destination exists or a folder would move into itself.
 */
export function planMoves(
  ws: MemoryWorkspace,
  moves: readonly FileMove[],
  known: ReadonlySet<string> = new Set(),
): RenamePlan {
  const all = new Set<string>([...known, ...ws.docs().map((d) => d.path)]);
  const newPath = (p: RelPath): RelPath | undefined => {
    for (const m of moves) {
      if (p === m.from) return m.to;
      if (p.startsWith(`${m.from}/`)) return `${m.to}${p.slice(m.from.length)}` as RelPath;
    }
    return undefined;
  };
  const expanded: FileMove[] = [];
  for (const m of moves) {
    if (m.from === m.to) continue;
    if (m.to.startsWith(`${m.from}/`)) throw new MemoryError('usage', `cannot move ${m.from} into itself (${m.to})`);
    const files = [...all].filter((p) => p === m.from || p.startsWith(`${m.from}/`)) as RelPath[];
    for (const f of files) {
      const to = newPath(f)!;
      if (all.has(to) && !newPath(to as RelPath)) throw new MemoryError('usage', `${to} already exists`);
      expanded.push({ from: f, to });
    }
  }
  // Entries whose id is their file name change id when the name changes: follow those too.
  const renamedIds = new Map<string, string>();
  const slugMoves = new Map<RelPath, RelPath>();
  for (const m of expanded) {
    const d = ws.tryGet(m.from);
    if (!d || slugOf(m.from) === slugOf(m.to)) continue;
    slugMoves.set(m.from, m.to);
    if ((d.kind === 'entry' || d.kind === 'playbook') && d.frontMatter?.data?.id === undefined && d.meta.id)
      renamedIds.set(d.meta.id, slugOf(m.to));
  }
  const edits: FileEdit[] = [];
  for (const d of ws.docs()) {
    const li = new LineIndex(d.text);
    const self = newPath(d.path) ?? d.path;
    for (const l of d.links) {
      if (l.kind === 'markdown') {
        if (isExternalTarget(l.target)) continue;
        const spans = markdownSpans(d, li, l);
        if (!spans || !spans.path.text) continue;
        const target = resolveRelative(d.path, spans.path.text);
        if (!target) continue;
        // Links without `.md` (`[x](../entries/a)`) name the markdown file too.
        const file = !all.has(target) && all.has(`${target}.md`) ? (`${target}.md` as RelPath) : target;
        const moved = newPath(file);
        if (!moved && self === d.path) continue;
        const dest = moved ?? file;
        const written = file === target ? dest : (dest.replace(/\.md$/i, '') as RelPath);
        const next = relativeLink(self, written, spans.path.text);
        if (next !== spans.path.text) edits.push(edit(d, li, spans.path, next));
      } else {
        const spans = wikiSpans(d, li, l);
        if (!spans?.target.text) continue;
        const hit = resolveLink(l, d, ws).find((t) => slugMoves.has(t.path));
        if (!hit) continue;
        const written = spans.target.text.replace(/\.md$/i, '');
        const to = slugMoves.get(hit.path)!;
        // Resolved through an explicit id: the id does not change with the file name.
        if (hit.frontMatter?.data?.id !== undefined && written === hit.meta.id) continue;
        const byPath = written.toLowerCase() === hit.path.replace(/\.md$/i, '').toLowerCase();
        edits.push(edit(d, li, spans.target, byPath ? to.replace(/\.md$/i, '') : slugOf(to)));
      }
    }
    edits.push(...idRefEdits(d, renamedIds));
  }
  return { edits, moves: expanded };
}

/** @returns `text` with `edits` applied (all in one file; ranges must not overlap). */
export function applyEdits(text: string, edits: readonly FileEdit[]): string {
  const li = new LineIndex(text);
  const sorted = [...edits]
    .map((e) => ({ s: li.offsetAt(e.range.start), e: li.offsetAt(e.range.end), t: e.newText }))
    .sort((a, b) => b.s - a.s || b.e - a.e);
  let out = text;
  let floor = Infinity;
  for (const x of sorted) {
    if (x.e > floor) throw new MemoryError('usage', 'overlapping edits');
    out = out.slice(0, x.s) + x.t + out.slice(x.e);
    floor = x.s;
  }
  return out;
}
