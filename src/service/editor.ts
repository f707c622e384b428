// The editor's view of the memory: a parsed workspace kept current document by document (open
// buffers through the overlay, file events from disk), its diagnostics, and the position queries
// behind completion, hover, definition, references, symbols and code actions. Everything here is in
// core terms (RelPath, 0-based UTF-16 Range); server/ only translates to LSP.
// deps: core, parse (through load.ts), validate, service helpers. Never imports platform or server.
import { tagCatalogue } from '../core/tags.js';
import { firstFreeId } from './shared/entry-id.js';
import { DiagnosticCode, compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import { ENTRY_TYPES, type DocKind, type MemoryDoc } from '../core/document.js';
import { contentHash } from '../core/hash.js';
import { classify } from '../core/layout.js';
import { resolveLink, isExternalTarget } from '../core/links.js';
import { resolveRelative, slugOf, toRelPath, tryRelPath, type RelPath } from '../core/paths.js';
import type { MemoryFs } from '../core/ports.js';
import { LineIndex, range, type Position, type Range } from '../core/position.js';
import { decodeText } from '../core/text.js';
import { MemoryWorkspace } from '../core/workspace.js';
import { tokenize } from '../indexes/tokenize.js';
import { SCHEMAS } from '../validate/schema.js';
import { validateWorkspace } from '../validate/validate.js';
import { validateStateDocs } from '../continuity/validate-state.js';
import { parseFiles, readWorkspace } from '../engine/load.js';
import type { Memory } from './memory.js';
import { normaliseForDedupe, slugify, titleFrom, tokenJaccard } from './shared/text-utils.js';
import { secretsInWrite } from '../core/secrets.js';
import { renderWithFrontMatter } from '../parse/serialize.js';
import { conflictDiagnostics, truthActions } from './truth-actions.js';

/** Code of the editor-only finding "this entry repeats another one" (see {@link EditorModel.diagnostics}). */
export const NEAR_DUPLICATE = DiagnosticCode.nearDuplicate;

/** Something a position in a memory file refers to. */
export type Target =
  | { readonly kind: 'id'; readonly id: string; readonly range: Range; readonly docs: readonly MemoryDoc[] }
  | {
      readonly kind: 'path';
      readonly path: RelPath | undefined;
      readonly target: string;
      readonly range: Range;
      readonly docs: readonly MemoryDoc[];
    };

/** A completion proposal, in core terms. `range` is the text it replaces. */
export interface CompletionEntry {
  readonly label: string;
  readonly kind: 'enum' | 'tag' | 'id' | 'file' | 'key';
  readonly detail?: string;
  readonly documentation?: string;
  readonly insertText?: string;
  readonly range: Range;
  readonly sortText?: string;
}

export interface CompletionAnswer {
  readonly items: readonly CompletionEntry[];
  /** More would match a longer prefix (file paths are capped). */
  readonly incomplete: boolean;
}

/** A text edit in a workspace file. */
export interface FileEdit {
  readonly path: RelPath;
  readonly range: Range;
  readonly newText: string;
}

/** A code action in core terms: edits, and optionally a file to create first. */
export interface EditorAction {
  readonly title: string;
  readonly kind: 'quickfix' | 'refactor';
  readonly diagnostic?: Diagnostic;
  readonly isPreferred?: boolean;
  readonly create?: { readonly path: RelPath; readonly text: string };
  readonly edits: readonly FileEdit[];
}

/** A heading tree node for document symbols. */
export interface HeadingSymbol {
  readonly name: string;
  readonly depth: number;
  /** From the heading to the line before the next heading of the same or a higher level. */
  readonly range: Range;
  readonly selectionRange: Range;
  readonly children: HeadingSymbol[];
}

/** What a hover shows about one memory document. */
export interface DocPreview {
  readonly path: RelPath;
  readonly kind: DocKind;
  readonly id?: string;
  readonly title?: string;
  readonly type?: string;
  readonly tags: readonly string[];
  readonly status?: string;
  readonly created?: string;
  /** `source:` front-matter (agent, session, task, origin). */
  readonly source: Readonly<Record<string, string>>;
  readonly duplicateOf?: string;
  /** First lines of the body (markdown). */
  readonly excerpt: string;
}

type Cancel = () => boolean;
const never: Cancel = () => false;

/**
 * A live, incrementally updated parse of the workspace for one editor session. Reads go through
 * the Memory's file system (the overlay), so open buffers win over the disk.
 */
export class EditorModel {
  readonly #memory: Memory;
  readonly #fs: MemoryFs;
  #ws = new MemoryWorkspace();
  /** Every file under the root (memory or not): relative-link checks and `files:` completion. */
  #files = new Set<string>();
  #fileList: string[] | undefined;
  /** Per-file findings that are not about parsed content (binary, too large, invalid UTF-8). */
  readonly #fileDiags = new Map<RelPath, Diagnostic[]>();
  readonly #tokens = new WeakMap<MemoryDoc, Set<string>>();
  #loaded = false;

  readonly #now: () => Date;

  /** `now` dates the CURRENT_STATE staleness check (default: the system clock). */
  constructor(memory: Memory, fs: MemoryFs, now: () => Date = () => new Date()) {
    this.#memory = memory;
    this.#fs = fs;
    this.#now = now;
  }

  /** True once {@link load} finished. */
  get loaded(): boolean {
    return this.#loaded;
  }

  get workspace(): MemoryWorkspace {
    return this.#ws;
  }

  /** Read and parse every memory file, and list every file of the root. */
  async load(onProgress?: (done: number, total: number) => void): Promise<void> {
    const raw = await readWorkspace(this.#fs, this.#memory.loaded, { ...(onProgress ? { onProgress } : {}) });
    // The Memory's own parse (its cache is warm after an index build), not a second parse here.
    const ws = await this.#memory.workspace();
    this.#fileDiags.clear();
    for (const d of raw.fileDiagnostics) this.#fileDiags.set(d.path, [...(this.#fileDiags.get(d.path) ?? []), d]);
    this.#ws = ws;
    await this.refreshFileList();
    this.#loaded = true;
  }

  /** Re-list the files of the root (after creates and deletes of non-memory files). */
  async refreshFileList(): Promise<void> {
    const all = await this.#fs.list(() => true);
    this.#files = new Set(all);
    this.#fileList = undefined;
  }

  /** @returns the memory kind of `path`, or undefined when it is not memory. */
  kindOf(path: string): DocKind | undefined {
    return classify(path, this.#memory.loaded.layout);
  }

  /** @returns the parsed document, or undefined. */
  doc(path: RelPath): MemoryDoc | undefined {
    return this.#ws.tryGet(path);
  }

  /**
   * Replace `path`'s text (an editor buffer or a fresh disk read).
   * @returns `changed` false when the text hashes the same as before, and the documents whose
   * diagnostics may have changed (the document itself plus the ones whose links or ids involve it).
   */
  update(path: RelPath, text: string): { changed: boolean; affected: RelPath[] } {
    const kind = this.kindOf(path);
    this.#files.add(path);
    if (!kind) return { changed: false, affected: [] };
    const old = this.#ws.tryGet(path);
    const hash = contentHash(text);
    if (old && old.contentHash === hash && !this.#fileDiags.has(path)) return { changed: false, affected: [path] };
    this.#fileDiags.delete(path);
    const doc = parseFiles([{ path, kind, text, hash }], this.#memory.config).tryGet(path);
    if (!doc) return { changed: false, affected: [] };
    this.#ws = this.#ws.withDoc(doc).workspace;
    const sameSupersedes = (old?.meta.supersedes ?? []).join('\n') === (doc.meta.supersedes ?? []).join('\n');
    const affected =
      old && old.meta.id === doc.meta.id && old.kind === doc.kind && sameSupersedes
        ? [path]
        : this.#related(path, [
            old?.meta.id,
            doc.meta.id,
            ...(old?.meta.supersedes ?? []),
            ...(doc.meta.supersedes ?? []),
          ]);
    return { changed: true, affected };
  }

  /** Read `path` from the file system (the overlay) and {@link update} or {@link remove} it. */
  async reload(path: RelPath): Promise<{ changed: boolean; affected: RelPath[] }> {
    const bytes = await this.#fs.read(path).catch(() => undefined);
    if (!bytes) return this.remove(path);
    this.#files.add(path);
    const kind = this.kindOf(path);
    if (!kind) return { changed: false, affected: [] };
    const dec = decodeText(bytes);
    if (dec.problem === 'binary' || bytes.length > this.#memory.config.limits.maxFileBytes) {
      const res = this.remove(path);
      this.#files.add(path);
      const message =
        dec.problem === 'binary'
          ? 'file holds binary data (NUL bytes) though it is named .md; not indexed'
          : `file is ${bytes.length} bytes, over the ${this.#memory.config.limits.maxFileBytes}-byte cap (limits.maxFileBytes); not indexed`;
      const code = dec.problem === 'binary' ? DiagnosticCode.binaryFile : DiagnosticCode.fileTooLarge;
      this.#fileDiags.set(path, [{ path, range: range(0, 0, 0, 0), severity: 'warning', code, message }]);
      return { changed: true, affected: [...new Set([...res.affected, path])] };
    }
    return this.update(path, dec.text);
  }

  /** Drop `path` (deleted on disk). @returns the documents whose diagnostics may change. */
  remove(path: RelPath): { changed: boolean; affected: RelPath[] } {
    this.#files.delete(path);
    this.#fileList = undefined;
    const had = this.#fileDiags.delete(path);
    const old = this.#ws.tryGet(path);
    if (!old) return { changed: had, affected: had ? [path] : [] };
    this.#ws = this.#ws.withoutDoc(path).workspace;
    return { changed: true, affected: [...new Set([path, ...this.#related(path, [old.meta.id])])] };
  }

  /** A non-memory file appeared or vanished. */
  touchFile(path: RelPath, exists: boolean): void {
    if (exists) this.#files.add(path);
    else this.#files.delete(path);
    this.#fileList = undefined;
  }

  /** `path` plus every document whose id, wiki links or relative links involve `path` or `ids`. */
  #related(path: RelPath, ids: readonly (string | undefined)[]): RelPath[] {
    const names = new Set<string>([
      slugOf(path).toLowerCase(),
      path.toLowerCase(),
      path.replace(/\.md$/i, '').toLowerCase(),
    ]);
    for (const id of ids) if (id) names.add(id.toLowerCase());
    const out = new Set<RelPath>([path]);
    for (const d of this.#ws.docs()) {
      if (d.meta.id && names.has(d.meta.id.toLowerCase())) out.add(d.path);
      if (d.meta.supersedes?.some((x) => names.has(x.toLowerCase()))) out.add(d.path);
      for (const l of d.links) {
        if (
          l.kind === 'wiki'
            ? names.has(l.target.trim().replace(/\.md$/i, '').toLowerCase())
            : resolveRelative(d.path, l.target) === path
        ) {
          out.add(d.path);
          break;
        }
      }
    }
    return [...out];
  }

  /**
   * Diagnostics of `paths` (default: every memory document and every skipped file), grouped by
   * path; each asked-for path has an entry, empty when clean. Rules see the whole workspace. The
   * near-duplicate check (token Jaccard against entries of the same type, config `dedupe.jaccard`)
   * runs only for the paths in `nearDuplicates` (the open documents): it compares against every
   * entry, too costly for a whole 10,000-file workspace on every save.
   */
  diagnostics(
    paths?: readonly RelPath[],
    nearDuplicates: ReadonlySet<RelPath> = new Set(),
  ): Map<RelPath, Diagnostic[]> {
    const exists = (p: RelPath) => this.#files.has(p) || this.#ws.tryGet(p) !== undefined;
    const wanted = paths ? [...new Set(paths)] : [...this.#ws.docs().map((d) => d.path), ...this.#fileDiags.keys()];
    const out = new Map<RelPath, Diagnostic[]>(wanted.map((p) => [p, []]));
    const found = validateWorkspace(this.#ws, {
      ...(paths ? { paths: wanted.filter((p) => this.#ws.tryGet(p)) } : {}),
      exists,
      today: this.#now().toISOString().slice(0, 10),
      load: this.#memory.config.load,
    });
    // CURRENT_STATE.md schema, staleness and placeholders, as Memory.validate reports them (continuity/).
    const stateDocs = wanted.map((p) => this.#ws.tryGet(p)).filter((d): d is MemoryDoc => d?.kind === 'current_state');
    const state = stateDocs.length
      ? validateStateDocs(stateDocs, { now: this.#now(), staleAfterHours: this.#memory.config.state.staleAfterHours })
      : [];
    for (const d of [...found, ...state]) out.get(d.path)?.push(d);
    for (const p of wanted) {
      const list = out.get(p)!;
      list.push(...(this.#fileDiags.get(p) ?? []));
      if (nearDuplicates.has(p)) list.push(...this.#nearDuplicates(p), ...conflictDiagnostics(this.#ws, p));
      list.sort(compareDiagnostics);
    }
    return out;
  }

  #tokensOf(d: MemoryDoc): Set<string> {
    let s = this.#tokens.get(d);
    if (!s) {
      s = new Set(tokenize(bodyOf(d)));
      this.#tokens.set(d, s);
    }
    return s;
  }

  #nearDuplicates(path: RelPath): Diagnostic[] {
    const doc = this.#ws.tryGet(path);
    if (!doc || doc.kind !== 'entry' || doc.meta.duplicateOf || isRetired(doc)) return [];
    const mine = this.#tokensOf(doc);
    const norm = normaliseForDedupe(bodyOf(doc));
    if (!norm) return [];
    const threshold = this.#memory.config.dedupe.jaccard;
    const out: Diagnostic[] = [];
    for (const other of this.#ws.docs()) {
      if (
        other.path === path ||
        other.kind !== 'entry' ||
        other.meta.type !== doc.meta.type ||
        other.meta.duplicateOf ||
        isRetired(other)
      )
        continue;
      // Only the later one of a pair is flagged (by created date, then path), so exactly one file says "duplicate".
      if (!isLater(doc, other)) continue;
      let similar = normaliseForDedupe(bodyOf(other)) === norm;
      let score = 1;
      if (!similar) {
        const theirs = this.#tokensOf(other);
        let inter = 0;
        for (const t of mine) if (theirs.has(t)) inter++;
        const union = mine.size + theirs.size - inter;
        score = union === 0 ? 1 : inter / union;
        similar = score >= threshold;
      }
      if (!similar) continue;
      const otherId = other.meta.id ?? slugOf(other.path);
      const node = doc.frontMatter?.nodes['/id'];
      out.push({
        path,
        range: node
          ? (node.key ?? node.value)
          : doc.frontMatter?.range
            ? range(doc.frontMatter.range.start.line, 0, doc.frontMatter.range.start.line, 3)
            : range(0, 0, 0, 0),
        severity: 'warning',
        code: NEAR_DUPLICATE,
        message: `this memory repeats ${otherId} (${other.path}; similarity ${score.toFixed(2)}); mark it duplicate_of: ${otherId} or merge them`,
        data: { duplicateOf: otherId, otherPath: other.path, similarity: Number(score.toFixed(3)) },
      });
      if (out.length >= 3) break;
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Position queries

  /** @returns what the text at `pos` refers to: an entry id (`[[id]]`, `id:`, `duplicate_of:`, `supersedes:`) or a relative link. */
  targetAt(path: RelPath, pos: Position): Target | undefined {
    const doc = this.#ws.tryGet(path);
    if (!doc) return undefined;
    for (const l of doc.links) {
      if (!contains(l.range, pos)) continue;
      if (l.kind === 'wiki')
        return { kind: 'id', id: l.target.trim(), range: l.range, docs: resolveLink(l, doc, this.#ws) };
      if (isExternalTarget(l.target)) return undefined;
      const target = resolveRelative(doc.path, l.target);
      const docs = resolveLink(l, doc, this.#ws);
      return { kind: 'path', path: target, target: l.target, range: l.range, docs };
    }
    const fm = doc.frontMatter;
    if (!fm?.data || !contains(fm.range, pos)) return undefined;
    for (const [pointer, node] of Object.entries(fm.nodes)) {
      if (!contains(node.value, pos) || !/^\/(id|duplicate_of|supersedes(\/\d+)?)$/.test(pointer)) continue;
      const value = valueAt(fm.data, pointer);
      if (typeof value !== 'string' || !value) continue;
      return { kind: 'id', id: value, range: node.value, docs: this.#ws.byId(value) };
    }
    return undefined;
  }

  /** A preview of `doc` for hovers. */
  preview(doc: MemoryDoc, maxLines = 8): DocPreview {
    const data = doc.frontMatter?.data ?? {};
    const src =
      data.source && typeof data.source === 'object' && !Array.isArray(data.source)
        ? (data.source as Record<string, unknown>)
        : {};
    const source: Record<string, string> = {};
    for (const [k, v] of Object.entries(src)) if (typeof v === 'string' || typeof v === 'number') source[k] = String(v);
    const body = bodyOf(doc).replace(/^\s*\n/, '');
    const lines = body.split(/\r?\n/);
    const excerpt = lines.slice(0, maxLines).join('\n').trimEnd() + (lines.length > maxLines ? '\n…' : '');
    const created = typeof data.created === 'string' ? data.created : doc.meta.date;
    return {
      path: doc.path,
      kind: doc.kind,
      tags: doc.meta.tags,
      source,
      excerpt,
      ...(doc.meta.id !== undefined ? { id: doc.meta.id } : {}),
      ...(doc.meta.title !== undefined ? { title: doc.meta.title } : {}),
      ...(doc.meta.type !== undefined ? { type: doc.meta.type } : {}),
      ...(doc.meta.status !== undefined ? { status: doc.meta.status } : {}),
      ...(created !== undefined ? { created } : {}),
      ...(doc.meta.duplicateOf !== undefined ? { duplicateOf: doc.meta.duplicateOf } : {}),
    };
  }

  /** Where a target is declared: the `id:` value of each document, or the start of the file. */
  declarationRange(doc: MemoryDoc): Range {
    const node = doc.frontMatter?.nodes['/id'];
    return node ? node.value : range(0, 0, 0, 0);
  }

  /**
   * Every place that refers to the documents in `docs`: `[[links]]` and relative links resolving to
   * them, and `duplicate_of` / `supersedes` values naming their ids.
   */
  references(docs: readonly MemoryDoc[], cancel: Cancel = never): { path: RelPath; range: Range }[] {
    const targets = new Set(docs.map((d) => d.path));
    const ids = new Set(docs.map((d) => d.meta.id).filter((x): x is string => x !== undefined));
    const out: { path: RelPath; range: Range }[] = [];
    for (const d of this.#ws.docs()) {
      if (cancel()) break;
      for (const l of d.links) {
        if (l.kind === 'markdown' && isExternalTarget(l.target)) continue;
        if (resolveLink(l, d, this.#ws).some((t) => targets.has(t.path))) out.push({ path: d.path, range: l.range });
      }
      const fm = d.frontMatter;
      if (!fm?.data) continue;
      for (const [pointer, node] of Object.entries(fm.nodes)) {
        if (!/^\/(duplicate_of|supersedes\/\d+)$/.test(pointer)) continue;
        const v = valueAt(fm.data, pointer);
        if (typeof v === 'string' && ids.has(v)) out.push({ path: d.path, range: node.value });
      }
    }
    return out;
  }

  /** Headings of `path` as a tree. */
  headings(path: RelPath): HeadingSymbol[] {
    const doc = this.#ws.tryGet(path);
    if (!doc) return [];
    const li = new LineIndex(doc.text);
    const lastLine = li.lineCount - 1;
    const roots: HeadingSymbol[] = [];
    const stack: HeadingSymbol[] = [];
    const hs = doc.headings;
    hs.forEach((h, i) => {
      let endLine = lastLine;
      for (let j = i + 1; j < hs.length; j++) {
        if (hs[j]!.depth <= h.depth) {
          endLine = hs[j]!.range.start.line - 1;
          break;
        }
      }
      endLine = Math.max(endLine, h.range.end.line);
      const sym: HeadingSymbol = {
        name: h.text || '(empty heading)',
        depth: h.depth,
        range: range(h.range.start.line, 0, endLine, li.lineText(endLine).length),
        selectionRange: h.range,
        children: [],
      };
      while (stack.length && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
      if (stack.length) stack[stack.length - 1]!.children.push(sym);
      else roots.push(sym);
      stack.push(sym);
    });
    return roots;
  }

  /** Tags in use, most used first. */
  tagCounts(): [string, number][] {
    const counts = new Map<string, number>();
    for (const d of this.#ws.docs()) for (const t of d.meta.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  }

  /** Files that are not memory (code, docs), sorted. */
  codeFiles(): string[] {
    this.#fileList ??= [...this.#files].filter((p) => !this.kindOf(p) && !p.endsWith('gitmem.config.json')).sort();
    return this.#fileList;
  }

  /**
   * Completion at `pos` in `path`: enum values of `type`/`status`/`category`/`relation`, tags in
   * use under `tags`, entry ids inside `[[` and in `duplicate_of`/`supersedes`, code file paths under
   * `files`, and front-matter keys at the start of a front-matter line.
   */
  complete(path: RelPath, pos: Position, cancel: Cancel = never): CompletionAnswer {
    const doc = this.#ws.tryGet(path);
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
          items: this.#idItems(
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
    // Value position of `key: value` on this line (also `- { path: … }` and `relation:` inside files).
    if (keyLine && col >= line.indexOf(':', (keyLine[1] ?? '').length) + 1) {
      const key = keyLine[3]!;
      const valueStart = line.length - keyLine[4]!.length;
      const parent = keyLine[1]!.length > 0 || keyLine[2] ? parentKey(li, pos.line) : undefined;
      return this.#valueItems(
        schema,
        parent ? `${parent}.${key}` : key,
        before.slice(valueStart),
        pos,
        col,
        line,
        cancel,
      );
    }
    // Inline flow list or mapping (`tags: [a, b|`, `- { path: sr|`).
    const flow = /([A-Za-z_][\w-]*)\s*:\s*[[{]?[^:]*$/.exec(before);
    if (flow && (before.includes('[') || before.includes('{'))) {
      const parent = item ? parentKey(li, pos.line) : undefined;
      return this.#valueItems(
        schema,
        parent ? `${parent}.${flow[1]!}` : flow[1]!,
        before.slice(flow.index + flow[0].length - lastToken(before).length),
        pos,
        col,
        line,
        cancel,
      );
    }
    // List item under a key (`tags:` / `files:` / `supersedes:` followed by `  - …`).
    if (item) {
      const parent = parentKey(li, pos.line);
      if (parent)
        return this.#valueItems(
          schema,
          `${parent}[]`,
          item[2]!.slice(0, Math.max(0, col - (line.length - item[2]!.length))),
          pos,
          col,
          line,
          cancel,
        );
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

  #valueItems(
    schema: Readonly<Record<string, unknown>> | undefined,
    key: string,
    typedRaw: string,
    pos: Position,
    col: number,
    line: string,
    cancel: Cancel,
  ): CompletionAnswer {
    const typed = lastToken(typedRaw);
    const start = col - typed.length;
    const r = range(pos.line, start, pos.line, wordEnd(line, col));
    const field = key.replace(/\[\]$/, '').replace(/^files\.(path)$/, 'files');
    const leaf = field.split('.').pop()!;
    if (leaf === 'tags') {
      // Tags in use, then catalogued ones (tags.md) nobody uses yet; descriptions from the catalogue.
      const catalogue = tagCatalogue(this.#ws)?.tags;
      const counts = this.tagCounts();
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
      return { items: this.#idItems(typed, r, '', cancel), incomplete: false };
    if (field === 'files' || key === 'files[]' || field === 'files.path') {
      const lower = typed.toLowerCase();
      const items: CompletionEntry[] = [];
      let incomplete = false;
      for (const f of this.codeFiles()) {
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

  #idItems(typed: string, r: Range, suffix: string, cancel: Cancel): CompletionEntry[] {
    const lower = typed.trim().toLowerCase();
    const out: CompletionEntry[] = [];
    for (const d of this.#ws.docs()) {
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

  // -------------------------------------------------------------------------------------------
  // Code actions

  /**
   * Quick fixes for `diagnostics` of `path` (enum values; mark as duplicate) and, for a list item of
   * a long-term, daily or note file under the cursor, "move into a new entry".
   */
  codeActions(path: RelPath, at: Range, diagnostics: readonly Diagnostic[], now: Date): EditorAction[] {
    const doc = this.#ws.tryGet(path);
    if (!doc) return [];
    const out: EditorAction[] = [];
    for (const d of diagnostics) {
      if (d.code === DiagnosticCode.invalidValue) out.push(...this.#fixEnum(doc, d));
      if (d.code === NEAR_DUPLICATE && typeof d.data?.duplicateOf === 'string') {
        const edit = setFrontMatterKey(doc, 'duplicate_of', d.data.duplicateOf);
        if (edit)
          out.push({
            title: `Mark as duplicate of ${d.data.duplicateOf}`,
            kind: 'quickfix',
            diagnostic: d,
            isPreferred: true,
            edits: [edit],
          });
      }
    }
    const dir = this.#memory.loaded.layout.memoryDir ? `${this.#memory.loaded.layout.memoryDir}/entries` : 'entries';
    out.push(...truthActions(doc, diagnostics, now, this.#ws, dir));
    const move = this.#moveBulletToEntry(doc, at, now);
    if (move) out.push(move);
    return out;
  }

  #fixEnum(doc: MemoryDoc, d: Diagnostic): EditorAction[] {
    const pointer = typeof d.data?.pointer === 'string' ? d.data.pointer : undefined;
    const fm = doc.frontMatter;
    if (pointer === undefined || !fm?.data) return [];
    const node = fm.nodes[pointer];
    if (!node) return [];
    const schema = doc.kind === 'playbook' ? SCHEMAS.playbook : SCHEMAS.entry;
    const values = enumAtPointer(schema, pointer);
    if (!values.length) return [];
    const current = String(valueAt(fm.data, pointer) ?? '');
    const ranked = [...values].sort((a, b) => distance(current, a) - distance(current, b));
    return ranked.map((v, i) => ({
      title: `Change ${pointer.slice(1).replace(/\//g, '.')} to "${v}"`,
      kind: 'quickfix' as const,
      diagnostic: d,
      ...(i === 0 ? { isPreferred: true } : {}),
      edits: [{ path: doc.path, range: node.value, newText: v }],
    }));
  }

  #moveBulletToEntry(doc: MemoryDoc, at: Range, now: Date): EditorAction | undefined {
    if (doc.kind !== 'long_term' && doc.kind !== 'daily' && doc.kind !== 'note') return undefined;
    const li = new LineIndex(doc.text);
    const line = li.lineText(at.start.line);
    const m = /^\s*[-*+]\s+(?:\[[ xX]\]\s+)?(.+)$/.exec(line);
    if (!m || inFrontMatter(doc, li, at.start.line)) return undefined;
    const text = m[1]!.trim();
    // Already an entry: a bullet that is only a link (what this action leaves behind) is not moved again.
    if (/^(?:\[\[[^\]]+\]\][\s,;]*)+$/.test(text)) return undefined;
    // Delete the whole line with its line break (never half of a \r\n pair: LineIndex keeps them whole).
    const startOff = li.offsetAt({ line: at.start.line, character: 0 });
    const endOff =
      at.start.line + 1 < li.lineCount
        ? li.offsetAt({ line: at.start.line + 1, character: 0 })
        : li.lineEnd(at.start.line);
    const linkTo = (id: string) => ({
      path: doc.path,
      range: li.rangeOf(startOff, endOff),
      newText: `${line.slice(0, line.length - m[1]!.length)}[[${id}]]${doc.eol}`,
    });
    // Dedupe as remember does: an entry with the same text already exists → link to it instead.
    const norm = normaliseForDedupe(text);
    const same = this.#ws
      .docs()
      .find(
        (d) =>
          d.kind === 'entry' &&
          d.meta.id !== undefined &&
          (normaliseForDedupe(bodyOf(d)) === norm ||
            tokenJaccard(bodyOf(d), text) >= this.#memory.config.dedupe.jaccard),
      );
    if (same)
      return {
        title: `Replace this bullet with a link to the existing entry ${same.meta.id}`,
        kind: 'refactor',
        edits: [linkTo(same.meta.id!)],
      };
    const title = titleFrom(text);
    const dir = this.#memory.loaded.layout.memoryDir ? `${this.#memory.loaded.layout.memoryDir}/entries` : 'entries';
    const base = `${now.toISOString().slice(0, 10)}-${slugify(title)}`;
    const id = firstFreeId(base, (x) => this.#ws.byId(x).length > 0 || this.#files.has(`${dir}/${x}.md`));
    const target = toRelPath(`${dir}/${id}.md`);
    // The secret guard: a credential is never offered for a new file (name or text).
    if (secretsInWrite(target, text).length > 0) return undefined;
    const created = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
    // The same entry shape remember writes, so it passes `gitmem validate`.
    const entry = renderWithFrontMatter(
      { id, type: 'learning', title, tags: [], created, source: { origin: 'editor' }, status: 'active' },
      `\n${text}\n`,
    );
    return {
      title: `Move this bullet into a new entry (${target})`,
      kind: 'refactor',
      create: { path: target, text: entry },
      edits: [{ path: target, range: range(0, 0, 0, 0), newText: entry }, linkTo(id)],
    };
  }

  /** Summary of every memory document (for the tree view). */
  documents(): { path: RelPath; kind: DocKind; id?: string; title?: string; type?: string }[] {
    return this.#ws.docs().map((d) => ({
      path: d.path,
      kind: d.kind,
      ...(d.meta.id !== undefined && (d.kind === 'entry' || d.kind === 'playbook') ? { id: d.meta.id } : {}),
      ...(d.meta.title !== undefined ? { title: d.meta.title } : {}),
      ...(d.meta.type !== undefined ? { type: d.meta.type } : {}),
    }));
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function contains(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const beforeEnd = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return afterStart && beforeEnd;
}

function isRetired(d: MemoryDoc): boolean {
  return d.meta.status === 'superseded' || d.meta.status === 'archived';
}

/** Later by created date, then by path: decides which one of a duplicate pair is reported. */
function isLater(a: MemoryDoc, b: MemoryDoc): boolean {
  const da = a.meta.date ?? '';
  const db = b.meta.date ?? '';
  return da !== db ? da > db : a.path > b.path;
}

/** Text after the front-matter block. */
export function bodyOf(d: MemoryDoc): string {
  if (!d.frontMatter) return d.text;
  return d.text.slice(new LineIndex(d.text).offsetAt(d.frontMatter.range.end));
}

function inFrontMatter(doc: MemoryDoc, li: LineIndex, line: number): boolean {
  const fm = doc.frontMatter;
  if (fm) return line > fm.range.start.line && line < fm.range.end.line;
  // While typing, the block may not parse yet: an opening `---` on line 0 and no closing one above.
  if (li.lineText(0).trimEnd() !== '---' || line === 0) return false;
  for (let l = 1; l < line; l++) if (/^(---|\.\.\.)\s*$/.test(li.lineText(l))) return false;
  return true;
}

/** The unindented key a nested line belongs to (`files` for `  - path: x`). */
function parentKey(li: LineIndex, line: number): string | undefined {
  for (let l = line - 1; l >= 0; l--) {
    const t = li.lineText(l);
    const m = /^([A-Za-z_][\w-]*)\s*:/.exec(t);
    if (m) return m[1];
    if (/^---/.test(t)) return undefined;
  }
  return undefined;
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

function valueAt(data: Readonly<Record<string, unknown>>, pointer: string): unknown {
  let cur: unknown = data;
  for (const part of pointer.split('/').slice(1)) {
    const k = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[k];
    else return undefined;
  }
  return cur;
}

type Schema = Readonly<Record<string, unknown>>;

function deref(root: Schema, s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  const ref = s.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
    const defs = (root.definitions ?? {}) as Record<string, Schema>;
    return deref(root, defs[ref.slice('#/definitions/'.length)]);
  }
  return s;
}

/** Enum values of the schema node at a JSON pointer (`/type`, `/files/0/relation`). */
export function enumAtPointer(root: Schema, pointer: string): string[] {
  let node: Schema | undefined = root;
  for (const part of pointer.split('/').slice(1)) {
    node = deref(root, node);
    if (!node) return [];
    if (/^\d+$/.test(part)) node = node.items as Schema | undefined;
    else {
      const props = (node.properties ??
        ((node.else as Schema | undefined)?.properties as Schema | undefined) ??
        {}) as Record<string, Schema>;
      node = props[part];
    }
  }
  node = deref(root, node);
  const values = node?.enum;
  return Array.isArray(values) ? values.map(String) : [];
}

function enumValues(schema: Schema | undefined, field: string, leaf: string): string[] {
  if (field === 'type' && (!schema || schema === SCHEMAS.entry)) return [...ENTRY_TYPES];
  if (!schema) return [];
  const pointer = `/${field
    .split('.')
    .map((p, i, all) => (i < all.length - 1 ? `${p}/0` : p))
    .join('/')}`;
  const direct = enumAtPointer(schema, pointer);
  if (direct.length) return direct;
  return leaf === 'relation' ? enumAtPointer(schema, '/files/0/relation') : [];
}

/** Levenshtein distance (small strings only: enum values). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const prev = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (x[i - 1] === y[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  // Prefix and containment matches first ("decison" → decision, "fix" → error_fix).
  return prev[y.length]! - (y.includes(x) || x.includes(y) ? 100 : 0);
}

/**
 * An edit that sets `key: value` in the front-matter of `doc`: replaces the value when the key
 * exists, else inserts a line before the closing delimiter, in the file's own line-ending style.
 */
export function setFrontMatterKey(doc: MemoryDoc, key: string, value: string): FileEdit | undefined {
  const fm = doc.frontMatter;
  if (!fm || fm.language !== 'yaml') return undefined;
  const node = fm.nodes[`/${key}`];
  if (node) return { path: doc.path, range: node.value, newText: value };
  const closing = fm.range.end.line; // the closing `---` line: insert before it
  return { path: doc.path, range: range(closing, 0, closing, 0), newText: `${key}: ${value}${doc.eol}` };
}

/** @returns a {@link RelPath} for a path inside the root, or undefined. */
export function relPathOf(root: string, absolute: string): RelPath | undefined {
  const r = root.replace(/[\\/]+$/, '');
  const a = absolute.replace(/\\/g, '/');
  const rr = r.replace(/\\/g, '/');
  if (!a.startsWith(`${rr}/`)) return undefined;
  return tryRelPath(a.slice(rr.length + 1));
}
