// The `gitmem` backend (the default): the full indexed store behind createMemory — hybrid recall
// (BM25 + embeddings, keyword-only when no model is installed) over every memory file of the layout,
// atomic writes of the long-term file (the file backend's). deps: core, service, platform, backends. Never mcp.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, type LayoutName } from '../core/layout.js';
import { toRelPath } from '../core/paths.js';
import type { Logger } from '../core/ports.js';
import { discoverWorkspace } from '../platform/discover.js';
import { installedModelDir, nodeWorkspace } from '../platform/node-workspace.js';
import { createMemory, type Memory, type MemoryDeps } from '../service/memory.js';
import { boundSnippet, clampSearchLimit } from './local-search.js';
import { FileMemoryBackend } from './file-backend.js';
import {
  fromMemoryError,
  lineWindow,
  openProjectWorkspace,
  readText,
  resolveProjectMemoryPath,
} from './project-files.js';
import {
  MemoryBackendError,
  type MemoryGetOptions,
  type MemoryGetResult,
  type MemorySearchOptions,
  type MemorySearchResult,
} from './types.js';
import { recall } from '../service/recall/recall.js';

/** Options of {@link GitmemMemoryBackend}. */
export interface GitmemMemoryBackendOptions {
  /** Force a layout for every root (default: config `layout`, else detected). */
  readonly layout?: LayoutName;
  /** Embedding model folder (default: $GITMEM_MODEL_DIR, else the package's installed model). */
  readonly modelDir?: string;
  /** Derived-state folder for a root (default: as the CLI: `<gitdir>/gitmem[/ws-…]`, else `<root>/.gitmem`). */
  readonly indexDir?: (root: string) => string;
  /** Embedder factory (tests inject one); default: the ONNX model. */
  readonly createEmbedder?: MemoryDeps['createEmbedder'];
  readonly logger?: Logger;
}

/**
 * The full gitmem store as a {@link MemoryBackend}. One {@link Memory} is kept per root (so the
 * embedding model loads once); every search re-checks the files, so edits made by anyone are seen.
 * `get` reads any memory file of the layout (entries and playbook too: search returns them).
 * Call {@link GitmemMemoryBackend.dispose} when done to release the embedding sessions.
 */
export class GitmemMemoryBackend extends FileMemoryBackend {
  override readonly type = 'gitmem';
  override readonly name = 'gitmem (indexed markdown memory, hybrid recall)';
  readonly #options: GitmemMemoryBackendOptions;
  readonly #memories = new Map<string, Promise<Memory>>();

  // read, write and exists are the file backend's (the long-term file, atomic writes); the index
  // follows a write on the next search: recall re-hashes the files before answering.
  constructor(options: GitmemMemoryBackendOptions = {}) {
    super(options.layout ? { layout: options.layout } : {});
    this.#options = options;
  }

  /**
   * A line window of any memory file of the layout (layered files by bare name too).
   * @throws MemoryBackendError `UNSUPPORTED` (not memory, `..`, absolute, symlink out), `NOT_FOUND`, `READ_FAILED`.
   */
  override async get(rootDir: string, options: MemoryGetOptions): Promise<MemoryGetResult> {
    const ws = await openProjectWorkspace(rootDir, this.fileOptions());
    let rel;
    try {
      rel = resolveProjectMemoryPath(ws.layout, options?.path, this.type).path;
    } catch (e) {
      if (!(e instanceof MemoryBackendError) || e.data?.reason !== 'path.not-memory') throw e;
      const p = toRelPath(options.path.trim());
      if (!classify(p, ws.layout)) throw e;
      rel = p; // an entry, playbook entry, CURRENT_STATE.md or note: memory, but not a layered file
    }
    const text = await readText(ws, rel, this.type);
    if (text === undefined)
      throw new MemoryBackendError('NOT_FOUND', `memory file '${rel}' does not exist`, this.type, {
        data: { path: rel },
      });
    return lineWindow(text, rel, options, this.type);
  }

  /**
   * Hybrid recall (keyword-only with a `degraded` note inside gitmem when no model is installed).
   * @throws MemoryBackendError `BACKEND_UNAVAILABLE` (invalid config), `READ_FAILED`.
   */
  override async search(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]> {
    if (typeof options?.query !== 'string' || !options.query.trim()) return [];
    const memory = await this.#open(rootDir);
    try {
      const res = await recall(memory.context, options.query, { limit: clampSearchLimit(options.limit) });
      return res.results.map((r) => ({
        path: r.path,
        lineStart: r.startLine,
        lineEnd: r.endLine,
        snippet: boundSnippet(r.snippet),
        score: r.score,
        backend: this.type,
      }));
    } catch (e) {
      if (e instanceof Error && 'code' in e && (e as { code: string }).code === 'query.empty') return [];
      throw fromMemoryError(e, 'READ_FAILED', this.type, { rootDir });
    }
  }

  /** The {@link Memory} for `rootDir` (opened once, then reused). */
  async memoryFor(rootDir: string): Promise<Memory> {
    return this.#open(rootDir);
  }

  /** Release every opened store (embedding sessions). The backend stays usable: stores reopen on demand. */
  async dispose(): Promise<void> {
    const all = [...this.#memories.values()];
    this.#memories.clear();
    for (const m of all) await m.then((x) => x.dispose()).catch(() => undefined);
  }

  async #open(rootDir: string): Promise<Memory> {
    const ws = await openProjectWorkspace(rootDir, this.fileOptions()); // validates root and config first
    const key = ws.root;
    let p = this.#memories.get(key);
    if (!p) {
      p = this.#create(ws.root);
      this.#memories.set(key, p);
      p.catch(() => this.#memories.delete(key));
    }
    return p;
  }

  async #create(root: string): Promise<Memory> {
    const o = this.#options;
    const found = discoverWorkspace(root, root);
    try {
      return await createMemory({
        ...nodeWorkspace(found, { warn: (m) => o.logger?.warn(m), indexDir: o.indexDir }),
        // The installed model, searched upwards from this module (the package's models/).
        defaultModelDir: o.modelDir ?? installedModelDir(dirname(fileURLToPath(import.meta.url))),
        ...(o.layout ? { layout: o.layout } : {}),
        ...(o.createEmbedder ? { createEmbedder: o.createEmbedder } : {}),
        ...(o.logger ? { logger: o.logger } : {}),
      });
    } catch (e) {
      throw fromMemoryError(e, 'BACKEND_UNAVAILABLE', this.type, { rootDir: root });
    }
  }
}
