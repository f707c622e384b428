// Claude's memory tool (`memory_20250818`) served on a gitmem workspace, for a host that has a
// folder rather than an opened Memory: opens it as the gitmem backend does (one Memory, the CLI's
// derived-state location, so `gitmem recall` and `gitmem review` see the writer record) and hands it
// to the use case (service/memory-tool/). deps: service, backends.
import type { Memory } from '../service/memory.js';
import { memoryToolBackend, type MemoryToolBackend } from '../service/memory-tool/memory-tool.js';
import type { MemoryToolOptions } from '../service/memory-tool/types.js';
import { GitmemMemoryBackend, type GitmemMemoryBackendOptions } from './gitmem-backend.js';

/** What {@link createMemoryToolBackend} returns: the backend, and `dispose` for a workspace it opened. */
export interface OpenedMemoryToolBackend extends MemoryToolBackend {
  /** The Memory the commands run on. */
  readonly memory: Memory;
  /** Release the Memory when this call opened it (a root was given); a Memory passed in is the caller's. */
  dispose(): Promise<void>;
}

/**
 * Serve Claude's memory tool on `target`: an opened {@link Memory}, or a workspace folder to open.
 * `options.folder` is the workspace folder `/memories` maps onto (default `<memory folder>/claude`).
 * @throws MemoryBackendError when the folder cannot be opened; MemoryError `path.not-memory` for a
 *   `folder` outside the memory of the layout.
 */
export async function createMemoryToolBackend(
  target: Memory | string,
  options: MemoryToolOptions & GitmemMemoryBackendOptions = {},
): Promise<OpenedMemoryToolBackend> {
  if (typeof target !== 'string')
    return { ...memoryToolBackend(target.context, options), memory: target, dispose: async () => {} };
  const opener = new GitmemMemoryBackend(options);
  const memory = await opener.memoryFor(target);
  try {
    return { ...memoryToolBackend(memory.context, options), memory, dispose: () => opener.dispose() };
  } catch (e) {
    await opener.dispose();
    throw e;
  }
}
