// `gitmem remember <text...>` (or `-`: the text from standard input): write a typed memory entry
// (deduplicated against entries of the same type; a possible contradiction is shown).
// deps: core, cli (open-workspace, output, options, stdin).
import { Option, type Command } from 'commander';
import { ENTRY_TYPES } from '../../core/document.js';
import { MemoryError } from '../../core/errors.js';
import { MAX_TEXT_CHARS } from '../../core/write-limits.js';
import { type GlobalOptions, open } from '../open-workspace.js';
import { collect } from '../options.js';
import { out, printJson, renderPossibleConflict } from '../output.js';
import { readStdin } from '../stdin.js';

/**
 * The text of `remember -`: standard input, read to its end but no further than a text over the cap
 * needs to be known as one (4 bytes a character, as UTF-8 can take), so the size cap of the argument
 * form applies (service/remember). @throws MemoryError `usage` when stdin is a terminal or empty.
 */
async function textFromStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new MemoryError('usage', 'remember -: standard input is a terminal, not piped text', {
      hint: 'pipe the text in (e.g. `git log -1 --format=%B | gitmem remember -`), or give it as arguments',
    });
  const text = await readStdin({ maxBytes: 4 * MAX_TEXT_CHARS + 4 });
  if (!text.trim()) throw new MemoryError('usage', 'remember -: nothing to remember: standard input was empty');
  return text;
}

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
      const text = words.length === 1 && words[0] === '-' ? await textFromStdin() : words.join(' ');
      const mem = await open(g());
      const res = await mem.remember({
        text,
        type: o.type,
        tags: o.tag,
        files: o.file,
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
