// The git-native memory commands, `checkpoint`, `log` and `diff`, one file each (commands/checkpoint.ts,
// log.ts, diff.ts), registered together in --help order. deps: cli (commands, context).
import type { Command } from 'commander';
import type { GitCommandContext } from '../context.js';
import { checkpointCommand } from './checkpoint.js';
import { diffCommand } from './diff.js';
import { logCommand } from './log.js';

export type { GitCommandContext } from '../context.js';

/** Add `checkpoint`, `log` and `diff` to `program`. */
export function registerGitCommands(program: Command, ctx: GitCommandContext): void {
  checkpointCommand(program, ctx);
  logCommand(program, ctx);
  diffCommand(program, ctx);
}
