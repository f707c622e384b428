// `gitmem files <path>`: what memory knows about a code file (service/ace/knowledge-queries.ts).
// Rendering only. deps: service, core, cli.
import { type Command } from 'commander';
import { fileKnowledge } from '../../service/ace/knowledge-queries.js';
import { withWorkspace, type CliContext } from '../context.js';
import { bold, cyan, dim, out, printJson, yellow } from '../output.js';
import { workspacePathArg } from '../path-args.js';

/** Add `files` (with its action) to `program`. */
export function filesCommand(program: Command, ctx: CliContext): Command {
  return program
    .command('files')
    .description('what memory knows about a code path: linked memories, playbook entries, related files')
    .argument('<path>', 'code file, folder or glob (workspace-relative)')
    .action(async (given: string) => {
      // A path or glob from the current folder, as a shell user means it (R63).
      const path = given.trim() ? workspacePathArg(ctx.dir(), given, 'code') : given;
      const k = await withWorkspace(ctx, ({ memory }) => fileKnowledge(memory.context, { path }));
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
}
