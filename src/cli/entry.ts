// The process entry (dist/cli.js): `gitmem --version` answered here, everything else by the CLI
// bundle (dist/cli-bundle.cjs, built from cli/bin.ts), compiled with its V8 code cache in the
// workspace's derived-state folder (cli/code-cache.ts) instead of from source on every call.
// `--debug` says what became of the cache. Kept to node:* and the state-folder lookup.
// deps: cli (code-cache, state-dir, version).
import { fileURLToPath } from 'node:url';
import { commandKey, loadBundle } from './code-cache.js';
import { workspaceStateDir } from './state-dir.js';
import { VERSION } from './version.js';

/** The bundle's content hash, set by scripts/build.mjs. */
declare const GITMEM_BUNDLE_HASH: string;

/** `--dir`'s value in argv (either form), else undefined. */
function dirOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--dir') return argv[i + 1];
    if (a.startsWith('--dir=')) return a.slice(6);
  }
  return undefined;
}

function stateDirOf(argv: readonly string[]): string | undefined {
  try {
    return workspaceStateDir(dirOf(argv)).stateDir;
  } catch {
    return undefined;
  }
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const bundle = loadBundle({
    file: fileURLToPath(new URL('./cli-bundle.cjs', import.meta.url)),
    bundleHash: GITMEM_BUNDLE_HASH,
    stateDir: stateDirOf(argv),
    command: commandKey(argv),
  });
  if (argv.includes('--debug'))
    process.stderr.write(`gitmem: code cache ${bundle.status}${bundle.path ? `: ${bundle.path}` : ''}\n`);
  bundle.run();
}
