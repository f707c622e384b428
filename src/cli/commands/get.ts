// `gitmem get <ref>`: a memory by id, or a file with an optional line range — a running host answers
// (masked, as agents are shown memory), else this process (cli/open-workspace.ts, imported only then).
// The process entry (cli/bin.ts) runs it whole; the full program registers it for help and parse errors.
// deps: service (types), cli (host, output; open-workspace on the cold path).
import type { Command } from 'commander';
import type { GetResult } from '../../service/files/get.js';
import { callHost, hostReport } from '../host.js';
import type { GlobalOptions } from '../open-workspace.js';
import { showGet } from '../output.js';
import { workspacePathArg } from '../path-args.js';

/** Add `get` (with its action) to `program`; `globals` are the program's global options. */
export function getCommand(program: Command, globals: () => GlobalOptions): Command {
  return program
    .command('get')
    .description('print a memory by id, or a file with an optional line range: path[:start[-end]]')
    .argument('<ref>', 'entry id or path[:start[-end]]')
    .option('--reveal', 'the text as written (secrets unmasked, no labels), read from the file; never for agents')
    .action(async (given: string, o: { reveal?: boolean }) => {
      const g = globals();
      // A path from the current folder, as a shell user means it (R63).
      const ref = workspacePathArg(g.dir, given);
      // A host answers only as agents are shown memory (masked); --reveal reads the file here.
      const hosted = o.reveal ? undefined : await callHost(g.dir, g.host, 'get', { ref }, hostReport(g));
      const res = hosted
        ? (hosted.result as GetResult)
        : await (await import('../open-workspace.js')).coldGet(g, ref, o.reveal === true);
      showGet(res, g.json === true);
    });
}
