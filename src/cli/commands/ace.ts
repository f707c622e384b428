// CLI commands for ACE (docs/DESIGN.md §6): complete-task, playbook, tags, files, context, dream, promote,
// reject. Rendering only; behaviour lives in service/ace/ace.ts. deps: service, core (cli layer).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { jsonParseProblem, MemoryError, shownValue } from '../../core/errors.js';
import { completeTask } from '../../service/ace/complete-task.js';
import { dream, promoteProposal, rejectProposal } from '../../service/ace/dream-proposals.js';
import {
  fileKnowledge,
  listPlaybookEntries,
  listTags,
  playbookHistory,
  type PlaybookChange,
} from '../../service/ace/knowledge-queries.js';
import { withWorkspace, type CliContext } from '../context.js';
import { contextCommand } from '../context-command.js';
import type { GlobalOptions } from '../open-workspace.js';
import { renderPossibleConflict, bold, cyan, dim, out, printJson, yellow, err, outText } from '../output.js';
import { readStdin } from '../stdin.js';

/** The task JSON from `--input <file>`, `--input -`, or piped stdin. */
async function readTask(input: string | undefined): Promise<unknown> {
  let text: string;
  if (input === undefined || input === '-') {
    if (input === undefined && process.stdin.isTTY) {
      throw new MemoryError('usage', 'no task given', {
        hint: 'gitmem complete-task --input task.json (or pipe the JSON on stdin)',
      });
    }
    text = await readStdin();
  } else {
    try {
      text = readFileSync(input, 'utf8');
    } catch (e) {
      // shownValue and the errno code: Node's message repeats the path raw, line breaks and all (T18).
      throw new MemoryError(
        'fs.not-found',
        `cannot read ${shownValue(input)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      );
    }
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new MemoryError('usage', `the task is not valid JSON: ${jsonParseProblem(e)}`, {
      hint: '{"goal": "...", "result": "...", "tool_usage": [...], "feedback": "..."}',
    });
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}/;
const short = (oid: string | null) => (oid ? oid.slice(0, 7) : '-');

/** Add the ACE commands to `program`. */
export function registerAceCommands(program: Command, ctx: CliContext, globals: () => GlobalOptions): void {
  program
    .command('complete-task')
    .description('turn a finished task into a typed, linked memory and playbook changes (each a commit in git)')
    .option('--input <file>', 'task JSON file, or - for stdin (default: stdin when piped)')
    .option('--no-commit', 'write the files but do not commit')
    .option('--force', 'commit even when possible secrets are found')
    .action(async (o: { input?: string; commit?: boolean; force?: boolean }) => {
      const task = await readTask(o.input);
      const res = await withWorkspace(ctx, ({ memory, gitdir, workTree }) =>
        completeTask(memory, { gitdir, workTree }, task, {
          ...(o.commit === false ? { commit: false } : {}),
          ...(o.force ? { force: true } : {}),
        }),
      );
      if (ctx.json()) return printJson(res);
      if (res.status === 'duplicate') {
        out(`Duplicate of ${res.duplicateOf} (${res.path}); nothing written.`);
        return;
      }
      out(`${bold('memory')}    ${res.memoryId} ${yellow(`[${res.type}]`)} → ${cyan(res.path)}`);
      renderPossibleConflict(res.possible_conflict, res.memoryId);
      if (res.tags.length) out(`${bold('tags')}      ${res.tags.join(', ')}`);
      for (const f of res.filesLinked)
        out(`${bold('file')}      ${f.path} ${dim(`${f.relation}${f.lines ? ` ${f.lines[0]}-${f.lines[1]}` : ''}`)}`);
      for (const i of res.insights) out(`${bold('insight')}   ${dim(i.kind)} ${i.text}`);
      for (const r of res.relatedPlaybook)
        out(`${bold('related')}   ${r.id}${r.supportingAdded ? dim(' (supporting += new memory)') : ''}`);
      for (const d of res.deltas) out(`${bold('playbook')}  ${d.op} ${d.id} ${dim(`${d.path} ${short(d.commit)}`)}`);
      for (const r of res.rejected) out(dim(`rejected  ${r.delta.op} ${r.delta.id}: ${r.reason}`));
      if (res.recall.degraded) err(`gitmem: note: ${res.recall.degraded}`);
      out(
        dim(
          res.commit
            ? `${res.commits.length} commit${res.commits.length === 1 ? '' : 's'}, HEAD ${short(res.commit)} (${res.tookMs.toFixed(0)} ms)`
            : `not committed (${res.tookMs.toFixed(0)} ms)`,
        ),
      );
    });

  program
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
            playbookHistory(
              memory,
              { gitdir, workTree },
              {
                ...(o.op ? { op: o.op } : {}),
                ...(o.agent ? { agent: o.agent } : {}),
                ...(o.since ? { since: o.since } : {}),
                ...(o.until ? { until: o.until } : {}),
              },
            ),
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
          listPlaybookEntries(memory, {
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

  program
    .command('tags')
    .description(
      'tags used by entries and playbook entries, with counts, and their description and category from tags.md (--json: {name, description, category, usageCount})',
    )
    .action(async () => {
      const tags = await withWorkspace(ctx, ({ memory }) => listTags(memory));
      if (ctx.json()) return printJson({ tags });
      if (!tags.length) return out('No tags yet.');
      for (const t of tags) {
        const about = [t.category ? `[${t.category}]` : '', t.description ?? ''].filter(Boolean).join(' ');
        out(
          `${String(t.count).padStart(4)}  ${t.tag} ${dim(`(${t.entries} entries, ${t.playbook} playbook)`)}${about ? `  ${about}` : ''}`,
        );
      }
    });

  program
    .command('files')
    .description('what memory knows about a code path: linked memories, playbook entries, related files')
    .argument('<path>', 'code file, folder or glob (workspace-relative)')
    .action(async (path: string) => {
      const k = await withWorkspace(ctx, ({ memory }) => fileKnowledge(memory, path));
      if (ctx.json()) return printJson(k);
      out(
        `${bold(k.path)}: ${k.counts.memories} memories, ${k.counts.playbook} playbook entries, ${k.counts.mentions} mentions, ${k.counts.relatedFiles} related files`,
      );
      for (const m of k.memories)
        out(
          `  ${yellow(`[${m.type ?? 'entry'}]`)} ${m.id} ${dim(`${m.relation}${m.lines ? ` ${m.lines.join('-')}` : ''}`)}`,
        );
      for (const p of k.playbook)
        out(`  ${yellow('[playbook]')} ${p.id} ${dim(`${p.category}, priority ${p.priority}, via ${p.via}`)}`);
      for (const m of k.mentions) out(`  ${cyan(`${m.path}:${m.line}`)} ${dim(m.text.slice(0, 100))}`);
      for (const f of k.relatedFiles) out(`  ${dim('related')} ${f.path} ${dim(`×${f.count}`)}`);
    });

  // `context` lives in cli/context-command.ts (the process entry runs it without this module).
  contextCommand(program, globals);

  program
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
        dream(
          memory,
          { gitdir, workTree },
          {
            exists: (p) => existsSync(join(root, p)),
            ...(o.staleDays !== undefined ? { staleDays: o.staleDays } : {}),
            ...(o.commit === false ? { commit: false } : {}),
          },
        ),
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
        const where = { gitdir, workTree };
        const options = { ...(o.commit === false ? { commit: false } : {}) };
        return verb === 'promote'
          ? promoteProposal(memory, where, id, options)
          : rejectProposal(memory, where, id, { ...options, ...(o.reason ? { reason: o.reason } : {}) });
      });
      if (ctx.json()) return printJson(res);
      if (res.diff) outText(res.diff.replace(/\n$/, ''));
      out(dim(`${res.id} ${res.status}${res.commit ? ` in ${short(res.commit)}` : ' (not committed)'}`));
    });
  }
}
