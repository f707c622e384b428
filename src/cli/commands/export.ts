// `gitmem export <target> [--dry-run] [--remove] [--max-lines n] [--max-bytes n]`: write the memory a
// host always loads into its always-loaded file (AGENTS.md, CLAUDE.md, Cursor's rule, Copilot's
// instructions), packed to the host's limit, and say what did not fit. Rendering only; the use case
// is service/export/export.ts. deps: service (export), core (errors), cli (context, output).
import { Option, type Command } from 'commander';
import { MemoryError } from '../../core/errors.js';
import { exportMemory } from '../../service/export/export.js';
import { budgetWords, EXPORT_TARGETS, HOST_FILES, type ExportTarget } from '../../service/export/targets.js';
import { EditError } from '../../service/integrate/edits.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, out, printJson, yellow } from '../output.js';

function positive(flag: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1)
      throw new MemoryError('usage', `${flag} takes a whole number above 0, not "${v.slice(0, 20)}"`);
    return n;
  };
}

/** Add `export` to `program`. */
export function registerExportCommands(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description(
      "write the memory a host always loads (the working state, MEMORY.md's first items, how to ask for more) as a block in its always-loaded file, packed to the host's limit",
    )
    .argument(
      '<target>',
      `where: ${EXPORT_TARGETS.map((t) => `${t} (${HOST_FILES[t].path}, ${HOST_FILES[t].limit})`).join(', ')}`,
    )
    .addOption(new Option('--dry-run', 'print the diff; write nothing'))
    .option('--remove', "take gitmem's block out of the file (deleted when nothing else is left in it)")
    .option('--max-lines <n>', "lines the host loads, instead of the host's documented limit", positive('--max-lines'))
    .option(
      '--max-bytes <n>',
      "UTF-8 bytes the host loads, instead of the host's documented limit",
      positive('--max-bytes'),
    )
    .action(async (target: string, o: { dryRun?: boolean; remove?: boolean; maxLines?: number; maxBytes?: number }) => {
      if (!(EXPORT_TARGETS as readonly string[]).includes(target))
        throw new MemoryError('usage', `unknown export target "${target.slice(0, 40)}"`, {
          hint: `one of: ${EXPORT_TARGETS.join(', ')}`,
        });
      const r = await withWorkspace(ctx, async (opened) => {
        try {
          return await exportMemory(opened.memory.context, {
            target: target as ExportTarget,
            root: opened.root,
            dryRun: o.dryRun === true,
            remove: o.remove === true,
            budget: {
              ...(o.maxLines !== undefined ? { maxLines: o.maxLines } : {}),
              ...(o.maxBytes !== undefined ? { maxBytes: o.maxBytes } : {}),
            },
          });
        } catch (e) {
          if (e instanceof EditError) throw new MemoryError('fs.write-failed', e.message);
          throw e;
        }
      });
      if (ctx.json()) return printJson(r);
      if (o.dryRun && r.diff) out(r.diff.replace(/\n$/, ''));
      const verb = { create: 'created', update: 'updated', unchanged: 'unchanged', delete: 'deleted' }[r.action];
      if (!o.dryRun) out(`${verb.padEnd(9)} ${r.path}`);
      if (!o.remove) {
        out(
          dim(
            `${r.host} loads ${budgetWords(r.budget)} of ${r.path}; it holds ${r.lines} lines, ${r.bytes} bytes: ` +
              `${r.stateIncluded ? 'the working state and ' : ''}${r.included} of ${r.items} MEMORY.md items`,
          ),
        );
        for (const m of r.masked)
          out(yellow(`masked    ${m.path}:${m.line}: a suspected secret (${m.rule}), redacted in the block`));
        for (const l of r.leftOut) out(`left out  ${l.path}:${l.line}: ${l.preview}`);
        if (r.withheld) out(yellow(`left out  ${r.withheld}`));
        if (r.overWithoutBlock)
          out(yellow(`note: ${r.path} is over what ${r.host} loads even without gitmem's block; shorten it`));
      }
      if (o.dryRun)
        out(
          dim(
            `Dry run: ${r.action === 'unchanged' ? 'nothing would change' : `${r.path} would be ${verb}`}; nothing written.`,
          ),
        );
    });
}
