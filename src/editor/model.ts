// The editor's view of the memory: a parsed workspace kept current document by document (open
// buffers through the overlay, file events from disk) and the files of the root. The features
// (diagnostics.ts, navigation.ts, hover.ts, symbols.ts, completion.ts, code-actions.ts) read it
// through EditorView; everything is in core terms (RelPath, 0-based UTF-16 Range), and server/ only
// translates to LSP. deps: core, service (load, Memory). Never imports platform or server.
import type { MemoryConfig } from '../core/config.js';
import { DiagnosticCode, type Diagnostic } from '../core/diagnostics.js';
import type { DocKind, MemoryDoc } from '../core/document.js';
import { contentHash } from '../core/hash.js';
import { classify, type Layout } from '../core/layout.js';
import type { RelPath } from '../core/paths.js';
import type { MemoryFs } from '../core/ports.js';
import { range } from '../core/position.js';
import { decodeText } from '../core/text.js';
import { MemoryWorkspace } from '../core/workspace.js';
import { readWorkspace } from '../engine/load/load.js';
import { affectedPaths } from '../validate/validate.js';
import type { Memory } from '../service/memory.js';
import { CodeChecks } from './code-checks.js';
import type { EditorView } from './types.js';

/** One buffer parsed by {@link EditorModel.settle}: {@link EditorModel.update}'s answer, or the error it threw. */
export interface SettledUpdate {
  readonly path: RelPath;
  readonly text: string;
  readonly changed: boolean;
  readonly affected: RelPath[];
  readonly error?: unknown;
}

/**
 * A live, incrementally updated parse of the workspace for one editor session. Reads go through
 * the Memory's file system (the overlay), so open buffers win over the disk.
 */
export class EditorModel implements EditorView {
  readonly #memory: Memory;
  readonly #fs: MemoryFs;
  #ws = new MemoryWorkspace();
  /** Every file under the root (memory or not): relative-link checks and `files:` completion. */
  #files = new Set<string>();
  #fileList: string[] | undefined;
  /** Per-file findings that are not about parsed content (binary, too large, invalid UTF-8). */
  readonly #fileDiags = new Map<RelPath, Diagnostic[]>();
  #loaded = false;
  /** Editor buffers recorded by {@link defer} and not parsed yet (path → latest text). */
  readonly #deferred = new Map<RelPath, string>();
  #settling = false;
  #onSettle: ((updates: readonly SettledUpdate[]) => void) | undefined;

