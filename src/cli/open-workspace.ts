// Opening the workspace a CLI command names (`--dir`, else the current folder): discovery, the node
// fs confined to its root, index storage, the installed model and createMemory. The one place the
// CLI constructs platform objects for a Memory (platform/node-workspace.ts builds the shared part).
// deps: service, platform, core (cli layer).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LayoutName } from '../core/layout.js';
import { systemClock } from '../core/ports.js';
import { discoverWorkspace } from '../platform/discover.js';
import { createStderrLogger } from '../platform/logger.js';
import { installedModelDir, nodeWorkspace } from '../platform/node-workspace.js';
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

export async function openWorkspace(
  g: GlobalOptions,
  options: { freshness?: 'scan' | 'manual'; layout?: LayoutName; embedWorker?: boolean | 'bulk' } = {},
): Promise<OpenedWorkspace> {
  const found = discoverWorkspace(g.dir, process.cwd());
  const logger = createStderrLogger(g.debug === true);
  const platform = nodeWorkspace(found, { warn: (m) => logger.warn(m) });
  const memory = await createMemory({
    ...platform,
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
    // The installed model, searched upwards from this bundle (dist/ → the package's models/).
    defaultModelDir: installedModelDir(dirname(fileURLToPath(import.meta.url))),
    logger,
    clock: systemClock,
    ...(options.layout ? { layout: options.layout } : {}),
  });
  return { memory, root: platform.fs.root, gitdir: found.gitdir, workTree: found.workTree };
}

export async function open(g: GlobalOptions): Promise<Memory> {
  return (await openWorkspace(g)).memory;
}
