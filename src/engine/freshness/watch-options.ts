// What a watcher of one workspace is told (engine/freshness/freshness.ts hands it to the watcher factory, and
// to a host that routes the watcher's batches itself). deps: core (ports, layout, glob, paths).
import { matchesAny } from '../../core/glob.js';
import { classify } from '../../core/layout.js';
import type { RelPath } from '../../core/paths.js';
import type { IndexStorage, Logger, MemoryFs, WatchOptions } from '../../core/ports.js';
import type { WatchSessionOptions } from './freshness-types.js';
import type { LoadedConfig } from '../load/load.js';

/** Folders never watched, whatever the layout says. */
const NEVER_WATCHED = new Set(['.git', 'node_modules']);

/**
 * What a watcher of this workspace is told: the root, which files are memory (the layout), the
 * folders never watched (ignored ones, `.git`, `node_modules`, the index folder), the git dir
 * (batches held during a checkout), debounce 40 ms and max wait 2000 ms unless given.
 */
export function watchOptionsOf(
  d: {
    readonly fs: MemoryFs;
    readonly loaded: LoadedConfig;
    readonly storage: IndexStorage;
    readonly logger: Logger;
    readonly gitdir?: string;
  },
  options: WatchSessionOptions = {},
): WatchOptions {
  const layout = d.loaded.layout;
  return {
    root: d.fs.root,
    accept: (p: RelPath) => classify(p, layout) !== undefined,
    ignoreDir: (p: string) => p.split('/').some((s) => NEVER_WATCHED.has(s)) || matchesAny(`${p}/x.md`, layout.ignore),
    ignoreAbsolute: [d.storage.location],
    ...(d.gitdir ? { gitdir: d.gitdir } : {}),
    debounceMs: options.debounceMs ?? 40,
    maxWaitMs: options.maxWaitMs ?? 2000,
    onWarning: (m: string) => d.logger.warn(m),
  };
}
