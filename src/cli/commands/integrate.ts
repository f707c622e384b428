// `gitmem integrate <host> [--dry-run] [--remove] [--user]`: wire gitmem into an agent host's
// project files (MCP server, lifecycle hooks, instruction block). Rendering only; the use case is
// service/integrate/integrate.ts. deps: service (integrate), core (errors), platform (discover,
// workspace-guard), cli (state-dir, output).
import { homedir } from 'node:os';
import { Option, type Command } from 'commander';
import { MemoryError } from '../../core/errors.js';
import { discoverWorkspace } from '../../platform/discover.js';
import { assertWorkspace } from '../../platform/workspace-guard.js';
import { EditError, integrate } from '../../service/integrate/integrate.js';
import { HOSTS, type HostName } from '../../service/integrate/hosts.js';
import type { CliContext } from '../context.js';
import { cyan, dim, out, printJson } from '../output.js';
import { workspaceStateDir } from '../state-dir.js';

/** Add `integrate` to `program`. */
export function registerIntegrateCommands(program: Command, ctx: CliContext): void {
  program
    .command('integrate')
    .description(
      "wire gitmem into an agent host: its MCP server registration, lifecycle hooks and a block on when to use memory, merged into the host's project files",
    )
    .argument('<host>', `the agent host: ${HOSTS.join(', ')}`)
    .addOption(new Option('--dry-run', 'print the diff of every file; write nothing'))
    .option(
      '--remove',
      'take out exactly what gitmem integrate added (restores the files byte for byte while unchanged)',
    )
    .option('--user', "write the host's user-level files in your home folder instead (says where)")
    .option('--command <cmd>', 'how hooks and the host start gitmem', 'gitmem')
    .action((host: string, o: { dryRun?: boolean; remove?: boolean; user?: boolean; command: string }) => {
      if (!(HOSTS as readonly string[]).includes(host))
        throw new MemoryError('usage', `unknown host "${host.slice(0, 40)}"`, { hint: `one of: ${HOSTS.join(', ')}` });
      // a folder that is not a workspace (no work tree, no gitmem files; home, `/`) is refused as by
      // every command: nothing read or written there (docs/bad-inputs.md R76)
      assertWorkspace(discoverWorkspace(ctx.dir(), process.cwd()));
      const { root, stateDir, workTree } = workspaceStateDir(ctx.dir());
      let r;
      try {
        r = integrate({
          host: host as HostName,
          root,
          stateDir,
          ...(workTree ? { workTree } : {}),
          ...(o.user ? { userHome: homedir() } : {}),
          command: o.command,
          dryRun: o.dryRun === true,
          remove: o.remove === true,
        });
      } catch (e) {
        if (e instanceof EditError) throw new MemoryError('fs.write-failed', e.message);
        throw e;
      }
      if (ctx.json()) return printJson(r);
      if (r.user)
        out(`${o.dryRun ? 'Would write' : 'Writing'} user-level files under ${cyan(r.base)} (outside the repository)`);
      for (const f of r.files) {
        if (o.dryRun) {
          if (f.diff) out(f.diff.replace(/\n$/, ''));
          continue;
        }
        const verb = {
          create: 'created',
          update: 'updated',
          unchanged: 'unchanged',
          delete: 'deleted',
          restore: 'restored',
        }[f.action];
        out(`${verb.padEnd(9)} ${f.path}`);
      }
      for (const n of r.notes) out(dim(`note: ${n}`));
      const changed = r.files.filter((f) => f.action !== 'unchanged').length;
      if (o.dryRun) out(dim(`Dry run: ${changed} file${changed === 1 ? '' : 's'} would change; nothing written.`));
      else if (!changed) out(dim('Nothing to change.'));
    });
}
