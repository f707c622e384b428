// The `file` backend: the layout's long-term file on disk, atomic writes, get and a simple local
// search over the layered files. No index. deps: core, backends (project-files, local-search).
import type { LayoutName } from '../core/layout.js';
import { searchProjectMemory } from './local-search.js';
import {
  longTermPath,
  openProjectWorkspace,
  readProjectMemoryWindow,
  readText,
  writeChecked,
} from './project-files.js';
import type {
  MemoryBackend,
  MemoryBackendCapabilities,
  MemoryGetOptions,
  MemoryGetResult,
  MemoryReadResult,
  MemorySearchOptions,
  MemorySearchResult,
  MemoryWriteResult,
} from './types.js';

/** Options of {@link FileMemoryBackend} (and of the backends built on it). */
export interface FileMemoryBackendOptions {
  /** Force a layout for every root (default: config `layout`, else detected per root). */
  readonly layout?: LayoutName;
}

/**
 * Long-term memory as one markdown file per workspace (`.fusion/memory/MEMORY.md`, `memory/MEMORY.md`
 * or root `MEMORY.md`, by layout). `get` and `search` cover the long-term file, DREAMS.md and daily notes.
 */
export class FileMemoryBackend implements MemoryBackend {
  readonly type: string = 'file';
  readonly name: string = 'File (layout long-term MEMORY.md)';
  readonly capabilities: MemoryBackendCapabilities = {
    readable: true,
    writable: true,
    supportsAtomicWrite: true,
    hasConflictResolution: false,
    persistent: true,
  };
  readonly #layout: LayoutName | undefined;

  constructor(options: FileMemoryBackendOptions = {}) {
    this.#layout = options.layout;
  }

  /** Options for the layered helpers, naming this backend in errors. */
  protected fileOptions(): { backend: string; layout?: LayoutName } {
    return { backend: this.type, ...(this.#layout ? { layout: this.#layout } : {}) };
  }

  /** @returns the long-term file's text; `{ content: '', exists: false }` when it (or the root) is missing. */
  async read(rootDir: string): Promise<MemoryReadResult> {
    let ws;
    try {
      ws = await openProjectWorkspace(rootDir, this.fileOptions());
    } catch (e) {
      // A project that does not exist has no memory yet: that is not a read failure.
      if ((e as { code?: string }).code === 'NOT_FOUND') return { content: '', exists: false, backend: this.type };
      throw e;
    }
    const content = await readText(ws, await longTermPath(ws), this.type);
    return content === undefined
      ? { content: '', exists: false, backend: this.type }
      : { content, exists: true, backend: this.type };
  }

  /** Atomically replace the long-term file (folders created as needed). */
  async write(rootDir: string, content: string): Promise<MemoryWriteResult> {
    const ws = await openProjectWorkspace(rootDir, this.fileOptions());
    return writeChecked(ws, await longTermPath(ws), content, this.type);
  }

  async exists(rootDir: string): Promise<boolean> {
    try {
      return (await this.read(rootDir)).exists;
    } catch {
      return false;
    }
  }

  async get(rootDir: string, options: MemoryGetOptions): Promise<MemoryGetResult> {
    return readProjectMemoryWindow(rootDir, options, this.fileOptions());
  }

  async search(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]> {
    return searchProjectMemory(rootDir, options, this.fileOptions());
  }
}
