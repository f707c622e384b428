// `gitmem dedupe [--apply]`: list (or mark) typed entries that repeat an earlier one. Rendering only;
// behaviour lives in service/remember/dedupe.ts. deps: service, core (cli layer).
import type { Command } from 'commander';
import { dedupeWorkspace } from '../../service/remember/dedupe.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, out, printJson } from '../output.js';

/** Add `dedupe` to `program`. */
export function registerDedupeCommands(program: Command, ctx: CliContext): void {
  program
    .command('dedupe')
    .description(
      'find entries that repeat an earlier entry of the same type; --apply marks them duplicate_of (hidden from recall)',
    )
    .option('--apply', 'write duplicate_of into each duplicate (one front-matter line; review with git diff)')
    .action(async (o: { apply?: boolean }) => {
      const res = await withWorkspace(ctx, ({ memory }) =>
        dedupeWorkspace(memory.context, { apply: o.apply === true }),
      );
      if (ctx.json()) printJson(res);
      else {
        if (res.findings.length === 0) out('No duplicates found.');
        for (const f of res.findings) {
          out(
            `${f.path} duplicates ${f.duplicateOfPath} ${dim(`(${f.reason}${f.reason !== 'same-text' ? ` ${f.similarity}` : ''})`)}`,
          );
        }
        if (res.findings.length)
          out(
            o.apply
              ? `Marked ${res.applied} entr${res.applied === 1 ? 'y' : 'ies'} duplicate_of.`
              : dim('Dry run: add --apply to mark them.'),
          );
      }
    });
}
