// `gitmem mv OLD NEW [--dry-run]`: move or rename a memory file or folder and rewrite every link to
// it (and inside it). Rendering only; behaviour lives in service/files/move.ts. deps: service, core.
import type { Command } from 'commander';
import { moveMemory } from '../../service/files/move.js';
import { withWorkspace, type CliContext } from '../context.js';
import { cyan, dim, out, printJson } from '../output.js';
import { workspacePathArg } from '../path-args.js';
import { asOneWrite } from '../signals.js';

/** Add `mv` to `program`. */
export function registerMoveCommands(program: Command, ctx: CliContext): void {
  program
    .command('mv')
    .description('move or rename a memory file or folder; every [[link]] and relative link to it is updated')
    .argument('<old>', 'workspace-relative file or folder')
    .argument('<new>', 'new workspace-relative path (an existing folder: move into it)')
    .option('--dry-run', 'print the moves and the edited lines; write nothing')
    .action(async (fromArg: string, toArg: string, o: { dryRun?: boolean }) => {
      // Paths from the current folder, as a shell user means them (R63).
      const from = workspacePathArg(ctx.dir(), fromArg);
      const to = workspacePathArg(ctx.dir(), toArg, 'new');
      const res = await withWorkspace(ctx, ({ memory }) =>
        moveMemory(memory.context, { from, to, dryRun: o.dryRun === true, oneWrite: asOneWrite }),
      );
      if (ctx.json()) return printJson(res);
      if (res.moves.length === 0) return out('Nothing to move.');
      for (const m of res.moves) out(`${o.dryRun ? 'would move' : 'moved'} ${cyan(m.from)} → ${cyan(m.to)}`);
      for (const l of res.lines) {
        out(`${l.path}:${l.line}`);
        out(dim(`  - ${l.before}`));
        out(`  + ${l.after}`);
      }
      const n = new Set(res.lines.map((l) => l.path)).size;
      out(
        o.dryRun
          ? dim(
              `Dry run: ${res.edits.length} link edit${res.edits.length === 1 ? '' : 's'} in ${n} file${n === 1 ? '' : 's'}; nothing written.`,
            )
          : `${res.edits.length} link edit${res.edits.length === 1 ? '' : 's'} in ${n} file${n === 1 ? '' : 's'}.`,
      );
    });
}
