// `gitmem append <text…>`: add a `- HH:MM text` bullet to today's (or --date's) daily note. Atomic
// read-modify-write under a per-file lock; `--expect-hash` turns a concurrent change into a conflict
// (exit 1, code fs.conflict). Rendering only; behaviour lives in service/remember/daily.ts. deps: service, core.
import { MemoryError, shownValue } from '../../core/errors.js';
import type { Command } from 'commander';
import { withWorkspace, type CliContext } from '../context.js';
import { out, printJson } from '../output.js';

/** Add `append` to `program`. */
export function registerDailyCommands(program: Command, ctx: CliContext): void {
  program
    .command('append')
    .description("append a timestamped bullet to today's daily note (atomic, safe with concurrent writers)")
    .argument('<text...>', 'what to note')
    .option('--date <date>', 'the daily note of this day (YYYY-MM-DD) instead of today')
    .option(
      '--expect-hash <hash>',
      'fail with a conflict unless the note still has this content hash ("none": must not exist)',
    )
    .action(async (words: string[], o: { date?: string; expectHash?: string }) => {
      if (o.expectHash !== undefined && o.expectHash !== 'none' && !/^[0-9a-f]{64}$/.test(o.expectHash)) {
        throw new MemoryError(
          'usage',
          `--expect-hash takes a 64-digit hex content hash or "none", got ${shownValue(o.expectHash)}`,
        );
      }
      const res = await withWorkspace(ctx, (opened) =>
        opened.memory.appendDaily(words.join(' '), {
          ...(o.date !== undefined ? { date: o.date } : {}),
          ...(o.expectHash !== undefined ? { expectedHash: o.expectHash === 'none' ? null : o.expectHash } : {}),
        }),
      );
      if (ctx.json()) printJson(res);
      else out(`Appended to ${res.path}:${res.line}`);
    });
}
