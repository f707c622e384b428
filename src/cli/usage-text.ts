// What a flag-parser (commander) error may echo of the command line. Its messages quote the
// argument they reject (`unknown option '…'`, `argument '…' is invalid`), and a text that begins
// with `-` reads as an option: `gitmem remember "$(cat key.pem)"` answered with the whole private
// key, over several lines, on stderr and in the --json error. Here each quoted argument is cut to
// its first line and masked where the credential finder (core/secrets.ts) sees a secret or a long
// random-looking run, and such an argument gets a hint to put `--` before it.
// deps: core (secrets).
import { findSecretsInText } from '../core/secrets.js';

/** Longest part of one argument a message shows, in UTF-16 code units. */
const MAX_SHOWN = 60;

/** `arg` as a message may show it: one line, at most {@link MAX_SHOWN} characters, no credential. */
function shownArgument(arg: string): string {
  const firstLine = arg.split(/\r?\n|\r/, 1)[0]!;
  let shown = firstLine;
  const finding = findSecretsInText('argument', firstLine)[0];
  if (finding) shown = firstLine.slice(0, finding.column - 1) + finding.preview;
  shown = shown.replace(/[A-Za-z0-9]{16,}/g, (m) => `${m.slice(0, 4)}…`);
  if (shown.length > MAX_SHOWN) shown = `${shown.slice(0, MAX_SHOWN)}…`;
  else if (shown !== arg && !shown.endsWith('…')) shown += '…';
  return shown;
}

/** commander's messages that quote an argument: what comes before it, and what may follow it. */
const QUOTING: readonly RegExp[] = [
  /^(error: unknown (?:option|command) ')([^]*)('(?:\n\(Did you mean [^\n]*\?\))?)$/,
  /^(error: option '[^'\n]*' argument ')([^]*?)(' is invalid\.[^]*)$/,
  /^(error: command-argument value ')([^]*?)(' is invalid for argument [^]*)$/,
];

/**
 * A commander error message as gitmem prints it: the quoted argument shown by {@link shownArgument}
 * and every line break a space, so the message is one line that repeats no credential.
 */
export function safeUsageMessage(message: string): string {
  const oneLine = (s: string) => s.replace(/\r?\n|\r/g, ' ');
  for (const re of QUOTING) {
    const m = re.exec(message);
    if (m) return `${m[1]}${shownArgument(m[2]!)}${oneLine(m[3]!)}`;
  }
  return oneLine(message);
}

/** A hint when the rejected "option" is really text (it holds a space or a line break), else undefined. */
export function dashTextHint(message: string): string | undefined {
  const m = QUOTING[0]!.exec(message);
  if (!m || !m[1]!.includes('option') || !/\s/.test(m[2]!)) return undefined;
  return 'a text that starts with "-" is read as an option; put -- before the text (gitmem remember -- "-x …")';
}
