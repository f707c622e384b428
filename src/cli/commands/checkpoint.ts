// `gitmem checkpoint`: commit the memory changes (only memory files; other work in the repository is
// left alone). Rendering only; behaviour lives in service/git-ops/checkpoint.ts. deps: service, cli.
import type { Command } from 'commander';
import { checkpointMemory, type CheckpointResult } from '../../service/git-ops/checkpoint.js';
import { reportCommitted, short } from '../commit-report.js';
import { withWorkspace, type GitCommandContext } from '../context.js';
import { bold, cyan, err, out, red, yellow } from '../output.js';

/** Add `checkpoint` (with its action) to `program`. */
export function checkpointCommand(program: Command, ctx: GitCommandContext): Command {
  return program
    .command('checkpoint')
    .description('commit the memory changes (only memory files; your other staged and unstaged work is left alone)')
    .option('-m, --message <msg>', 'commit message (first line is the summary; default: a summary of the changes)')
    .option('--reason <text>', 'why the memory changed (Memory-Reason trailer)')
    .option('--force', 'commit even when possible secrets or merge conflict markers are found')
    .action(async (o: { message?: string; reason?: string; force?: boolean }) => {
      const { res, cap } = await withWorkspace(ctx, async ({ memory, gitdir, workTree }) => ({
        res: await checkpointMemory(memory.context, {
          git: { gitdir, workTree },
          ...(o.message !== undefined ? { message: o.message } : {}),
          ...(o.reason !== undefined ? { reason: o.reason } : {}),
          ...(o.force ? { force: true } : {}),
        }),
        cap: memory.config.limits.maxFileBytes,
      }));
      reportCommitted(res, cap, ctx.json(), renderCheckpoint);
    });
}

function renderCheckpoint(res: CheckpointResult): void {
  if (res.kind === 'nothing-to-commit') {
    out(`Nothing to commit: memory matches ${res.head ? `HEAD (${short(res.head)})` : 'HEAD (no commits yet)'}.`);
    return;
  }
  const c = res.changes;
  const where = res.branch ?? 'detached HEAD';
  out(`${bold(`Checkpoint ${short(res.oid)}`)} on ${where}: ${res.summary}`);
  for (const p of c.added) out(`  ${cyan('added')}     ${p}`);
  for (const p of c.modified) out(`  ${yellow('modified')}  ${p}`);
  for (const p of c.deleted) out(`  ${red('deleted')}   ${p}`);
  if (res.author.source === 'fallback') {
    err(
      `gitmem: note: no git identity configured; committed as ${res.author.name} <${res.author.email}> (set git config user.name/user.email)`,
    );
  }
  for (const s of res.secrets)
    err(`gitmem: warning: committed a possible secret (--force): ${s.path}:${s.line}:${s.column} ${s.rule}`);
}
