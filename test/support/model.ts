// Locate (or install) the real embedding model for integration tests and benchmarks: the repo's
// models/ folder when `npm run setup` has run, else a temp install from the shared guard copy via
// scripts/setup-model.mjs --from (hashes verified). Fails with a clear message, never skips.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sharedDir } from './shared.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const MODEL = 'all-MiniLM-L6-v2-q4';
const FILES = ['onnx/model_q4.onnx', 'onnx/model_q4.onnx_data', 'vocab.txt', 'tokenizer.json'];

let cached: string | undefined;

/** Absolute path of the repository's setup script. */
export const SETUP_SCRIPT = join(REPO, 'scripts', 'setup-model.mjs');

/** The guard copy in the shared folder (may not exist). */
export function sharedModelDir(): string {
  return join(sharedDir(), 'models', MODEL);
}

/**
 * A verified model folder: `<repo>/models/all-MiniLM-L6-v2-q4` when installed, otherwise the shared
 * guard copy installed (and SHA-256 checked) by the setup script into a temp folder once per process.
 * @throws Error naming both places when neither exists.
 */
export function modelDir(): string {
  if (cached) return cached;
  const repoModel = join(REPO, 'models', MODEL);
  if (FILES.every((f) => existsSync(join(repoModel, f)))) return (cached = repoModel);
  let shared: string | undefined;
  try {
    shared = sharedModelDir();
  } catch {
    shared = undefined;
  }
  if (!shared || !FILES.every((f) => existsSync(join(shared, f)))) {
    throw new Error(
      `embedding model not found: run \`npm run setup\` (installs ${repoModel}) or set GITMEM_SHARED to a folder ` +
        `holding models/${MODEL} (looked at ${shared ?? '$GITMEM_SHARED / ../shared'})`,
    );
  }
  const dest = join(mkdtempSync(join(tmpdir(), 'gitmem-model-')), MODEL);
  execFileSync(process.execPath, [SETUP_SCRIPT, '--from', shared, '--dest', dest], { stdio: 'pipe' });
  return (cached = dest);
}
