// A backend for Claude's client-side memory tool (`memory_20250818`): the six commands (`view`,
// `create`, `str_replace`, `insert`, `delete`, `rename`) over `/memories`, served on one folder of a
// gitmem workspace (default `<memory folder>/claude`) through the guards of every write (view.ts,
// edit.ts, remove.ts, write.ts). Writes are an agent's: recorded as such, shown `unreviewed` by recall
// and listed by `gitmem review`, never committed. See docs/integrations.md ("Claude's memory tool").
// deps: core, service/shared (the context), service/memory-tool.
import type { MemoryContext } from '../shared/memory-context.js';
import { create, insert, strReplace } from './edit.js';
import { resolveToolPath, toolFolder } from './paths.js';
import { remove, rename } from './remove.js';
import { MemoryToolError, type MemoryToolCommand, type MemoryToolOptions } from './types.js';
import { view } from './view.js';

/** The backend {@link memoryToolBackend} returns. */
export interface MemoryToolBackend {
  /** The workspace folder `/memories` maps onto (workspace-relative, e.g. `memory/claude`). */
  readonly folder: string;
  /**
   * Run one command as the model sent it (a `tool_use` block's `input`).
   * @returns the tool result text for the model.
   * @throws MemoryToolError with the text to return with `is_error: true` (nothing was written);
   *   other errors are gitmem's own failures.
   */
  handle(command: MemoryToolCommand | Readonly<Record<string, unknown>>): Promise<string>;
}

/**
 * Serve the memory tool on the workspace of `ctx` (an opened Memory's `memory.context`).
 * @throws MemoryError `path.not-memory` when `options.folder` is not a memory folder of the layout.
 */
export function memoryToolBackend(ctx: MemoryContext, options: MemoryToolOptions = {}): MemoryToolBackend {
  const folder = toolFolder(ctx, options.folder);
  const via = options.via ?? 'memory-tool';
  return {
    folder,
    async handle(command) {
      if (!command || typeof command !== 'object') throw new MemoryToolError('the command must be an object');
      const c = command as Readonly<Record<string, unknown>>;
      const at = (field: string) => resolveToolPath(ctx, folder, c[field]);
      switch (c['command']) {
        case 'view':
          return view(ctx, await at('path'), c['view_range']);
        case 'create':
          return create(ctx, await at('path'), c['file_text'], via);
        case 'str_replace':
          return strReplace(ctx, await at('path'), c['old_str'], c['new_str'], via);
        case 'insert':
          return insert(ctx, await at('path'), c['insert_line'], c['insert_text'], via);
        case 'delete':
          return remove(ctx, folder, await at('path'), via);
        case 'rename':
          return rename(ctx, await at('old_path'), await at('new_path'), via);
        default:
          throw new MemoryToolError(
            `Unknown command: ${String(c['command'])} (expected view, create, str_replace, insert, delete or rename)`,
          );
      }
    },
  };
}
