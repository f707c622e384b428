// `gitmem mcp [--dir]`: serve the MCP tools over stdio for agents (Claude Code, Cursor, Codex, …).
// The MCP module (and its SDK) is imported only when the command runs. stdout is the protocol's;
// logs go to stderr. deps: mcp/server.ts (the one cli → mcp import), service, platform, core.
import type { Command } from 'commander';
import { createNodeFs } from '../../platform/node-fs.js';
import { withWorkspace, type CliContext } from '../context.js';
import { startHost } from '../host-start.js';
import { err } from '../output.js';

/** Add `mcp` to `program`. */
export function registerMcpCommands(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description(
      'run the MCP server over stdio (tools: recall, remember, get, checkpoint, state, validate, forget, complete_task, observe, audit, stats)',
    )
    .action(async () => {
      const { serveStdio } = await import('../../mcp/server.js');
      await withWorkspace(ctx, async (opened) => {
        // A long-lived process (B42): a recall answers from the keyword index of a change at once and
        // the vectors it lacks are embedded in the background between calls (engine/vectors/vector-catchup.ts),
        // as in the language server and `gitmem watch`; disposing the Memory stops and saves that work.
        opened.memory.context.freshness.background();
        // One-shot CLI calls in this workspace are answered from this process's index (src/host/).
        const host = await startHost(opened, 'mcp');
        if ('refused' in host && ctx.debug()) err(`gitmem: not answering one-shot calls: ${host.refused}`);
        try {
          await serveStdio({
            memory: opened.memory,
            fs: createNodeFs(opened.root),
            git: { gitdir: opened.gitdir, workTree: opened.workTree },
            version: program.version() ?? '0.0.0',
          });
        } finally {
          if (!('refused' in host)) await host.close();
        }
      });
    });
}
