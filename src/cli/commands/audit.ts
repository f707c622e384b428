// `gitmem audit [--limit N]`: what recent recalls returned (with `recall.audit: true` in config).
// Rendering only; the log lives in derived state (service/recall/audit.ts). deps: service, core (cli layer).
import type { Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import { readAudit } from '../../service/recall/audit.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, out, printJson } from '../output.js';

/** Add `audit` to `program`. */
export function registerAuditCommands(program: Command, ctx: CliContext): void {
  program
    .command('audit')
    .description(
      'show what recent recalls returned, newest first (turn on with "recall": {"audit": true} in gitmem.config.json)',
    )
    .option('--limit <n>', 'how many entries (default 20)', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1)
        throw new MemoryError('usage', `--limit must be a positive integer, got ${shownValue(v)}`);
      return n;
    })
    .action(async (o: { limit?: number }) => {
      const res = await withWorkspace(ctx, async ({ memory }) => ({
        enabled: memory.config.recall.audit,
        entries: await readAudit(memory.storage, o.limit ?? 20),
      }));
      if (ctx.json()) printJson(res);
      else {
        if (!res.enabled) out(dim('recall.audit is off in gitmem.config.json; nothing new is being logged.'));
        if (res.entries.length === 0) out('No audited recalls.');
        for (const e of res.entries) {
          out(
            `${e.time}  ${e.mode}${e.degraded ? ' (degraded)' : ''}  "${e.query}"  ${e.results.length} results${e.bytes ? `, ${e.bytes} B rendered` : ''}`,
          );
          for (const r of e.results) out(dim(`    ${r.path}:${r.startLine}-${r.endLine}`));
        }
      }
    });
}
