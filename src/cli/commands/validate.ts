// `gitmem validate [paths...]`: check front-matter, ids and links (and with --code the code memories
// cite); exits 1 when there are errors. deps: service (git-ops on demand), cli (open-workspace, output).
import type { Command } from 'commander';
import { type GlobalOptions, openWorkspace } from '../open-workspace.js';
import { printDiagnostics } from '../output.js';
import { workspacePathArgs } from '../path-args.js';

/** Add `validate` (with its action) to `program`; `g` gives the program's global options. */
export function validateCommand(program: Command, g: () => GlobalOptions): Command {
  return program
    .command('validate')
    .description('check front-matter, ids and links; exits 1 when there are errors')
    .argument('[paths...]', 'memory files to check (default: all)')
    .option('--code', 'also check the code memories cite (as `gitmem verify`): stale ones as memory.code.stale')
    .action(async (given: string[], o: { code?: boolean }) => {
      // Paths from the current folder, as a shell user means them (R63).
      const paths = workspacePathArgs(g().dir, given);
      const opened = await openWorkspace(g());
      const mem = opened.memory;
      // Imported when called: a one-shot recall never loads the validator.
      const { validate } = await import('../../service/validate/validate.js');
      const diags = await validate(mem.context, { paths, ...(o.code ? { code: true } : {}) });
      // A symlinked memory folder: what it does to git (R02), when the whole workspace is checked.
      if (!paths.length) {
        const { linkedFolderDiagnostics } = await import('../../service/git-ops/linked-folders.js');
        diags.push(...(await linkedFolderDiagnostics(mem, opened)));
      }
      printDiagnostics(diags, g().json);
    });
}
