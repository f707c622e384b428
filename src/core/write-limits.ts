// The size caps of what a write takes from a person or an agent, one owner for every interface (CLI,
// MCP, the language server, ACE, the SDK): a remembered entry's text, a daily-note bullet, a task's
// goal, result and feedback, and a working-state field or list item (U62). The use cases check them
// with checkWriteSize; the MCP schemas advertise the same numbers, and their argument check words a
// too-long value with tooLongMessage, so every path refuses with the same sentence. deps: core/errors.
import { MemoryError } from './errors.js';

/** Most characters (UTF-16 code units) of one written text: an entry, a daily bullet, a task's goal, result or feedback. */
export const MAX_TEXT_CHARS = 100_000;

/** Most characters of one working-state field or list item (objective, step, next, a decision, blocker or result). */
export const MAX_STATE_FIELD_CHARS = 4_000;

const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** `text is 100,001 characters, over the 100,000-character cap`. */
export function tooLongMessage(field: string, length: number, cap: number): string {
  return `${field} is ${grouped(length)} characters, over the ${grouped(cap)}-character cap`;
}

/**
 * @param field what the text is, as the message names it (`text`, `goal`, `objective`).
 * @throws MemoryError `usage` when `text` is longer than `cap`; nothing has been written.
 */
export function checkWriteSize(field: string, text: string, cap: number = MAX_TEXT_CHARS): void {
  if (text.length <= cap) return;
  throw new MemoryError('usage', tooLongMessage(field, text.length, cap), {
    data: { field, length: text.length, cap },
    hint:
      cap === MAX_STATE_FIELD_CHARS
        ? 'keep the working state short; put the details in an entry (gitmem remember) and name it here'
        : 'split it into smaller memories, or keep the long text in a file and link it (--file)',
  });
}
