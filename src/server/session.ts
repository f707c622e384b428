// The open workspace of one language-server session, and what the process entry (server/main.ts) or a
// test provides to open one. A session lives from `initialized` (or a config change) until the next
// boot or shutdown. deps: core, service, editor (types).
import type { Clock, MemoryFs, WatcherFactory } from '../core/ports.js';
import type { EditorModel } from '../editor/model.js';
import type { OverlayFs } from '../editor/overlay.js';
import type { Memory, MemoryDeps } from '../service/memory.js';
import type { InitializationOptions } from '../protocol/requests.js';
import type { PathMapper } from './convert.js';

/** The platform half of a workspace, built by the process entry (server/main.ts) or a test. */
export interface WorkspacePlatform extends Omit<MemoryDeps, 'fs' | 'freshness' | 'logger'> {
  readonly fs: MemoryFs;
  readonly workTree?: string | undefined;
  /**
   * Makes the server's own file watcher (platform/watcher.ts, as `gitmem watch` uses), started only
   * when the client cannot register one. Without it such a client gets no disk events.
   */
  readonly createWatcher?: WatcherFactory;
}

export interface ServerDeps {
  /** Open the workspace folder `root` (absolute): file system, index storage, git location, model. */
  openWorkspace(root: string, options: InitializationOptions): Promise<WorkspacePlatform>;
  readonly clock?: Clock;
  readonly version?: string;
  /** Quiet period before file events and saves re-index (default 200 ms). */
  readonly reindexDelayMs?: number;
  /** Quiet period before open documents are checked against the code they cite (default 150 ms). */
  readonly codeCheckDelayMs?: number;
  /**
   * Answer one-shot CLI calls from this session's index once it is ready (server/main.ts: the host
   * socket, src/host/). `declines` says why not right now (unsaved editor text differs from disk).
   */
  readonly serveOneShot?: (
    memory: Memory,
    platform: WorkspacePlatform,
    declines: () => Promise<string | null>,
  ) => Promise<{ close(): Promise<void> } | undefined>;
}

/** One open workspace: the Memory over the open-buffer overlay, the editor model, URI mapping. */
export interface Session {
  readonly memory: Memory;
  readonly overlay: OverlayFs;
  readonly model: EditorModel;
  readonly platform: WorkspacePlatform;
  readonly paths: PathMapper;
  /** True once the first index build finished (recall answers from then on). */
  indexed: boolean;
}
