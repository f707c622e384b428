// `gitmem dream`, `promote <id>` and `reject <id>`: propose promotions, merges and retirements into
// DREAMS.md, then apply or reject one (service/ace/dream-proposals.ts). Rendering only. deps: service, core, cli.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import { dream, promoteProposal, rejectProposal } from '../../service/ace/dream-proposals.js';
import { withWorkspace, type CliContext } from '../context.js';
import { bold, dim, out, printJson, yellow, outText } from '../output.js';

const short = (oid: string | null) => (oid ? oid.slice(0, 7) : '-');

/** Add `dream` (with its action) to `program`. */
export function dreamCommand(program: Command, ctx: CliContext): Command {
  return program
    .command('dream')
    .description('propose promotions, merges and retirements into DREAMS.md, with evidence (committed in git)')
    .option(
      '--stale-days <n>',
      'archive proposals for unreferenced entries older than this (default 365, 0 = off)',
      (v: string) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0)
          throw new MemoryError('usage', `--stale-days must be a non-negative integer, got ${shownValue(v)}`);
        return n;
      },
    )
    .option('--no-commit', 'write DREAMS.md but do not commit')
    .action(async (o: { staleDays?: number; commit?: boolean }) => {
      const res = await withWorkspace(ctx, ({ memory, root, gitdir, workTree }) =>
        dream(memory.context, {
          git: { gitdir, workTree },
          exists: (p) => existsSync(join(root, p)),
          ...(o.staleDays !== undefined ? { staleDays: o.staleDays } : {}),
          ...(o.commit === false ? { commit: false } : {}),
        }),
      );
      if (ctx.json()) return printJson(res);
      if (!res.proposals.length) {
        out(`No new proposals (${res.existing.proposed} awaiting review in ${res.path}).`);
        return;
      }
      for (const p of res.proposals) {
        out(`${yellow(p.id)} ${bold(p.kind)} ${p.title}`);
        out(dim(`   evidence: ${p.evidence.map((e) => `${e.path}:${e.line}`).join(', ')}`));
      }
      out(
        dim(
          `${res.proposals.length} proposals written to ${res.path}${res.commit ? ` (${short(res.commit)})` : ''}; review, then gitmem promote <id> or gitmem reject <id>`,
        ),
      );
    });
}

/** Add `promote` and `reject` (DREAMS.md proposals) to `program`. */
export function proposalCommands(program: Command, ctx: CliContext): void {
  for (const verb of ['promote', 'reject'] as const) {
    const cmd = program
      .command(verb)
      .description(
        verb === 'promote'
          ? 'apply a DREAMS.md proposal as a reviewable change (prints the diff; committed in git)'
          : 'mark a DREAMS.md proposal rejected',
      )
      .argument('<id>', 'proposal id (d-xxxxxxxx)')
      .option('--no-commit', 'write the files but do not commit');
    if (verb === 'reject') cmd.option('--reason <text>', 'why (kept in DREAMS.md and the commit)');
    cmd.action(async (id: string, o: { commit?: boolean; reason?: string }) => {
      const res = await withWorkspace(ctx, ({ memory, gitdir, workTree }) => {
        const input = { git: { gitdir, workTree }, id, ...(o.commit === false ? { commit: false } : {}) };
        return verb === 'promote'
          ? promoteProposal(memory.context, input)
          : rejectProposal(memory.context, { ...input, ...(o.reason ? { reason: o.reason } : {}) });
      });
      if (ctx.json()) return printJson(res);
      if (res.diff) outText(res.diff.replace(/\n$/, ''));
      out(dim(`${res.id} ${res.status}${res.commit ? ` in ${short(res.commit)}` : ' (not committed)'}`));
    });
  }
}
