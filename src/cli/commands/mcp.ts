// `gitmem mcp [--dir]`: serve the MCP tools over stdio for agents (Claude Code, Cursor, Codex, …).
// The MCP module (and its SDK) is imported only when the command runs. stdout is the protocol's;
// logs go to stderr. The index is fed by a file watcher through the engine's one change queue, as in
// `gitmem watch` (issue #44): a call costs the files that changed, not a walk of the workspace.
// deps: mcp/server.ts (the one cli → mcp import), service, platform, core.
import type { Command } from 'commander';
import type { WatcherFactory } from '../../core/ports.js';
import { createNodeFs } from '../../platform/node-fs.js';
import type { Memory } from '../../service/memory.js';
import { withWorkspace, type CliContext } from '../context.js';
import { startHost } from '../host-start.js';
import { err } from '../output.js';

/** Tools that name the files they change and whose checks ask the index as it is: no catch-up first. */
const OWN_PATHS = new Set(['memory_remember', 'memory_observe']);

/**
 * Start watching (the writer lock when free, reconcile, then every settled batch) without holding up
 * the handshake. @returns `beforeCall` for the tools: the first call waits for the watch; later ones
 * wait until the changes the process was told of are indexed (engine/freshness.ts caughtUp). A watch
 * that could not start leaves every call a stat walk, as a one-shot call makes.
 */
function followFiles(memory: Memory, createWatcher: WatcherFactory, debug: boolean) {
  const watching = memory.startWatching(createWatcher).then(
    () => true,
    (e: unknown) => {
      err(`gitmem: not watching the workspace (${(e as Error)?.message ?? e}); each call walks the files`);
      return false;
    },
  );
  if (debug) void watching.then((ok) => ok && err('gitmem: watching the workspace'));
  return {
    watching,
    async beforeCall(tool: string): Promise<void> {
      if (!(await watching)) return void (await memory.context.fresh());
      if (!OWN_PATHS.has(tool)) await memory.context.freshness.caughtUp();
    },
  };
}

/** Add `mcp` to `program`. */
export function registerMcpCommands(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description(
      'run the MCP server over stdio (tools: recall, remember, get, checkpoint, state, validate, forget, complete_task, observe, audit, stats)',
    )
    .action(async () => {
      const [{ serveStdio }, { createChokidarWatcher }] = await Promise.all([
        import('../../mcp/server.js'),
        import('../../platform/watcher.js'),
      ]);
      await withWorkspace(
        ctx,
        async (opened) => {
          // A long-lived process (B42): a recall answers from the keyword index of a change at once and
          // the vectors it lacks are embedded in the background between calls (engine/vectors/vector-catchup.ts),
          // as in the language server and `gitmem watch`; disposing the Memory stops and saves that work.
          const follow = followFiles(opened.memory, createChokidarWatcher, ctx.debug());
          // One-shot CLI calls in this workspace are answered from this process's index (src/host/).
          const host = await startHost(opened, 'mcp');
          if ('refused' in host && ctx.debug()) err(`gitmem: not answering one-shot calls: ${host.refused}`);
          try {
            await serveStdio({
              memory: opened.memory,
              fs: createNodeFs(opened.root),
              git: { gitdir: opened.gitdir, workTree: opened.workTree },
              version: program.version() ?? '0.0.0',
              beforeCall: (tool) => follow.beforeCall(tool),
            });
          } finally {
            if (!('refused' in host)) await host.close();
            await follow.watching; // disposing the Memory then stops the watch and saves the index
          }
        },
        { freshness: 'manual' },
      );
    });
}
