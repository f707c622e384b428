// Opening the workspace a CLI command names (`--dir`, else the current folder): discovery, the node
// fs confined to its root, index storage, the installed model and createMemory. The one place the
// CLI constructs platform objects for a Memory. deps: service, platform, core (cli layer).
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LayoutName } from '../core/layout.js';
import { systemClock } from '../core/ports.js';
import { discoverWorkspace } from '../platform/discover.js';
import { findModelDir, indexDirFor, userModelDir } from '../platform/locations.js';
import { createIndexStorage } from '../platform/index-storage.js';
import { createStderrLogger } from '../platform/logger.js';
import { createNodeFs } from '../platform/node-fs.js';
import { createMemory, type Memory } from '../service/memory.js';
import type { workerEmbedderFactory } from '../platform/worker-embedder.js';
import { type OpenedWorkspace } from './context.js';

export interface GlobalOptions {
  dir?: string;
  json?: boolean;
  debug?: boolean;
  /** false with `--no-host` (src/cli/host.ts). */
  host?: boolean;
}

/** The installed embedding model, searched upwards from this bundle (dist/ → the package's models/). */
function defaultModelDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Nothing installed: name the folder `gitmem setup` fills, so the "model missing" message points there.
  return findModelDir(here) ?? userModelDir();
}

export async function openWorkspace(
  g: GlobalOptions,
  options: { freshness?: 'scan' | 'manual'; layout?: LayoutName; embedWorker?: boolean | 'bulk' } = {},
): Promise<OpenedWorkspace> {
  const found = discoverWorkspace(g.dir, process.cwd());
  const fs = createNodeFs(found.root);
  const logger = createStderrLogger(g.debug === true);
  const memory = await createMemory({
    ...(options.freshness ? { freshness: options.freshness } : {}),
    ...(options.embedWorker
      ? {
          // Imported when the first embedding is asked for: a keyword call never loads the embedder.
          createEmbedder: async (...a: Parameters<ReturnType<typeof workerEmbedderFactory>>) =>
            (await import('../platform/worker-embedder.js')).workerEmbedderFactory(
              options.embedWorker === 'bulk' ? { bulk: true } : {},
            )(...a),
        }
      : {}),
    defaultModelDir: defaultModelDir(),
    resolvePath: (p) => (isAbsolute(p) ? p : join(fs.root, p)),
    fs,
    openStorage: (configured) =>
      createIndexStorage(indexDirFor(fs.root, found.workTree, found.gitdir, configured, (m) => logger.warn(m))),
    ...(found.gitdir ? { gitdir: found.gitdir } : {}),
    logger,
    clock: systemClock,
    ...(options.layout ? { layout: options.layout } : {}),
  });
  return { memory, root: fs.root, gitdir: found.gitdir, workTree: found.workTree };
}

export async function open(g: GlobalOptions): Promise<Memory> {
  return (await openWorkspace(g)).memory;
}
