// The Node platform objects a Memory is opened with, for one discovered workspace: the node fs
// confined to its root, its index storage at the shared location (platform/locations.ts), its git
// location, and paths of the config resolved against the root. One answer for every process that
// opens a workspace (the CLI, the language server, the backends), so they open it alike.
// deps: core (types), platform.
import { isAbsolute, join } from 'node:path';
import type { IndexStorage, MemoryFs } from '../core/ports.js';
import type { Discovered } from './discover.js';
import { createIndexStorage } from './index-storage.js';
import { findModelDir, indexDirFor, userModelDir } from './locations.js';
import { createNodeFs } from './node-fs.js';

/** What {@link nodeWorkspace} builds (the platform part of service/memory.ts MemoryDeps). */
export interface NodeWorkspace {
  readonly fs: MemoryFs;
  readonly gitdir?: string;
  readonly workTree: string | undefined;
  /** The index storage for the config's `index.dir` (undefined: the default location). */
  openStorage(configured: string | undefined): IndexStorage;
  /** A config path (`model.dir`) as an absolute path: relative ones are under the root. */
  resolvePath(path: string): string;
}

/**
 * The platform objects for `found` (platform/discover.ts).
 * @param options.warn told when a configured `index.dir` is refused (the default location is used).
 * @param options.indexDir the index folder for a root, instead of the shared location.
 */
export function nodeWorkspace(
  found: Discovered,
  options: { warn: (message: string) => void; indexDir?: ((root: string) => string) | undefined },
): NodeWorkspace {
  const fs = createNodeFs(found.root);
  return {
    fs,
    ...(found.gitdir ? { gitdir: found.gitdir } : {}),
    workTree: found.workTree,
    openStorage: (configured) =>
      createIndexStorage(
        options.indexDir
          ? options.indexDir(fs.root)
          : indexDirFor(fs.root, found.workTree, found.gitdir, configured, options.warn),
      ),
    resolvePath: (p) => (isAbsolute(p) ? p : join(fs.root, p)),
  };
}

/**
 * The installed embedding model, searched upwards from `from` (the running module's folder: dist/ →
 * the package's models/). Nothing installed: the folder `gitmem setup` fills, so the "model missing"
 * message points there.
 */
export function installedModelDir(from: string): string {
  return findModelDir(from) ?? userModelDir();
}
