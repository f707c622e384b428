// The full CLI program: argv → command → service call → output (exit codes: cli/exit.ts). The process
// entry is cli/bin.ts, which runs recall, get, hook prompt and context itself (cli/commands/recall.ts
// and get.ts own those actions); this module registers them too, for its help and parse errors. Each
// command is one file under cli/commands/: the ones here are registered statically (init, recall,
// get, remember, validate, index, doctor); every other through commands/register.ts, loaded only
// when argv may name one. The workspace (service, engine) is imported when a command opens it.
// deps: cli (commands, program, open-workspace, signals, exit).
import { Command, CommanderError } from 'commander';
import { doctorCommand } from './commands/doctor.js';
import { getCommand } from './commands/get.js';
import { indexCommand } from './commands/index-command.js';
import { initCommand } from './commands/init.js';
import { recallCommand } from './commands/recall.js';
import { rememberCommand } from './commands/remember.js';
import { validateCommand } from './commands/validate.js';
import { type CliContext } from './context.js';
import { reportFailure } from './exit.js';
import { discoverWorkspace } from '../platform/discover.js';
import { hookRefusal } from '../platform/workspace-guard.js';
import { type GlobalOptions, openWorkspace } from './open-workspace.js';
import { baseProgram, readCommandOf } from './program.js';
import { exitBetweenWrites } from './signals.js';
import { dashTextHint, safeUsageMessage } from './usage-text.js';

/** Commands that handle SIGINT / SIGTERM themselves (a clean stop that saves what they hold). */
const OWN_SIGNALS = new Set(['watch', 'index', 'mcp', 'lsp']);

/** `--if-workspace` outside a folder holding memory: the command is not run, exit 0. */
class NothingHere extends Error {}

/** How the program runs. */
export interface ProgramOptions {
  /** argv names recall or get: register only the commands of this module (see cli/commands/register.ts). */
  readonly readOnly?: boolean;
}

export async function buildProgram(programOptions: ProgramOptions = {}): Promise<Command> {
  // A parser error quotes what it rejects: one line, no credential (U42); set before any command
  // is added, since each takes the program's output settings when it is made.
  const program = baseProgram().configureOutput({
    outputError: (str, write) => {
      const message = safeUsageMessage(str.replace(/\n$/, ''));
      const hint = dashTextHint(str.replace(/\n$/, ''));
      write(`${message.replace(/^error: /, 'gitmem: error: ')}\n${hint ? `  hint: ${hint}\n` : ''}`);
    },
  });

  const g = () => program.opts<GlobalOptions>();
  const ctx: CliContext = {
    open: (options) => openWorkspace(g(), options),
    json: () => g().json === true,
    debug: () => g().debug === true,
    dir: () => g().dir,
  };

  initCommand(program, g);

  // The read commands run whole in the process entry (cli/bin.ts); here for help and parse errors.
  recallCommand(program, g);
  getCommand(program, g);

  rememberCommand(program, g);
  validateCommand(program, g);
  indexCommand(program, g);
  doctorCommand(program, g);

  // Every other command's module (and all it imports) is loaded only when argv may name one of them.
  if (!programOptions.readOnly) (await import('./commands/register.js')).registerCommands(program, ctx, g);
  return program;
}

/** Run the full CLI; resolves to the exit code. */
export async function main(argv: readonly string[], options: ProgramOptions = {}): Promise<number> {
  const program = await buildProgram({ readOnly: readCommandOf(argv) !== undefined, ...options });
  // Ctrl-C in a one-shot command ends it between writes, never with a lock file left (U22); the
  // long-running commands stop cleanly on their own.
  program.hook('preAction', (_program, action) => {
    // A hook installed for every project (`integrate --user`) runs in folders without memory too:
    // there it has nothing to do, says nothing and exits 0 (R111).
    const g = program.opts<GlobalOptions>();
    if (g.ifWorkspace && hookRefusal(discoverWorkspace(g.dir, process.cwd()))) throw new NothingHere();
    let top = action;
    while (top.parent && top.parent !== program) top = top.parent;
    if (!OWN_SIGNALS.has(top.name())) exitBetweenWrites();
  });
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof NothingHere) return 0;
    if (e instanceof CommanderError) e.message = safeUsageMessage(e.message);
    return reportFailure(e, argv);
  }
}
