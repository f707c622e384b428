// `gitmem recall <query...>`: its arguments, checks and its one action — a running host answers, else
// the call runs in this process (cli/open-workspace.ts, imported only then); cli/output.ts prints the
// answer. The process entry (cli/bin.ts) runs it whole, before the rest of the CLI is loaded; the full
// program (cli/main.ts) registers the same command for its help and parse errors. The flags become the
// recall options through the one recall-request mapper (service/recall/request.ts).
// deps: core, service (types, shared inputs, request mapper), host (protocol), cli (options, host, output;
// open-workspace on the cold path).
import { Option, type Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import { recallArgs } from '../../host/protocol.js';
import { recallOptionsOf } from '../../service/recall/request.js';
import type { RecallOptions, RecallResponse } from '../../service/recall/types.js';
import { checkRecallRequest, isCalendarDate } from '../../service/shared/inputs.js';
import { callHost, hostReport } from '../host.js';
import type { GlobalOptions } from '../open-workspace.js';
import { collect, parseBudget, parseLimit } from '../options.js';
import { showRecall } from '../output.js';

/** Longest recall query the CLI accepts, in UTF-16 code units. */
const MAX_CLI_QUERY_CHARS = 8192;

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
      const { coldRecall } = await import('../open-workspace.js');
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
