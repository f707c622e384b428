// The global options and the two read commands a running host can answer (`recall`, `get`): their
// arguments, checks and their one action each — a running host answers, else the call runs in this
// process (cli/open-workspace.ts, imported only then); cli/output.ts prints the answers. The process entry (cli/bin.ts) runs them whole, before the rest of the CLI is loaded; the
// full program (cli/main.ts) registers the same commands for its help and parse errors.
// deps: core, service (types, shared inputs), host (protocol), cli (options, host, output; open-workspace
// on the cold path).
import { Command, Option } from 'commander';
import { MemoryError, shownValue } from '../core/errors.js';
import { recallArgs } from '../host/protocol.js';
import type { GetResult } from '../service/files/get.js';
import { recallOptionsOf } from '../service/recall/request.js';
import type { RecallOptions, RecallResponse } from '../service/recall/types.js';
import { checkRecallRequest, isCalendarDate } from '../service/shared/inputs.js';
import { callHost, hostReport } from './host.js';
import type { GlobalOptions } from './open-workspace.js';
import { collect, parseBudget, parseLimit } from './options.js';
import { showGet, showRecall } from './output.js';

import { VERSION } from './version.js';

/** Longest recall query the CLI accepts, in UTF-16 code units. */
const MAX_CLI_QUERY_CHARS = 8192;

/** The program with gitmem's name, version and global options (no commands yet). */
export function baseProgram(): Command {
  return (
    new Command()
      .name('gitmem')
      .description('Offline, git-native, file-first memory for coding agents and the developers who work with them.')
      .version(VERSION, '-V, --version')
      .option('--dir <path>', 'workspace root (default: the git work tree around the current folder)')
      .option('--json', 'machine-readable JSON output')
      .option('--debug', 'verbose logs and stack traces on errors')
      .option(
        '--no-host',
        'do not ask a running gitmem watch / language server / MCP server; do the work in this process',
      )
      .showHelpAfterError('  hint: run with --help for usage')
      // Parser errors read like every other error (`gitmem: error: …`), not commander's bare `error: …`.
      .configureOutput({ outputError: (str, write) => write(str.replace(/^error: /, 'gitmem: error: ')) })
      .exitOverride()
  );
}

/** The commands a host may answer; the first word of argv that is not an option names the command. */
export function readCommandOf(argv: readonly string[]): 'recall' | 'get' | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return undefined;
    if (a === '--dir') i++;
    else if (!a.startsWith('-')) return a === 'recall' || a === 'get' ? a : undefined;
  }
  return undefined;
}

/** Add `recall` (with its action) to `program`; `globals` are the program's global options. */
export function recallCommand(program: Command, globals: () => GlobalOptions): Command {
  return program
    .command('recall')
    .description(
      'find memories by meaning and keyword (hybrid: BM25 and embedding scores, each normalised by its best hit, fused)',
    )
    .argument('<query...>', 'what to look for')
    .addOption(new Option('--mode <mode>', 'recall mode').choices(['keyword', 'vector', 'hybrid']).default('hybrid'))
    .option('--type <type>', 'only entries of this type (repeatable, comma-separated)', collect)
    .option('--tag <tag>', 'only memories with this tag (repeatable)', collect)
    .addOption(new Option('--kind <kind>', 'only this document kind (repeatable)').argParser(collect))
    .option('--file <glob>', 'only entries linked to code files matching this glob')
    .option('--since <date>', 'only memories dated on or after YYYY-MM-DD')
    .option('--until <date>', 'only memories dated on or before YYYY-MM-DD')
    .option('--limit <n>', 'number of results (default 10, max 50)', parseLimit)
    .option('--all', 'include superseded, archived and duplicate memories')
    .option(
      '--history',
      'every version of a rule or fact restated in later notes, oldest first (the block lists notes by date)',
    )
    .option('--explain', "show each result's keyword and vector rank and score")
    .option('--as-of <rev>', 'search memory as it was at a commit (read from git; work tree untouched)')
    .option(
      '--branch <name>',
      'search memory as it is on another branch (local or remote-tracking, e.g. origin/main); no checkout',
    )
    .option('--lineage', "add the commit that last changed each result's lines (git repositories)")
    .option(
      '--budget <bytes>',
      'print a "### Recalled Context" block for a prompt, at most this many UTF-8 bytes',
      parseBudget,
    )
    .option('--agent <name>', 'only memories written by this agent (entry source.agent)')
    .option('--context <lines>', 'add this many lines around each evidence span (JSON contextSpan)', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 50)
        throw new MemoryError('usage', `--context must be a whole number of lines 0-50, got ${shownValue(v)}`);
      return n;
    })
    .option(
      '--now <date>',
      'the day relative dates in the query ("last week", "in May") are resolved against, YYYY-MM-DD (default today)',
    )
    .option(
      '--reveal',
      "show each result's lines as written in the file (secrets unmasked, no labels); never for agents",
    )
    .action(async (words: string[], o: Record<string, any>) => {
      const g = globals();
      const call = recallCall(words, o);
      // A running host (watch, language server, MCP server) answers plain reads from its fresh index.
      const hosted = call.hostable ? await callHost(g.dir, g.host, 'recall', call.hostArgs, hostReport(g)) : undefined;
      if (hosted) return showRecall(hosted.result as RecallResponse, g.json === true, hosted.host.kind);
      const { coldRecall } = await import('./open-workspace.js');
      showRecall(await coldRecall(g, call, o), g.json === true);
    });
}

