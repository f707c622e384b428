// Immutable set of parsed documents; ids resolve to documents. Ids, names and paths are looked up in
// Unicode NFC, so a name written decomposed (NFD, as macOS tools write file names) and the same name
// typed composed are one name (docs/bad-inputs.md B54). Imports only core.
import type { MemoryDoc } from './document.js';
import { slugOf, type RelPath } from './paths.js';

/** An immutable snapshot of the memory documents, keyed by path. */
export class MemoryWorkspace {
  readonly #docs: ReadonlyMap<RelPath, MemoryDoc>;
  #byId: Map<string, MemoryDoc[]> | undefined;
  #sorted: MemoryDoc[] | undefined;
  #byName: Map<string, MemoryDoc[]> | undefined;
  #byNfcPath: Map<string, MemoryDoc> | undefined;

  constructor(docs: Iterable<MemoryDoc> = []) {
    const m = new Map<RelPath, MemoryDoc>();
    for (const d of docs) m.set(d.path, d);
    this.#docs = m;
  }

  get size(): number {
    return this.#docs.size;
  }

  /** Documents sorted by path (sorted once per snapshot; each call gets its own array). */
  docs(): MemoryDoc[] {
    this.#sorted ??= [...this.#docs.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return this.#sorted.slice();
  }

  /**
   * Documents a wiki target names by file (`[[Note]]`, `[[notes/Note]]`): those whose file name
   * without `.md`, or whose path without `.md`, equals `name` ignoring case; in path order. Indexed
   * once per snapshot: a workspace of links that name no id resolved each by a scan of every file.
   */
  byName(name: string): readonly MemoryDoc[] {
    if (!this.#byName) {
      const m = new Map<string, MemoryDoc[]>();
      const add = (key: string, d: MemoryDoc) => {
        const list = m.get(key);
        if (!list) m.set(key, [d]);
        else if (list[list.length - 1] !== d) list.push(d);
      };
      for (const d of this.docs()) {
        add(nfc(slugOf(d.path)).toLowerCase(), d);
        const lower = nfc(d.path).toLowerCase();
        if (lower.endsWith('.md')) add(lower.slice(0, -3), d);
      }
      this.#byName = m;
    }
    return this.#byName.get(nfc(name).toLowerCase()) ?? [];
  }

  /**
   * Documents whose id or file name (without `.md`) equals `name` once case is ignored and every run
   * of spaces, `_` and `-` is read as one `-` (`Reply_To_Current` ~ `reply-to-current` ~ `Reply To
   * Current`). Not a resolution (editors link by the exact name): what a link that names nothing
   * probably meant. Indexed once per snapshot.
   */
  byLooseName(name: string): readonly MemoryDoc[] {
    if (!this.#byLoose) {
      const m = new Map<string, MemoryDoc[]>();
      for (const d of this.docs()) {
        const keys = new Set([looseName(slugOf(d.path)), ...(d.meta.id ? [looseName(d.meta.id)] : [])]);
        for (const k of keys) m.set(k, [...(m.get(k) ?? []), d]);
      }
      this.#byLoose = m;
    }
    return this.#byLoose.get(looseName(name)) ?? [];
  }

  #byLoose: Map<string, MemoryDoc[]> | undefined;

  /**
   * @returns the document at `path`, else the one whose path is `path` in NFC (a link or a path typed
   *   composed to a file named decomposed), or undefined when neither is in the workspace.
   */
  tryGet(path: RelPath): MemoryDoc | undefined {
    const exact = this.#docs.get(path);
    if (exact || !NON_ASCII.test(path)) return exact;
    if (!this.#byNfcPath) {
      const m = new Map<string, MemoryDoc>();
      for (const d of this.docs()) if (NON_ASCII.test(d.path) && !m.has(nfc(d.path))) m.set(nfc(d.path), d);
      this.#byNfcPath = m;
    }
    return this.#byNfcPath.get(nfc(path));
  }

  /** Every document that declares `id` (entries and playbook entries). Several means a duplicate id. */
  byId(id: string): readonly MemoryDoc[] {
    if (!this.#byId) {
      const m = new Map<string, MemoryDoc[]>();
      for (const d of this.#docs.values()) {
        if (d.meta.id === undefined || (d.kind !== 'entry' && d.kind !== 'playbook')) continue;
        const key = nfc(d.meta.id);
        const list = m.get(key) ?? [];
        list.push(d);
        m.set(key, list);
      }
      this.#byId = m;
    }
    return this.#byId.get(nfc(id)) ?? [];
  }

  /** @returns a new workspace with `doc` added or replaced. */
  withDoc(doc: MemoryDoc): MemoryWorkspace {
    const next = new Map(this.#docs);
    next.set(doc.path, doc);
    return new MemoryWorkspace(next.values());
  }

  /** @returns a new workspace without `path` (this one when it was absent). */
  withoutDoc(path: RelPath): MemoryWorkspace {
    if (!this.#docs.has(path)) return this;
    const next = new Map(this.#docs);
    next.delete(path);
    return new MemoryWorkspace(next.values());
  }
}

// NFC changes only text holding a character from U+00A0 up (C1 controls and ASCII are stable).
const NON_ASCII = /[\u00a0-\uffff]/;

/**
 * The form in which two ids, names or paths are compared: Unicode NFC (ASCII as it is, without the
 * call). Every comparison of an id with an id list (`supersedes`, `compatible_with`) uses it too
 * (docs/bad-inputs.md B54, B55).
 */
export function idKey(s: string): string {
  return NON_ASCII.test(s) ? s.normalize('NFC') : s;
}

/**
 * Paths that are one name in {@link idKey} form (NFC) but are spelled differently (NFC and NFD, as
 * macOS tools write names): each group sorted, groups sorted by their first path (R35).
 */
export function sameNameGroups(paths: Iterable<string>): string[][] {
  const byKey = new Map<string, Set<string>>();
  for (const p of paths) {
    if (!NON_ASCII.test(p)) continue; // ASCII: one spelling only
    const key = idKey(p);
    const set = byKey.get(key) ?? new Set<string>();
    set.add(p);
    byKey.set(key, set);
  }
  return [...byKey.values()]
    .filter((s) => s.size > 1)
    .map((s) => [...s].sort())
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** Does `list` name `id` (in {@link idKey} form)? */
export function namesId(list: readonly string[] | undefined, id: string | undefined): boolean {
  if (!list?.length || id === undefined) return false;
  const key = idKey(id);
  return list.some((x) => idKey(x) === key);
}

const nfc = idKey;

/** `name` in NFC, lower-cased, every run of spaces, `_` and `-` one `-`, none at either end. */
function looseName(name: string): string {
  return nfc(name)
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .replace(/^-|-$/g, '');
}
