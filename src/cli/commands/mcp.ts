// `gitmem mcp [--dir]`: serve the MCP tools over stdio for agents (Claude Code, Cursor, Codex, …).
// The MCP module (and its SDK) is imported only when the command runs. stdout is the protocol's;
// logs go to stderr. A write costs the files it changed (issue #44): memory_remember and
// memory_observe answer from the index as it is and hand their own paths to the engine's one change
// queue (with the HEAD-move check), while the other tools first bring the index up to date with a
// stat walk (only files whose stat key changed are read). No file watcher:
// measured at 10,000 files, chokidar re-lists and stats a whole folder on each file created in it
// (about 1 s of CPU a write in a 5,000-file folder, more than the walk it would save).
// deps: mcp/server.ts (the one cli → mcp import), service, core.
import type { Command } from 'commander';
import { createNodeFs } from '../../platform/node-fs.js';
import type { Memory } from '../../service/memory.js';
import { withWorkspace, type CliContext } from '../context.js';
import { startHost } from '../host-start.js';
import { err } from '../output.js';

/** Tools that name the files they change and whose checks ask the index as it is: no walk first. */
const OWN_PATHS = new Set(['memory_remember', 'memory_observe']);

/** Saves of the index after a write wait this long for the next write (ms; disposing saves at once). */
const SAVE_AFTER_MS = 1000;

/**
 * The index a call answers from. The first call waits for the index to load (and the HEAD tracker of
 * the change queue to start, engine/freshness/freshness.ts follow); the writes in {@link OWN_PATHS} then answer
 * from it as it is (their own paths join it through the change queue: service/remember), every other
 * tool brings it up to date first with a stat walk (MemoryContext.fresh).
 */
function followWrites(memory: Memory) {
  const freshness = memory.context.freshness;
  freshness.live.deferSaves(SAVE_AFTER_MS);
  // A stat walk, never the listing taken at process start: that stands for the workspace only in
  // the first seconds, and the process's own writes since then are not in it.
  const walk = () => memory.context.fresh();
  const ready = freshness.follow().then(walk);
  void ready.catch(() => undefined); // a failed first look is tried again by the next call
  return {
    ready,
    async beforeCall(tool: string): Promise<void> {
      await ready.catch(walk);
      if (!OWN_PATHS.has(tool)) await walk();
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
      const { serveStdio } = await import('../../mcp/server.js');
      await withWorkspace(
        ctx,
        async (opened) => {
          // A long-lived process (B42): a recall answers from the keyword index of a change at once and
          // the vectors it lacks are embedded in the background between calls (engine/vectors/vector-catchup.ts),
          // as in the language server and `gitmem watch`; disposing the Memory stops and saves that work.
          const follow = followWrites(opened.memory);
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
            await follow.ready.catch(() => undefined); // disposing the Memory then saves the index
          }
        },
        { freshness: 'manual' },
      );
    });
}
