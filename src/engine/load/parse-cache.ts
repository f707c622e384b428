// Raw files (engine/load/load.ts reads them) → parsed MemoryDocs and a workspace: the one place a file's
// text becomes a MemoryDoc for the index and the editor, through DocCache, the bounded cache of
// parsed documents by path, kind and content hash. Never throws on user content.
// deps: core (config, document, workspace), parse (lazy), engine (load: RawFile).
import type { MemoryConfig } from '../../core/config.js';
import type { DocKind, MemoryDoc } from '../../core/document.js';
import { MemoryWorkspace } from '../../core/workspace.js';
import { heavyParse } from '../../parse/lazy.js';
import type { RawFile } from './load.js';

/**
 * Parse raw files into a workspace. Never throws on user content. With a {@link DocCache}, a file
 * whose path, kind and content hash are unchanged is not parsed again (MemoryDocs are immutable).
 */
export function parseFiles(files: readonly RawFile[], config: MemoryConfig, cache?: DocCache): MemoryWorkspace {
  const docs = files.map((f) => parseCached(f, config, cache));
  cache?.retain(files);
  return new MemoryWorkspace(docs);
}

/**
 * Parse one raw file, through `cache` when given: the cached document when its path, kind and
 * content hash match, else a fresh parse that is then cached (unless `keep` is false: a full
 * rebuild reads the cache but does not fill it with every document of the workspace). The one place
 * a file's text becomes a MemoryDoc for the index and the editor. Never throws on user content.
 */
export function parseCached(f: RawFile, config: MemoryConfig, cache?: DocCache, keep = true): MemoryDoc {
  const hit = cache?.get(f);
  if (hit) return hit;
  const doc = heavyParse().parseDocument({ path: f.path, kind: f.kind, text: f.text, chunking: config.chunking });
  if (keep) cache?.set(f, doc);
  return doc;
}

/**
 * Parsed documents of one Memory, keyed by path and checked by kind + content hash. Bounded: at
 * most `maxChars` UTF-16 code units of document text are kept (least recently used go first), so a
 * build over a large workspace does not hold every parsed document.
 */
export class DocCache {
  readonly #docs = new Map<string, { kind: DocKind; hash: string; doc: MemoryDoc }>();
  readonly #maxChars: number;
  #chars = 0;

  /** @param maxChars text kept, in UTF-16 code units (default 16 Mi). */
  constructor(maxChars = 16 * 1024 * 1024) {
    this.#maxChars = maxChars;
  }

  /** Documents held now. */
  get size(): number {
    return this.#docs.size;
  }

  /**
   * @returns the cached doc, or undefined when the file is new or changed. Only the path, kind and
   * content hash are compared: a caller that knows a file's hash without its text (the index's
   * record of a file whose stat key is unchanged) asks with those.
   */
  get(f: Pick<RawFile, 'path' | 'kind' | 'hash'>): MemoryDoc | undefined {
    const e = this.#docs.get(f.path);
    if (!e || e.kind !== f.kind || e.hash !== f.hash) return undefined;
    this.#docs.delete(f.path);
    this.#docs.set(f.path, e);
    return e.doc;
  }

  set(f: RawFile, doc: MemoryDoc): void {
    this.#drop(f.path);
    if (doc.text.length > this.#maxChars) return;
    this.#docs.set(f.path, { kind: f.kind, hash: f.hash, doc });
    this.#chars += doc.text.length;
    for (const p of this.#docs.keys()) {
      if (this.#chars <= this.#maxChars) break;
      this.#drop(p);
    }
  }

  /** Drop entries for paths not in `files` (deleted files). */
  retain(files: readonly RawFile[]): void {
    if (this.#docs.size <= files.length) return;
    const keep = new Set(files.map((f) => f.path as string));
    for (const p of [...this.#docs.keys()]) if (!keep.has(p)) this.#drop(p);
  }

  #drop(path: string): void {
    const e = this.#docs.get(path);
    if (!e) return;
    this.#docs.delete(path);
    this.#chars -= e.doc.text.length;
  }
}