/** A checked recall call: the query, its options, and whether a host may answer it. */
export interface RecallCall {
  readonly query: string;
  readonly options: RecallOptions;
  /** False with --branch, --as-of, --lineage (those read git) or --reveal (reads the files): those run in this process. */
  readonly hostable: boolean;
  /** The request a host is sent. */
  readonly hostArgs: Record<string, unknown>;
}

/**
 * `recall`'s words and parsed options → the call. Types, kinds and dates are checked by the
 * service (service/shared/inputs.ts), the same for every interface.
 * @throws MemoryError `usage` for a bad --now, an over-long query, or --branch with --as-of.
 */
function recallCall(words: string[], o: Record<string, any>): RecallCall {
  if (o.now !== undefined && !isCalendarDate(o.now))
    throw new MemoryError('usage', `--now must be a real date as YYYY-MM-DD, got ${shownValue(o.now)}`);
  const options = recallOptionsOf('cli', o);
  // Flag dates and filters are refused here, before a host is asked or the workspace opened (T10);
  // in-query filters are checked by the service before it loads anything.
  checkRecallRequest(options);
  const query = words.join(' ');
  // The embedder reads 256 word-pieces and keyword recall 64 terms; a huge argv also exhausts the
  // native stack of the ONNX runtime in this process (seen as SIGSEGV), so refuse it clearly.
  if (query.length > MAX_CLI_QUERY_CHARS) {
    throw new MemoryError('usage', `the query is ${query.length} characters; the limit is ${MAX_CLI_QUERY_CHARS}`, {
      hint: 'recall with the few words that matter; long texts belong in `gitmem remember`',
    });
  }
  if (o.branch !== undefined && o.asOf !== undefined)
    throw new MemoryError('usage', '--branch and --as-of both name a revision; give one');
  const hostable = o.branch === undefined && o.asOf === undefined && !o.lineage && !o.reveal;
  return { query, options, hostable, hostArgs: recallArgs(query, options as Record<string, unknown>) };
}

/** Add `get` (with its action) to `program`; `globals` are the program's global options. */
export function getCommand(program: Command, globals: () => GlobalOptions): Command {
  return program
    .command('get')
    .description('print a memory by id, or a file with an optional line range: path[:start[-end]]')
    .argument('<ref>', 'entry id or path[:start[-end]]')
    .option('--reveal', 'the text as written (secrets unmasked, no labels), read from the file; never for agents')
    .action(async (ref: string, o: { reveal?: boolean }) => {
      const g = globals();
      // A host answers only as agents are shown memory (masked); --reveal reads the file here.
      const hosted = o.reveal ? undefined : await callHost(g.dir, g.host, 'get', { ref }, hostReport(g));
      const res = hosted
        ? (hosted.result as GetResult)
        : await (await import('./open-workspace.js')).coldGet(g, ref, o.reveal === true);
      showGet(res, g.json === true);
    });
}
