// `gitmem audit [--limit N]`: what recent agent-facing recalls gave (on unless `recall.audit: false`).
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
      'show what recent agent-facing recalls (MCP, hook prompt, context) gave, with trust labels, newest first',
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
        if (!res.enabled) out(dim('recall.audit is false in gitmem.config.json; nothing new is being logged.'));
        if (res.entries.length === 0) out('No audited recalls.');
        for (const e of res.entries) {
          out(
            `${e.time}  ${e.channel ? `${e.channel} ` : ''}${e.mode}${e.degraded ? ' (degraded)' : ''}  "${e.query}"  ${e.results.length} results${e.bytes ? `, ${e.bytes} B rendered` : ''}`,
          );
          if (e.withheld) out(dim(`    ${e.withheld}`));
          for (const r of e.results)
            out(
              dim(
                `    ${r.path}:${r.startLine}-${r.endLine}${[r.commit, r.review, ...(r.labels ?? [])]
                  .filter(Boolean)
                  .map((x) => ` · ${x}`)
                  .join('')}`,
              ),
            );
        }
      }
    });
}