  readonly #now: () => Date;
  /** The last code-check answers of open documents (the stale-code diagnostics). */
  readonly codeChecks = new CodeChecks();

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
    this.settle();
    return this.#ws;
  }

  /**
   * Record an editor buffer's text without parsing it: a burst of keystrokes is parsed once, by
   * {@link settle} (the caller's quiet timer) or by the next read of the model, whichever is first.
   */
  defer(path: RelPath, text: string): void {
    this.#deferred.set(path, text);
  }

  /** Called with what each {@link settle} parsed (the server publishes and queues index updates). */
  onSettle(listener: (updates: readonly SettledUpdate[]) => void): void {
    this.#onSettle = listener;
  }

  /** Parse the deferred buffers now ({@link update} each); then tell the {@link onSettle} listener. */
  settle(): void {
    if (this.#deferred.size === 0 || this.#settling) return;
    this.#settling = true;
    const done: SettledUpdate[] = [];
    try {
      const batch = [...this.#deferred];
      this.#deferred.clear();
      for (const [path, text] of batch) {
        try {
          done.push({ path, text, ...this.#update(path, text) });
        } catch (error) {
          done.push({ path, text, changed: false, affected: [], error });
        }
      }
    } finally {
      this.#settling = false;
    }
    this.#onSettle?.(done);
  }

  /** Read and parse every memory file, and list every file of the root. */
  async load(onProgress?: (done: number, total: number) => void): Promise<void> {
    const raw = await readWorkspace(this.#fs, this.#memory.loaded, { ...(onProgress ? { onProgress } : {}) });
    // The Memory's own parse (its cache is warm after an index build), not a second parse here.
    const ws = await this.#memory.context.workspace();
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
    return this.workspace.tryGet(path);
  }

  /**
   * Replace `path`'s text (an editor buffer or a fresh disk read).
   * @returns `changed` false when the text hashes the same as before, and the documents whose
   * diagnostics may have changed (validate/validate.ts `affectedPaths`: the document itself, plus the ones
   * whose links, ids or `supersedes:` involve it when its kind, id or `supersedes:` changed).
   */
  update(path: RelPath, text: string): { changed: boolean; affected: RelPath[] } {
    this.#deferred.delete(path);
    return this.#update(path, text);
  }

  #update(path: RelPath, text: string): { changed: boolean; affected: RelPath[] } {
    const kind = this.kindOf(path);
    this.#files.add(path);
    if (!kind) return { changed: false, affected: [] };
    // An open buffer meets the same gate as a disk read (B34): over the size cap or binary, it is
    // not parsed (parsing a multi-megabyte buffer on every keystroke stalls the server).
    const problem = bufferProblem(text, this.#memory.config.limits.maxFileBytes);
    if (problem) return this.#skip(path, problem.binary, problem.bytes);
    const old = this.#ws.tryGet(path);
    const hash = contentHash(text);
    if (old && old.contentHash === hash && !this.#fileDiags.has(path)) return { changed: false, affected: [path] };
    this.#fileDiags.delete(path);
    // The Memory's parse cache: the index update that follows this edit or save reuses this parse.
    const doc = this.#memory.parse({ path, kind, text, hash });
    const before = this.#ws;
    this.#ws = this.#ws.withDoc(doc);
    return { changed: true, affected: affectedPaths(before, this.#ws, [path]) };
  }

  /** Read `path` from the file system (the overlay) and {@link update} or {@link remove} it. */
  async reload(path: RelPath): Promise<{ changed: boolean; affected: RelPath[] }> {
    this.#deferred.delete(path); // the file system (the overlay) has the latest text
    const bytes = await this.#fs.read(path).catch(() => undefined);
    if (!bytes) return this.remove(path);
    this.#files.add(path);
    const kind = this.kindOf(path);
    if (!kind) return { changed: false, affected: [] };
    const dec = decodeText(bytes);
    if (dec.problem === 'binary' || bytes.length > this.#memory.config.limits.maxFileBytes)
      return this.#skip(path, dec.problem === 'binary', bytes.length);
    return this.#update(path, dec.text);
  }

  /** Drop `path` from the parse and record why (binary, or `bytes` over the size cap). */
  #skip(path: RelPath, binary: boolean, bytes: number): { changed: boolean; affected: RelPath[] } {
    const had = this.#fileDiags.get(path)?.[0];
    const res = this.remove(path);
    this.#files.add(path);
    const message = binary
      ? 'file holds binary data (NUL bytes) though it is named .md; not indexed'
      : `file is ${bytes} bytes, over the ${this.#memory.config.limits.maxFileBytes}-byte cap (limits.maxFileBytes); not indexed`;
    const code = binary ? DiagnosticCode.binaryFile : DiagnosticCode.fileTooLarge;
    this.#fileDiags.set(path, [{ path, range: range(0, 0, 0, 0), severity: 'warning', code, message }]);
    const same = had?.code === code && had.message === message && !res.changed;
    return { changed: !same, affected: [...new Set([...res.affected, path])] };
  }

  /** Drop `path` (deleted on disk). @returns the documents whose diagnostics may change. */
  remove(path: RelPath): { changed: boolean; affected: RelPath[] } {
    this.#deferred.delete(path);
    this.#files.delete(path);
    this.#fileList = undefined;
    const had = this.#fileDiags.delete(path);
    const old = this.#ws.tryGet(path);
    if (!old) return { changed: had, affected: had ? [path] : [] };
    const before = this.#ws;
    this.#ws = this.#ws.withoutDoc(path);
    return { changed: true, affected: [path, ...affectedPaths(before, this.#ws, [path])] };
  }

  /** A non-memory file appeared or vanished. */
  touchFile(path: RelPath, exists: boolean): void {
    if (exists) this.#files.add(path);
    else this.#files.delete(path);
    this.#fileList = undefined;
  }

  get config(): MemoryConfig {
    return this.#memory.config;
  }

  get layout(): Layout {
    return this.#memory.loaded.layout;
  }

  /** The vectors the index stores (the Memory's semantic half), read synchronously; none without a model. */
  get vectors(): EditorView['vectors'] {
    return this.#memory.context.semantic;
  }

  /** Per-file findings that are not about parsed content (binary, too large, invalid UTF-8). */
  get fileDiagnostics(): ReadonlyMap<RelPath, readonly Diagnostic[]> {
    this.settle();
    return this.#fileDiags;
  }

  now(): Date {
    return this.#now();
  }

  hasFile(path: string): boolean {
    this.settle();
    return this.#files.has(path);
  }

  /** Files that are not memory (code, docs), sorted. */
  codeFiles(): string[] {
    this.settle();
    this.#fileList ??= [...this.#files].filter((p) => !this.kindOf(p) && !p.endsWith('gitmem.config.json')).sort();
    return this.#fileList;
  }
}

const utf8 = new TextEncoder();
/** Bytes {@link decodeText} probes for NUL (a buffer with NUL there is binary, as on disk). */
const BINARY_PROBE_BYTES = 8192;

/**
 * The disk gate applied to editor text: `binary` when a NUL falls in the first 8 KiB of its UTF-8
 * bytes, else `bytes` (its UTF-8 length) when over `cap`; undefined when the text may be parsed.
 * Encodes only when the UTF-16 length leaves the answer open.
 */
function bufferProblem(text: string, cap: number): { binary: boolean; bytes: number } | undefined {
  const nul = text.indexOf('\u0000');
  if (nul >= 0 && nul < BINARY_PROBE_BYTES && utf8.encode(text.slice(0, nul)).length < BINARY_PROBE_BYTES)
    return { binary: true, bytes: 0 };
  // UTF-8 takes 1 to 3 bytes per UTF-16 unit.
  if (text.length * 3 <= cap) return undefined;
  const bytes = utf8.encode(text).length;
  return bytes > cap ? { binary: false, bytes } : undefined;
}
