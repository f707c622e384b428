// Registers every command that lives in its own module under cli/commands/ (in --help order, after
// main.ts's own). cli/main.ts imports this module only when argv may name one of these commands, so
// a one-shot recall or get never loads them (nor the git, ACE, state or sync code they import).
// deps: cli (commands, context).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { GlobalOptions } from '../open-workspace.js';
import { registerAceCommands } from './ace.js';
import { registerAuditCommands } from './audit.js';
import { registerDailyCommands } from './daily.js';
import { registerDedupeCommands } from './dedupe.js';
import { registerExportCommands } from './export.js';
import { registerGitCommands } from './git.js';
import { registerHookCommands } from './hook.js';
import { registerImportCommands } from './import.js';
import { registerIntegrateCommands } from './integrate.js';
import { registerLspCommands } from './lsp.js';
import { registerMcpCommands } from './mcp.js';
import { registerMoveCommands } from './mv.js';
import { registerReviewCommands } from './review.js';
import { registerSetupCommands } from './setup.js';
import { registerStateCommands } from './state.js';
import { registerSyncCommands } from './sync.js';
import { registerVerifyCommands } from './verify.js';
import { registerWatchCommands } from './watch.js';

export function registerCommands(program: Command, ctx: CliContext, g: () => GlobalOptions): void {
  registerGitCommands(program, ctx);
  registerDedupeCommands(program, ctx);
  registerAuditCommands(program, ctx);
  registerReviewCommands(program, ctx);
  registerWatchCommands(program, ctx);
  registerAceCommands(program, ctx, g);
  registerLspCommands(program, ctx);
  registerStateCommands(program, ctx);
  registerHookCommands(program, g);
  registerMcpCommands(program, ctx);
  registerDailyCommands(program, ctx);
  registerMoveCommands(program, ctx);
  registerSyncCommands(program, ctx);
  registerVerifyCommands(program, ctx);
  registerSetupCommands(program, ctx);
  registerIntegrateCommands(program, ctx);
  registerExportCommands(program, ctx);
  registerImportCommands(program, ctx);
}
