// The host client (dist/cli-host.cjs): the process entry (cli/entry.ts) runs it instead of the CLI
// bundle for a `recall` or `get` whose workspace has a host socket. It asks the host and prints the
// answer with only commander, the two read commands, the host client and the printer loaded (no
// workspace modules: the build stands in for cli/open-workspace.ts with a module that says "run cold").
// When the host does not answer, or the call cannot be hosted (--as-of, --branch, --lineage), it
// returns undefined and the entry runs the CLI bundle, whose host client is then not asked again
// (cli/host.ts markHostAsked). The same JSON either way; `--debug` says which path answered.
// deps: cli (program, commands/recall and get, host, exit), commander.
import { CommanderError } from 'commander';
import { endNow, onClosedOutput, reportFailure } from './exit.js';
import { markHostAsked } from './host.js';
import { getCommand } from './commands/get.js';
import { recallCommand } from './commands/recall.js';
import { baseProgram } from './program.js';

/** What the build's stand-in for cli/open-workspace.ts throws: this call runs in the CLI bundle. */
export const RUN_COLD = Symbol.for('gitmem.run-cold');

/**
 * Ask the host to answer `argv` (a `recall` or `get` call) and print its answer.
 * @returns the exit code once the call is answered (or failed in the host), else undefined: the
 * CLI bundle runs the call (parse errors and help included).
 */
export async function hostFirst(argv: readonly string[]): Promise<number | undefined> {
  const program = baseProgram().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const g = () => program.opts<{ dir?: string; json?: boolean; debug?: boolean; host?: boolean }>();
  let answered = false;
  const done = () => void (answered = true);
  recallCommand(program, g).hook('postAction', done);
  getCommand(program, g).hook('postAction', done);
  onClosedOutput('exit');
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
  } catch (e) {
    if (e === RUN_COLD) {
      markHostAsked();
      return undefined;
    }
    if (e instanceof CommanderError) return undefined;
    // A usage error, or the call failed in the host: reported as the CLI bundle would.
    const code = reportFailure(e, argv);
    endNow(code);
    return code;
  }
  if (!answered) return undefined;
  const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  endNow(code);
  return code;
}
