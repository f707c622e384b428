// The text of a write command given as `-`: standard input, bounded, never a terminal or empty
// (`gitmem remember -`, `gitmem append -`). deps: core, cli (stdin).
import { MemoryError } from '../core/errors.js';
import { MAX_TEXT_CHARS } from '../core/write-limits.js';
import { readStdin } from './stdin.js';

/** The words of a `<text...>` argument that ask for standard input: `-` alone. */
export function wantsStdin(words: readonly string[]): boolean {
  return words.length === 1 && words[0] === '-';
}

/**
 * Standard input as the text of `command -`, read to its end but no further than a text over the
 * size cap needs to be known as one (4 bytes a character, as UTF-8 can take), so the size cap of the
 * argument form applies in the use case.
 * @param command the command's name ("remember"), for messages.
 * @param example a piped use of the command, for the hint.
 * @throws MemoryError `usage` (exit 2) when stdin is a terminal or holds only whitespace: nothing is written.
 */
export async function textFromStdin(command: string, example: string): Promise<string> {
  if (process.stdin.isTTY)
    throw new MemoryError('usage', `${command} -: standard input is a terminal, not piped text`, {
      hint: `pipe the text in (e.g. \`${example}\`), or give it as arguments`,
    });
  const text = await readStdin({ maxBytes: 4 * MAX_TEXT_CHARS + 4 });
  if (!text.trim()) throw new MemoryError('usage', `${command} -: nothing to ${command}: standard input was empty`);
  return text;
}
