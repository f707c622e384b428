// `gitmem lsp --stdio`: run the language server on stdin/stdout. The server module is imported only
// when the command runs, so its stdout guard never touches other commands' output.
// deps: server/main.ts (the process entry; the one cli → server import), core.
import type { Command } from 'commander';
import { MemoryError } from '../../core/errors.js';
import type { CliContext } from '../context.js';

/** Add `lsp` to `program`. */
export function registerLspCommands(program: Command, _ctx: CliContext): void {
  program
    .command('lsp')
    .description('run the language server (LSP) over stdio, for editors')
    .option('--stdio', 'talk LSP over stdin/stdout (the only transport)')
    .allowUnknownOption(true) // editors append --clientProcessId=… and the like
    .action(async (o: { stdio?: boolean }) => {
      if (!o.stdio) throw new MemoryError('usage', 'gitmem lsp needs --stdio', { hint: 'gitmem lsp --stdio' });
      const { startServer } = await import('../../server/main.js');
      startServer();
      // Keep the command pending: the server ends the process on `exit` or when stdin closes.
      await new Promise<never>(() => undefined);
    });
}
