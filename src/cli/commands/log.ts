// `gitmem log [path]`: history of the memory files, or of one file, folder or entry id. Rendering only;
// behaviour lives in service/git-ops/history.ts. deps: service, core, cli.
import type { Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import { memoryHistory, type LogEntry } from '../../service/git-ops/history.js';
import { maskLogEntry } from '../../service/trust/shown-names.js';
import { short } from '../commit-report.js';
import { withWorkspace, type GitCommandContext } from '../context.js';
import { dim, out, printJson, yellow } from '../output.js';
import { workspacePathArg } from '../path-args.js';

/** Add `log` (with its action) to `program`. */
export function logCommand(program: Command, ctx: GitCommandContext): Command {
  return program
    .command('log')
    .description('history of the memory files, or of one file, folder or entry id')
    .argument('[path]', 'memory file, folder or entry id')
    .option('--limit <n>', 'most commits shown (default 50)', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1)
        throw new MemoryError('usage', `--limit must be a positive integer, got ${shownValue(v)}`);
      return n;
    })
    .option('--rev <rev>', 'start from this revision instead of HEAD')
    .action(async (given: string | undefined, o: { limit?: number; rev?: string }) => {
      // A path from the current folder, as a shell user means it (R63).
      const path = given === undefined ? undefined : workspacePathArg(ctx.dir?.(), given);
      const history = await withWorkspace(ctx, ({ memory, gitdir, workTree }) =>
        memoryHistory(memory.context, {
          git: { gitdir, workTree },
          ...(path ? { path } : {}),
          ...(o.limit !== undefined ? { limit: o.limit } : {}),
          ...(o.rev !== undefined ? { rev: o.rev } : {}),
        }),
      );
      // Names and messages shown masked, as recall shows them (R60).
      const entries = history.map(maskLogEntry);
      if (ctx.json()) printJson({ path: path ?? null, commits: entries });
      else renderLog(entries, path);
    });
}

function renderLog(entries: readonly LogEntry[], path?: string): void {
  if (entries.length === 0) {
    // With a path, the history may be long: say that none of it touches this path (U36).
    out(
      path ? `No memory commit touches ${path} (a workspace-relative path or an entry id).` : 'No memory commits yet.',
    );
    return;
  }
  for (const e of entries) {
    out(`${yellow(short(e.oid))} ${dim(e.author.date.slice(0, 10))} ${e.summary} ${dim(`— ${e.author.name}`)}`);
    for (const f of e.files) {
      const m = e.memory.find((x) => x.path === f.path);
      const tag = m?.id ? ` ${dim(`[${m.kind ?? 'entry'} ${m.id}]`)}` : '';
      out(`    ${f.change === 'added' ? '+' : f.change === 'deleted' ? '-' : '~'} ${f.path}${tag}`);
    }
    if (e.historyCut)
      out(dim('    history cut: the parent is not in this shallow clone (git fetch --deepen=<N>, or --unshallow)'));
    if (e.reason) out(dim(`    reason: ${e.reason}`));
  }
}
