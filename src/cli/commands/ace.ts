// The ACE commands (docs/DESIGN.md §6), one file each: complete-task, playbook, tags, files, context,
// dream, promote and reject, registered together in --help order. deps: cli (commands, context).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { GlobalOptions } from '../open-workspace.js';
import { completeTaskCommand } from './complete-task.js';
import { contextCommand } from './context.js';
import { dreamCommand, proposalCommands } from './dream.js';
import { filesCommand } from './files.js';
import { playbookCommand } from './playbook.js';
import { tagsCommand } from './tags.js';

/** Add the ACE commands to `program`. */
export function registerAceCommands(program: Command, ctx: CliContext, globals: () => GlobalOptions): void {
  completeTaskCommand(program, ctx);
  playbookCommand(program, ctx);
  tagsCommand(program, ctx);
  filesCommand(program, ctx);
  // `context` lives in cli/commands/context.ts (the process entry runs it without this module).
  contextCommand(program, globals);
  dreamCommand(program, ctx);
  proposalCommands(program, ctx);
}
