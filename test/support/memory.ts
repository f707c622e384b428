// Open a real Memory (node fs + index storage in a temp folder) over a workspace folder.
import { join } from 'node:path';
import { createIndexStorage } from '../../src/platform/index-storage.js';
import { createNodeFs } from '../../src/platform/node-fs.js';
import { createMemory, type Memory } from '../../src/service/memory.js';
import type { Clock } from '../../src/core/ports.js';
import { tempDir } from './fixtures.js';

/** Open `root` with derived state in a fresh temp folder (or `indexDir`), the model looked for in `modelDir` when given. */
export async function openWorkspace(
  root: string,
  options: { indexDir?: string; clock?: Clock; modelDir?: string } = {},
): Promise<Memory> {
  const indexDir = options.indexDir ?? join(tempDir('gitmem-idx-'), 'index');
  return createMemory({
    fs: createNodeFs(root),
    openStorage: () => createIndexStorage(indexDir),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.modelDir !== undefined ? { defaultModelDir: options.modelDir } : {}),
  });
}
