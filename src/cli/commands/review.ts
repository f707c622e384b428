// `gitmem review [--approve <paths...> | --approve-all]`: the memory files awaiting a person's review
// (an agent's writes, files `gitmem sync` brought in) and approving them, which makes their lines
// `reviewed` in every answer and lets them into injected blocks (docs/trust.md). Rendering only; the
// logic is service/trust/review-queue.ts. deps: service, cli.
import type { Command } from 'commander';
import { MemoryError } from '../../core/errors.js';
import { approvePending, pendingReview } from '../../service/trust/review-queue.js';
import { maskName } from '../../core/secret-mask.js';
import { maskPendingName } from '../../service/trust/shown-names.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, out, printJson } from '../output.js';
import { workspacePathArgs } from '../path-args.js';

/** Add `review` to `program`. */
export function registerReviewCommands(program: Command, ctx: CliContext): void {
  program
    .command('review')
    .description('list memory files awaiting review (agent-written, or arrived through sync) and approve them')
    .option('--approve <paths...>', 'approve these memory files as they are now')
    .option('--approve-all', 'approve every file listed')
    .action(async (o: { approve?: string[]; approveAll?: boolean }) => {
      if (o.approve && o.approveAll)
        throw new MemoryError('usage', 'give either --approve <paths...> or --approve-all');
      const res = await withWorkspace(ctx, async ({ memory }) => {
        const pending = await pendingReview(memory.context);
        const paths = o.approveAll ? pending.map((p) => p.path) : workspacePathArgs(ctx.dir(), o.approve ?? []);
        const { approved, notAwaiting } = paths.length
          ? await approvePending(memory.context, paths)
          : { approved: [], notAwaiting: [] };
        // Shown masked, as recall shows names (R60); approval above used the real paths.
        const left = pending.filter((p) => !approved.includes(p.path)).map(maskPendingName);
        return { pending: left, approved: approved.map(maskName), notAwaiting: notAwaiting.map(maskName) };
      });
      if (ctx.json()) return printJson(res);
      for (const p of res.approved) out(`approved ${p}`);
      // A path that awaited nothing is said, not reported approved (R92).
      for (const p of res.notAwaiting) out(`not awaiting review (nothing to approve): ${p}`);
      if (res.pending.length === 0) out(res.approved.length ? 'Nothing else awaits review.' : 'Nothing awaits review.');
      for (const p of res.pending) out(`${p.state.padEnd(10)} ${p.path}  ${dim(`${p.via} ${p.at.slice(0, 16)}`)}`);
      if (res.pending.length) out(dim('approve with: gitmem review --approve <path> (or --approve-all)'));
    });
}
