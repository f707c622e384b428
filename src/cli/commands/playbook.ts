// `gitmem playbook`: list the playbook entries, or one entry's history (service/ace/knowledge-queries.ts).
// Rendering only. deps: service, core, cli.
import { Option, type Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import { listPlaybookEntries, playbookHistory, type PlaybookChange } from '../../service/ace/knowledge-queries.js';
import { withWorkspace, type CliContext } from '../context.js';
import { bold, dim, out, printJson, yellow } from '../output.js';

const DATE = /^\d{4}-\d{2}-\d{2}/;
const short = (oid: string | null) => (oid ? oid.slice(0, 7) : '-');

/** Add `playbook` (with its action) to `program`. */
export function playbookCommand(program: Command, ctx: CliContext): Command {
  return program
    .command('playbook')
    .description(
      'playbook entries by priority (filter by category or tag), or their change history from commit trailers',
    )
    .option('--category <name>', 'only this category')
    .option('--tag <tag>', 'only entries with this tag')
    .option('--all', 'include inactive (soft-deleted) entries')
    .option('--history', 'show the change history instead (from Memory-* trailers)')
    .addOption(new Option('--op <op>', 'history: only this operation').choices(['add', 'update', 'delete']))
    .option('--agent <name>', 'history: only changes by this agent')
    .option('--since <date>', 'history: only changes on or after YYYY-MM-DD')
    .option('--until <date>', 'history: only changes on or before YYYY-MM-DD')
    .action(
      async (o: {
        category?: string;
        tag?: string;
        all?: boolean;
        history?: boolean;
        op?: PlaybookChange['op'];
        agent?: string;
        since?: string;
        until?: string;
      }) => {
        for (const d of [o.since, o.until])
          if (d !== undefined && !DATE.test(d))
            throw new MemoryError('usage', `dates must be YYYY-MM-DD, got ${shownValue(d)}`);
        if (!o.history && (o.op || o.agent || o.since || o.until))
          throw new MemoryError('usage', '--op, --agent, --since and --until filter the history: add --history');
        if (o.history) {
          const rows = await withWorkspace(ctx, ({ memory, gitdir, workTree }) =>
            playbookHistory(memory.context, {
              git: { gitdir, workTree },
              ...(o.op ? { op: o.op } : {}),
              ...(o.agent ? { agent: o.agent } : {}),
              ...(o.since ? { since: o.since } : {}),
              ...(o.until ? { until: o.until } : {}),
            }),
          );
          if (ctx.json()) return printJson({ history: rows });
          if (!rows.length) return out('No playbook changes match.');
          for (const r of rows)
            out(
              `${yellow(short(r.commit))} ${r.date.slice(0, 10)} ${r.op.padEnd(6)} ${r.id ?? r.path} ${dim(`${r.agent}${r.reason ? ` — ${r.reason}` : ''}`)}`,
            );
          return;
        }
        const list = await withWorkspace(ctx, ({ memory }) =>
          listPlaybookEntries(memory.context, {
            ...(o.category ? { category: o.category } : {}),
            ...(o.tag ? { tag: o.tag } : {}),
            ...(o.all ? { includeInactive: true } : {}),
          }),
        );
        if (ctx.json()) return printJson({ entries: list });
        if (!list.length) return out('No playbook entries match.');
        for (const p of list) {
          out(
            `${bold(String(p.priority).padStart(2))} ${yellow(p.category)} ${p.id}${p.active ? '' : dim(' (inactive)')} ${dim(p.tags.map((t) => `#${t}`).join(' '))}`,
          );
          out(`   ${p.title}${p.supporting.length ? dim(` — ${p.supporting.length} supporting`) : ''}`);
        }
      },
    );
}
