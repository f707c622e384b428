// `gitmem import <source> [PATH] [--dry-run]`: bring the memories Claude Code or Codex kept outside the
// repository into the workspace as entries (deduplicated, secret-scanned, left uncommitted for
// review) and print what came from where. Rendering only; the use case is service/import/import.ts.
// deps: service (import), core (errors), cli (context, output).
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { MemoryError } from '../../core/errors.js';
import { importMemories } from '../../service/import/import.js';
import { defaultSourceDir, IMPORT_SOURCES, type ImportSource } from '../../service/import/sources.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, out, printJson, yellow } from '../output.js';

/** Add `import` to `program`. */
export function registerImportCommands(program: Command, ctx: CliContext): void {
  program
    .command('import')
    .description(
      'bring the memories an agent kept outside the repository into the workspace as entries: deduplicated, secret-scanned, left uncommitted for review; the source is only read',
    )
    .argument('<source>', `whose memory: ${IMPORT_SOURCES.join(', ')}`)
    .argument(
      '[path]',
      "the memory folder (default: Claude Code's ~/.claude/projects/<project>/memory, Codex's $CODEX_HOME/memories or ~/.codex/memories)",
    )
    .addOption(new Option('--dry-run', 'print what would be imported and what is already here; write nothing'))
    .action(async (source: string, path: string | undefined, o: { dryRun?: boolean }) => {
      if (!(IMPORT_SOURCES as readonly string[]).includes(source))
        throw new MemoryError('usage', `unknown import source "${source.slice(0, 40)}"`, {
          hint: `one of: ${IMPORT_SOURCES.join(', ')}`,
        });
      const r = await withWorkspace(ctx, (opened) => {
        const dir =
          path !== undefined
            ? resolve(path)
            : defaultSourceDir(
                source as ImportSource,
                opened.workTree ?? opened.root,
                homedir(),
                process.env.CODEX_HOME || undefined,
              );
        return importMemories(opened.memory.context, {
          source: source as ImportSource,
          dir,
          dryRun: o.dryRun === true,
        });
      });
      if (ctx.json()) return printJson(r);
      out(dim(`from ${r.from}`));
      const verb = {
        created: 'created',
        'would-create': 'would add',
        duplicate: 'already',
        withheld: 'withheld',
        skipped: 'skipped',
      } as const;
      for (const i of r.items) {
        const from = `${i.file}:${i.line}`;
        const line =
          i.status === 'withheld' || i.status === 'skipped'
            ? `${verb[i.status].padEnd(9)} ${from}: ${i.reason}`
            : `${verb[i.status].padEnd(9)} ${i.path ?? i.title}  ← ${from}`;
        out(i.status === 'withheld' ? yellow(line) : line);
      }
      for (const s of r.skipped) out(dim(`skipped   ${s}`));
      const created = r.items.filter((i) => i.status === 'created' || i.status === 'would-create').length;
      const dup = r.items.filter((i) => i.status === 'duplicate').length;
      if (o.dryRun) out(dim(`Dry run: ${created} would be added, ${dup} already here; nothing written.`));
      else if (created)
        out(
          dim(
            `${created} added, ${dup} already here${r.daily ? `; noted in ${r.daily}` : ''}. Left uncommitted: review them (gitmem review, git diff), then gitmem checkpoint.`,
          ),
        );
      else out(dim(`Nothing new: ${dup} already here.`));
    });
}
