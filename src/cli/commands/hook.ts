// `gitmem hook` and its subcommands for agent lifecycle hooks. `hook prompt` lives in
// cli/commands/hook-prompt.ts, light on purpose: the process entry (cli/bin.ts) runs it without this module.
// deps: cli (hook-prompt, open-workspace types).
import type { Command } from 'commander';
import { hookPromptCommand } from './hook-prompt.js';
import type { GlobalOptions } from '../open-workspace.js';

/** Add `hook` and its subcommands to `program`; `globals` are the program's global options. */
export function registerHookCommands(program: Command, globals: () => GlobalOptions): void {
  const hook = program.command('hook').description('commands for agent lifecycle hooks');
  hookPromptCommand(hook, globals);
}
