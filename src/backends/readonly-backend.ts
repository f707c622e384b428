// The `readonly` backend: a read-only view of the long-term file. Writes throw READ_ONLY; reads never
// throw (any failure reads as "no memory"); search returns []. deps: backends (file-backend).
import type { LayoutName } from '../core/layout.js';
import { FileMemoryBackend } from './file-backend.js';
import {
  MemoryBackendError,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemoryGetOptions,
  type MemoryGetResult,
  type MemoryReadResult,
  type MemorySearchOptions,
  type MemorySearchResult,
  type MemoryWriteResult,
} from './types.js';

/**
 * For runs that must not change memory (reviews, untrusted agents, memory managed elsewhere).
 * `read` serves the long-term file when it is readable and `{ content: '', exists: false }` otherwise;
 * `get` returns an empty window (`endLine: 0`) for anything it cannot serve, rejected paths included.
 */
export class ReadOnlyMemoryBackend implements MemoryBackend {
  readonly type = 'readonly';
  readonly name = 'Read-Only';
  readonly capabilities: MemoryBackendCapabilities = {
    readable: true,
    writable: false,
    supportsAtomicWrite: false,
    hasConflictResolution: false,
    persistent: false,
  };
  readonly #files: FileMemoryBackend;

  constructor(options: { layout?: LayoutName } = {}) {
    this.#files = new FileMemoryBackend(options);
  }

  async read(rootDir: string): Promise<MemoryReadResult> {
    try {
      const r = await this.#files.read(rootDir);
      return { ...r, backend: this.type };
    } catch {
      return { content: '', exists: false, backend: this.type };
    }
  }

  /** @throws MemoryBackendError `READ_ONLY`, always. */
  async write(_rootDir: string, _content: string): Promise<MemoryWriteResult> {
    throw new MemoryBackendError('READ_ONLY', 'this memory backend is read-only and cannot write memory', this.type);
  }

  async exists(rootDir: string): Promise<boolean> {
    return (await this.read(rootDir)).exists;
  }

  async get(rootDir: string, options: MemoryGetOptions): Promise<MemoryGetResult> {
    try {
      return { ...(await this.#files.get(rootDir, options)), backend: this.type };
    } catch {
      const start = Math.max(1, Math.floor(Number.isFinite(options?.startLine) ? options.startLine! : 1));
      return {
        path: typeof options?.path === 'string' ? options.path : '',
        content: '',
        startLine: start,
        endLine: 0,
        totalLines: 0,
        backend: this.type,
      };
    }
  }

  /** @returns `[]`: a read-only run gets memory through `read`/`get`, not search. */
  async search(_rootDir: string, _options: MemorySearchOptions): Promise<MemorySearchResult[]> {
    return [];
  }
}
