// `gitmem remember <text...>` (or `-`: the text from standard input): write a typed memory entry
// (deduplicated against entries of the same type; a possible contradiction is shown).
// deps: core, cli (open-workspace, output, options, stdin-text).
import { Option, type Command } from 'commander';
import { ENTRY_TYPES } from '../../core/document.js';
import { type GlobalOptions, open } from '../open-workspace.js';
import { collect } from '../options.js';
import { out, printJson, renderPossibleConflict } from '../output.js';
import { textFromStdin, wantsStdin } from '../stdin-text.js';
import { workspacePathArgs } from '../path-args.js';

/** Add `remember` (with its action) to `program`; `g` gives the program's global options. */
export function rememberCommand(program: Command, g: () => GlobalOptions): Command {
  return program
    .command('remember')
    .description('write a typed memory entry (deduplicated against entries of the same type)')
    .argument('<text...>', "the memory ('-' reads it from standard input)")
    .addOption(
      new Option('--type <type>', 'memory type').choices(ENTRY_TYPES as unknown as string[]).default('learning'),
    )
    .option('--tag <tag>', 'tag (repeatable, comma-separated)', collect)
    .option('--file <path>', 'code file the memory is about (repeatable)', collect)
    .option('--title <title>', 'title (default: the first words of the text)')
    .action(async (words: string[], o: Record<string, any>) => {
      const text = wantsStdin(words)
        ? await textFromStdin('remember', 'git log -1 --format=%B | gitmem remember -')
        : words.join(' ');
      const mem = await open(g());
      // Imported when called: a one-shot recall never loads the write path.
      const { remember } = await import('../../service/remember/remember.js');
      const res = await remember(mem.context, {
        text,
        type: o.type,
        tags: o.tag,
        // Code paths from the current folder, as a shell user means them (R63).
        files: o.file ? workspacePathArgs(g().dir, o.file as string[], 'code') : undefined,
        title: o.title,
      });
      if (g().json) printJson(res);
      else if (res.status === 'duplicate') out(`Duplicate of ${res.duplicateOf} (${res.path}); nothing written.`);
      else {
        out(`Remembered ${res.id} → ${res.path}`);
        renderPossibleConflict(res.possible_conflict, res.id);
      }
    });
}
