// `gitmem tags`: the tags in use, with counts (service/ace/knowledge-queries.ts).
// Rendering only. deps: service, core, cli.
import { type Command } from 'commander';
import { listTags } from '../../service/ace/knowledge-queries.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, out, printJson } from '../output.js';

/** Add `tags` (with its action) to `program`. */
export function tagsCommand(program: Command, ctx: CliContext): Command {
  return program
    .command('tags')
    .description(
      'tags used by entries and playbook entries, with counts, and their description and category from tags.md (--json: {name, description, category, usageCount})',
    )
    .action(async () => {
      const tags = await withWorkspace(ctx, ({ memory }) => listTags(memory.context));
      if (ctx.json()) return printJson({ tags });
      if (!tags.length) return out('No tags yet.');
      for (const t of tags) {
        const about = [t.category ? `[${t.category}]` : '', t.description ?? ''].filter(Boolean).join(' ');
        out(
          `${String(t.count).padStart(4)}  ${t.tag} ${dim(`(${t.entries} entries, ${t.playbook} playbook)`)}${about ? `  ${about}` : ''}`,
        );
      }
    });
}
