// The process entry (dist/cli.cjs): `gitmem --version` answered here, everything else by the CLI
// bundle (dist/cli-bundle.cjs, built from cli/bin.ts), compiled with its V8 code cache in the
// workspace's derived-state folder (cli/code-cache.ts) instead of from source on every call. A
// `recall` or `get` whose workspace has a host socket first runs the host client bundle
// (dist/cli-host.cjs, cli/host-first.ts, a few % of the CLI bundle's size): the CLI bundle is
// loaded only when the host did not answer. `recall`, `get`, `hook prompt` and `context` run in
// the read bundle (dist/cli-read.cjs: the same entry without the full CLI, which it hands over to
// when a call needs it, cli/main-stand-in.ts). `merge-file <base> <ours> <theirs>`, the merge driver
// git starts for each file a sync merges, runs in the driver's bundle (dist/cli-merge.cjs,
// cli/merge-file-main.ts), compiled without a code cache (it is small): no workspace, no commander.
// `--debug` says what became of the cache. Kept to node:* and the state-folder lookup.
// deps: cli (code-cache, env-flag, state-dir, version, main-stand-in: its hand-over symbol), platform (listing-prefetch).
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandKey, loadBundle } from './code-cache.js';
import { indexedChunks, workspaceStateDir } from './state-dir.js';
import { envFlag } from './env-flag.js';
import { VERSION } from './version.js';
import { FULL_CLI } from './main-stand-in.js';
import { listingMode, startListingPrefetch } from '../platform/listing-prefetch.js';

/** The bundles' content hashes, set by scripts/build.mjs. */
declare const GITMEM_BUNDLE_HASH: string;
declare const GITMEM_HOST_BUNDLE_HASH: string;
declare const GITMEM_READ_BUNDLE_HASH: string;

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

function workspaceOf(argv: readonly string[]): { root: string; stateDir: string } | undefined {
  try {
    return workspaceStateDir(dirOf(argv));
  } catch {
    return undefined;
  }
}

/**
 * The listing is taken only for an index at least this large (chunks; about 800 files of the
 * benchmark's workspace): starting find costs about 10 ms of a call, which a walk of a few hundred
 * files does not. Measured (one-shot keyword recall, 21-25 alternating calls with and without
 * GITMEM_LISTING=off, trimmed means): 300 files 243 -> 255 ms, 1,000 files 310 -> 304 ms,
 * 3,000 files 422 -> 362 ms.
 */
const LISTING_MIN_CHUNKS = 4000;

/** Whether to take the listing for the index in `stateDir` (GITMEM_LISTING, else its size). */
function listingWorthIt(stateDir: string): boolean {
  const mode = listingMode();
  return mode === 'on' || (mode === 'auto' && (indexedChunks(stateDir) ?? 0) >= LISTING_MIN_CHUNKS);
}

/** Whether `command` (see commandKey) is one the read bundle answers. */
function readCommand(command: string): boolean {
  return command === 'get' || command.startsWith('recall:') || command === 'hook prompt' || command === 'context';
}

/**
 * Whether this call walks the workspace's files as they are now (a read command without a history
 * option): then their listing is started in the background (platform/listing-prefetch.ts) before
 * the CLI bundle is compiled.
 */
function walksFiles(argv: readonly string[], command: string): boolean {
  if (!readCommand(command)) return false;
  for (const a of argv) {
    if (a === '--') break;
    if (/^--(as-of|branch|lineage|help)(=|$)/.test(a) || a === '-h') return false;
  }
  return true;
}

/**
 * Whether a `recall` or `get` call may go to the host client bundle first: its workspace has a host
 * socket at `<state>/host/sock` (the runtime-folder and Windows endpoints go through the CLI bundle)
 * and the call does not opt out of hosts.
 */
function hostFirstCall(argv: readonly string[], command: string, stateDir: string | undefined): boolean {
  if (!stateDir || !(command === 'get' || command.startsWith('recall:'))) return false;
  if (argv.includes('--no-host')) return false;
  if (envFlag('GITMEM_NO_HOST')) return false;
  try {
    return lstatSync(join(stateDir, 'host', 'sock'), { throwIfNoEntry: false })?.isSocket() === true;
  } catch {
    return false;
  }
}

/** Compile and run one bundle next to this file (with its code cache); its exports. `label` names it in --debug. */
function runBundle(name: string, label: string, hash: string, stateDir: string | undefined, command: string) {
  const bundle = loadBundle({
    file: fileURLToPath(new URL(`./${name}`, import.meta.url)),
    bundleHash: hash,
    stateDir,
    command,
  });
  if (argv.includes('--debug'))
    process.stderr.write(`gitmem: ${label}code cache ${bundle.status}${bundle.path ? `: ${bundle.path}` : ''}\n`);
  return bundle.run();
}

/** Ask the host through the host client bundle. @returns whether the call was answered there. */
async function answeredByHostClient(stateDir: string | undefined, command: string): Promise<boolean> {
  let hostFirst: (argv: readonly string[]) => Promise<number | undefined>;
  try {
    hostFirst = runBundle('cli-host.cjs', 'host client ', GITMEM_HOST_BUNDLE_HASH, stateDir, command)
      .hostFirst as typeof hostFirst;
  } catch {
    return false; // no host client next to this file: the CLI bundle asks the host
  }
  return (await hostFirst(argv)) !== undefined;
}

/** Run the read bundle. @returns false when there is none next to this file (the full bundle answers). */
function runReadBundle(stateDir: string | undefined, command: string): boolean {
  try {
    statSync(fileURLToPath(new URL('./cli-read.cjs', import.meta.url)));
  } catch {
    return false;
  }
  runBundle('cli-read.cjs', 'read bundle ', GITMEM_READ_BUNDLE_HASH, stateDir, command);
  return true;
}

const argv = process.argv.slice(2);

/**
 * Run the merge driver's bundle for exactly `merge-file <base> <ours> <theirs>` (git's driver call).
 * @returns false when argv has another shape or there is no such bundle next to this file (the full CLI answers).
 */
async function ranMergeDriver(): Promise<boolean> {
  if (argv.length !== 4 || argv[0] !== 'merge-file' || argv.some((a) => a.startsWith('-'))) return false;
  let run: (base: string, ours: string, theirs: string) => Promise<number>;
  try {
    run = runBundle('cli-merge.cjs', 'merge driver ', '', undefined, 'merge-file').runMergeFile as typeof run;
  } catch {
    return false;
  }
  process.exitCode = await run(argv[1]!, argv[2]!, argv[3]!);
  return true;
}

async function main(): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
  } else if (!(await ranMergeDriver())) {
    const ws = workspaceOf(argv);
    const stateDir = ws?.stateDir;
    const command = commandKey(argv);
    const lists = ws !== undefined && walksFiles(argv, command) && listingWorthIt(ws.stateDir);
    const hosted = hostFirstCall(argv, command, stateDir);
    // A host given this listing's digest answers a recall without its own walk when nothing changed.
    if (lists && hosted && command.startsWith('recall:')) startListingPrefetch(ws.root, ws.stateDir);
    if (!(hosted && (await answeredByHostClient(stateDir, command)))) {
      if (lists) startListingPrefetch(ws.root, ws.stateDir);
      const full = () => runBundle('cli-bundle.cjs', '', GITMEM_BUNDLE_HASH, stateDir, command);
      if (readCommand(command)) {
        (globalThis as Record<symbol, unknown>)[FULL_CLI] = full;
        if (!runReadBundle(stateDir, command)) full();
      } else full();
    }
  }
}

void main();
