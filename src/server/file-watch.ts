// Where the language server's file events come from: the client's watcher (registered through
// `workspace/didChangeWatchedFiles` dynamic registration) or, when the client offers none (Neovim
// 0.7), the server's own watcher — the one `gitmem watch` uses, made by the factory the process entry
// passes in. Exactly one source per session; the other one's events are ignored. Also keeps the
// freshness facts reported in `gitmem/getStatus`.
// deps: core (types), protocol (types).
import { CONFIG_FILE } from '../core/config.js';
import type { RelPath } from '../core/paths.js';
import type { FileChangeBatch, FileWatcher, Logger, WatcherFactory, WatchOptions } from '../core/ports.js';
import type { Freshness } from '../protocol/requests.js';

export type WatchSource = Freshness['watcher'];

/**
 * Which source serves this session: `client` when the client can register a watcher, `server` when
 * it cannot and the platform gives a watcher factory, else `none` (nothing reports disk changes).
 */
export function chooseWatchSource(clientCanWatch: boolean, factory: WatcherFactory | undefined): WatchSource {
  if (clientCanWatch) return 'client';
  return factory ? 'server' : 'none';
}

/**
 * Start the server-side watcher over `options` (from Memory.watchOptions), also accepting the
 * workspace's gitmem.config.json so a config change reopens the workspace as with a client
 * watcher. Batches go to `onBatch`; skipped paths are logged once each. Close it with `close()`.
 */
export function startServerWatcher(
  factory: WatcherFactory,
  options: WatchOptions,
  onBatch: (b: FileChangeBatch) => void,
  log: Logger,
): FileWatcher {
  const watcher = factory({
    ...options,
    accept: (p: RelPath) => p === CONFIG_FILE || options.accept(p),
    onWarning: (m) => log.warn(`gitmem: ${m}`),
  });
  watcher.onDidChangeFiles(onBatch);
  watcher.onDidSkip((p) => log.warn(`gitmem: watcher skipped ${p.path}: ${p.reason}`));
  void watcher.ready.then(() =>
    log.info(`gitmem: the client registers no file watcher; watching the workspace (${watcher.mode})`),
  );
  return watcher;
}
