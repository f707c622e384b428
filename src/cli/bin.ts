// The process entry (dist/cli.cjs). `recall` and `get` (what hooks and agents call on every turn),
// `hook prompt` and `context` run here whole, with only their modules, commander and the host client
// loaded: a running host (gitmem watch, the language server, the MCP server) answers, else the call
// runs in this process with only the workspace modules it imports on demand. The full CLI
// (cli/main.ts: every other command, help and parse errors) is imported for anything else. The JSON
// is the same either way; `--debug` says which path answered.
// deps: cli (program, commands/recall, get, hook-prompt, context, exit), commander.
import { CommanderError } from 'commander';
import { endNow, exitStatus, onClosedOutput, reportFailure } from './exit.js';
import { contextCommand } from './commands/context.js';
import { getCommand } from './commands/get.js';
import { hookPromptCommand } from './commands/hook-prompt.js';
import { recallCommand } from './commands/recall.js';
import { baseProgram, readCommandOf } from './program.js';

/** `hook prompt` or `context` when argv names one (the words before it are global options). */
function entryCommandOf(argv: readonly string[]): 'hook prompt' | 'context' | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') return undefined;
    if (a === '--dir' && !words.length) i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  if (words[0] === 'context') return 'context';
  return words[0] === 'hook' && words[1] === 'prompt' ? 'hook prompt' : undefined;
}

/**
 * Run `recall`, `get`, `hook prompt` or `context` whole when argv names one (host first, else in
 * this process).
 * @returns the exit code when this call is done (run, or it failed), else undefined: the full CLI
 * runs it. Parse errors and help are left to the full CLI, which prints them.
 */
async function runEntryCommand(argv: readonly string[]): Promise<number | undefined> {
  const command = readCommandOf(argv) ?? entryCommandOf(argv);
  if (!command) return undefined;
  const program = baseProgram().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const g = () => program.opts<{ dir?: string; json?: boolean; debug?: boolean; host?: boolean }>();
  let answered = false;
  const done = () => void (answered = true);
  hookPromptCommand(program.command('hook'), g).hook('postAction', done);
  contextCommand(program, g).hook('postAction', done);
  recallCommand(program, g).hook('postAction', done);
  getCommand(program, g).hook('postAction', done);
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return undefined;
    // A usage error, or the call failed (in a host or here): reported as the full CLI would.
    return reportFailure(e, argv);
  }
  return answered ? (typeof process.exitCode === 'number' ? process.exitCode : 0) : undefined;
}

const argv = process.argv.slice(2);
const read = readCommandOf(argv);
// A closed stdout or stderr ends a recall or get at once; every other command finishes (R21).
onClosedOutput(read !== undefined ? 'exit' : 'finish');
runEntryCommand(argv)
  .then(async (code) => {
    if (code !== undefined && read !== undefined) return endNow(code);
    return code ?? (await import('./main.js')).main(argv);
  })
  .then(
    (code) => {
      if (code !== undefined) process.exitCode = exitStatus(code);
    },
    (e) => {
      process.stderr.write(`gitmem: internal error: ${(e as Error)?.message ?? e}\n`);
      process.exitCode = 3;
    },
  );
