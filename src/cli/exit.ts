// How a failed CLI call ends: the message on stderr (and the error object on stdout under --json),
// and the exit code. One place for the process entry (cli/bin.ts) and the full program (cli/main.ts).
// Exit codes: 0 ok, 1 findings or operation failed, 2 usage error, 3 internal error; `sync`: 4 dirty
// tree, 5 conflict, 6 push rejected. Also how a one-shot read ends (quietly on a closed pipe, without
// waiting for V8), and what a closed stdout or stderr does to a command that writes (it finishes).
// deps: core (errors), commander (its error type).
import { CommanderError } from 'commander';
import { isMemoryError } from '../core/errors.js';
import { maskName } from '../core/secret-mask.js';
import { shownControls } from '../core/text.js';

/** Exit codes other than 1 for known errors (see the file comment). */
const EXIT_CODES: Partial<Record<string, number>> = {
  usage: 2,
  internal: 3,
  'git.dirty': 4,
  'git.conflict': 5,
  'git.push-rejected': 6,
};

/** Report `e` (thrown while running `argv`) and return the exit code. */
export function reportFailure(e: unknown, argv: readonly string[]): number {
  const wantsJson = argv.includes('--json');
  const debug = argv.includes('--debug');
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
    // `gitmem help` prints help and exits 0; a command group called without its subcommand (`gitmem
    // state`, `gitmem hook`, bare `gitmem`) gets its help on stderr and is a usage error (exit 2).
    if (e.code === 'commander.help') return e.exitCode === 0 ? 0 : missingSubcommand(argv, wantsJson);
    // commander already printed the message on stderr; a --json caller also gets the error object.
    if (wantsJson) {
      const message = maskName(e.message).replace(/^error: /, ''); // an argument it repeats (R144)
      process.stdout.write(`${JSON.stringify({ error: { code: 'usage', message } })}\n`);
    }
    return 2;
  }
  const known = isMemoryError(e);
  const code = known ? (EXIT_CODES[e.code] ?? 1) : 3;
  const message = known ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
  const hint = known ? e.hint : 'run again with --debug and report the stack trace';
  if (wantsJson)
    process.stdout.write(`${JSON.stringify({ error: known ? e.toJSON() : { code: 'internal', message } })}\n`);
  // A message can name a file or an id from memory: control characters shown as symbols (B48).
  process.stderr.write(`gitmem: error: ${shownControls(message)}\n`);
  if (hint) process.stderr.write(`  hint: ${shownControls(hint)}\n`);
  if (debug && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  return code;
}

/** A command group (or bare `gitmem`) called without a subcommand: commander printed its help on stderr. */
function missingSubcommand(argv: readonly string[], wantsJson: boolean): number {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--dir') i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  const which = words.length ? `'${words.join(' ')}' needs a subcommand` : 'no command given';
  const message = `${which} (see the list above, or run with --help)`;
  if (wantsJson) process.stdout.write(`${JSON.stringify({ error: { code: 'usage', message } })}\n`);
  process.stderr.write(`gitmem: error: ${message}\n`);
  return 2;
}

/**
 * What a closed stdout or stderr does (`gitmem recall x | head -1`, `gitmem remember … 2>&1 | head
 * -1`): nobody reads the rest, so from then on what is written to that stream is dropped (no EPIPE
 * error, no stack trace). With `then: 'exit'` (a one-shot read: recall, get) the process then ends
 * quietly with the status so far. With `then: 'finish'` (every other command) the command runs to its
 * end and its exit status is its own: a write that was under way, or not begun yet when the reader
 * went away, is made, and a failed one still exits non-zero (docs/bad-inputs.md R21). Before, any
 * closed stream ended the process with status 0 where it stood, so a warning printed before the write
 * meant exit 0 and nothing written.
 */
export function onClosedOutput(then: 'exit' | 'finish'): void {
  for (const stream of [process.stdout, process.stderr]) {
    const closed = (e: NodeJS.ErrnoException) => {
      dropWrites(stream);
      if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') return lost(stream, e, then);
      if (then === 'exit') process.exit(process.exitCode ?? 0);
    };
    stream.on('error', closed);
  }
}

/** The first write that failed for a reason other than a closed reader (ENOSPC, EIO), if any. */
let lostWrite: NodeJS.ErrnoException | undefined;

/**
 * A write to stdout or stderr failed for another reason than a reader that went away: a full disk
 * (`> /dev/full`: ENOSPC), a failing device (EIO). The output is lost, so the call did not do what
 * was asked: one line on stderr (when stdout failed), and exit 1 unless the status is already non-zero
 * (docs/bad-inputs.md R36). Before, a one-shot read exited 0 with nothing printed and every other
 * command died of an uncaught stack trace. A writing command still finishes its write (`finish`).
 */
function lost(stream: NodeJS.WriteStream, e: NodeJS.ErrnoException, then: 'exit' | 'finish'): void {
  if (!lostWrite && stream === process.stdout)
    process.stderr.write(`gitmem: error: could not write the output: ${e.message}\n`);
  lostWrite ??= e;
  process.exitCode = exitStatus(typeof process.exitCode === 'number' ? process.exitCode : 0);
  if (then === 'exit') process.exit(process.exitCode);
}

/** The exit status to end with: `code`, or 1 when it is 0 but output was lost (see {@link lost}). */
export function exitStatus(code: number): number {
  return code === 0 && lostWrite ? 1 : code;
}

/** Make every later write to `stream` a no-op that still calls its callback (so {@link endNow} ends). */
function dropWrites(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }) as typeof stream.write;
}

/**
 * End the process once stdout and stderr have taken everything written (an empty write's callback
 * runs after the writes before it). A one-shot read is done when its command returns (the workspace
 * disposed, any index save awaited), but left to itself Node then waits for V8's queued background
 * work (optimising compiles, concurrent GC) before it exits: 30-100 ms of nothing for a recall at
 * 10,000 files, more on a loaded machine. `exit` listeners (the code cache) still run.
 */
export function endNow(code: number): void {
  process.exitCode = exitStatus(code);
  // A failed write's callback runs before the stream's 'error' event: a lost answer is noted here.
  process.stdout.write('', (e?: NodeJS.ErrnoException | null) => {
    if (e && e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') lost(process.stdout, e, 'finish');
    process.stderr.write('', () => process.exit(exitStatus(code)));
  });
}
