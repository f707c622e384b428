// `gitmem append <text…>`: add a `- HH:MM text` bullet to today's (or --date's) daily note. Atomic
// read-modify-write under a per-file lock; `--expect-hash` turns a concurrent change into a conflict
// (exit 1, code fs.conflict); `-` reads the text from standard input (cli/stdin-text.ts). Rendering only;
// behaviour lives in service/remember/daily.ts. deps: service, core, cli.
import type { Command } from 'commander';
import { withWorkspace, type CliContext } from '../context.js';
import { expectedHashOf, parseExpectHash } from '../options.js';
import { out, printJson } from '../output.js';
import { textFromStdin, wantsStdin } from '../stdin-text.js';

/** Add `append` to `program`. */
export function registerDailyCommands(program: Command, ctx: CliContext): void {
  program
    .command('append')
    .description("append a timestamped bullet to today's daily note (atomic, safe with concurrent writers)")
    .argument('<text...>', "what to note ('-' reads it from standard input)")
    .option('--date <date>', 'the daily note of this day (YYYY-MM-DD) instead of today')
    .option(
      '--expect-hash <hash>',
      'fail with a conflict unless the note still has this content hash ("none": must not exist)',
      parseExpectHash,
    )
    .action(async (words: string[], o: { date?: string; expectHash?: string }) => {
      const text = wantsStdin(words)
        ? await textFromStdin('append', 'npm test 2>&1 | tail -3 | gitmem append -')
        : words.join(' ');
      const res = await withWorkspace(ctx, async (opened) => {
        // Imported when called: a one-shot recall never loads the write path.
        const { appendDaily } = await import('../../service/remember/daily.js');
        return appendDaily(opened.memory.context, {
          text,
          ...(o.date !== undefined ? { date: o.date } : {}),
          ...expectedHashOf(o.expectHash),
        });
      });
      if (ctx.json()) printJson(res);
      else out(`Appended to ${res.path}:${res.line}`);
    });
}
