// The process entry (dist/cli.js). A `recall` or `get` is first offered to the workspace's running
// host (gitmem watch, the language server, the MCP server) with only the read commands' parser and
// the host client loaded; the full CLI (cli/main.ts: every command, the workspace, the index) is
// imported only when no host answers, or for any other command. `hook prompt` and `context` (what
// agents call before every prompt and at the start of a task) run here whole: host first, then in
// this process with only the workspace modules they need. The JSON is the same either way;
// `--debug` says which path answered. deps: cli (read-commands, hook-prompt, context-command, host,
// exit), commander.
import { CommanderError } from 'commander';
import type { RecallResponse } from '../service/recall/types.js';
import type { GetResult } from '../service/files/get.js';
import { reportFailure } from './exit.js';
import { contextCommand } from './context-command.js';
import { callHost } from './host.js';
import { hookPromptCommand } from './hook-prompt.js';
import { showGet, showRecall } from './output.js';
import { baseProgram, getCommand, readCommandOf, recallCall, recallCommand } from './read-commands.js';

type Early = { readonly code: number } | { readonly hostAsked: boolean };

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
 * Ask the host, before the full CLI is loaded, when argv is a recall or get it may answer; run
 * `hook prompt` and `context` whole (host, else cold in this process).
 * @returns the exit code when this call is done (answered, or the host ran it and it failed), else
 * whether a host was asked (the full CLI then does not ask again). Parse errors and help are left to
 * the full CLI, which prints them.
 */
async function askHostFirst(argv: readonly string[]): Promise<Early> {
  const command = readCommandOf(argv) ?? entryCommandOf(argv);
  if (!command) return { hostAsked: false };
  const program = baseProgram().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const g = () => program.opts<{ dir?: string; json?: boolean; debug?: boolean; host?: boolean }>();
  const report = () =>
    g().debug === true ? (line: string) => void process.stderr.write(`gitmem: ${line}\n`) : undefined;
  let asked = false;
  let answered = false;
  // These two run whole in their action (host, else cold here); once it ran, the call is done.
  hookPromptCommand(program.command('hook'), g).hook('postAction', () => void (answered = true));
  contextCommand(program, g).hook('postAction', () => void (answered = true));
  recallCommand(program).action(async (words: string[], o: Record<string, unknown>) => {
    const call = recallCall(words, o);
    if (!call.hostable) return;
    asked = true;
    const hosted = await callHost(g().dir, g().host, 'recall', call.hostArgs, report());
    if (!hosted) return;
    showRecall(hosted.result as RecallResponse, g().json === true, hosted.host.kind);
    answered = true;
  });
  getCommand(program).action(async (ref: string) => {
    asked = true;
    const hosted = await callHost(g().dir, g().host, 'get', { ref }, report());
    if (!hosted) return;
    showGet(hosted.result as GetResult, g().json === true);
    answered = true;
  });
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return { hostAsked: false };
    // A usage error, or the host ran the call and it failed: reported as the full CLI would.
    return { code: reportFailure(e, argv) };
  }
  if (answered) return { code: typeof process.exitCode === 'number' ? process.exitCode : 0 };
  if (asked) report()?.('loading the full CLI for the cold path');
  return { hostAsked: asked };
}

// A closed stdout (`gitmem recall x | head -1`) or stderr ends the process quietly: nobody reads
// the rest. Every write to memory or derived state is done before output is printed, or atomic.
const quietOnEpipe = (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') process.exit(process.exitCode ?? 0);
  throw e;
};
process.stdout.on('error', quietOnEpipe);
process.stderr.on('error', quietOnEpipe);
const argv = process.argv.slice(2);
askHostFirst(argv)
  .then(async (early) =>
    'code' in early ? early.code : (await import('./main.js')).main(argv, { hostAsked: early.hostAsked }),
  )
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`gitmem: internal error: ${(e as Error)?.message ?? e}\n`);
      process.exitCode = 3;
    },
  );
