// The program with gitmem's name, version and global options, and which read command argv names: shared by
// the process entry (cli/bin.ts), the host client (cli/host-first.ts) and the full program (cli/main.ts).
// deps: commander, cli (version).
import { Command } from 'commander';
import { maskName } from '../core/secret-mask.js';
import { VERSION } from './version.js';

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
      .option(
        '--if-workspace',
        'outside a folder holding gitmem memory, do nothing and exit 0 (for hooks installed for every project)',
      )
      // `gitmem verify --help` lists --json and --dir too (the README names `verify --json`)
      .configureHelp({ showGlobalOptions: true })
      .showHelpAfterError('  hint: run with --help for usage')
      // Parser errors read like every other error (`gitmem: error: …`), not commander's bare `error: …`.
      .configureOutput({ outputError: (str, write) => write(maskName(str).replace(/^error: /, 'gitmem: error: ')) })
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
