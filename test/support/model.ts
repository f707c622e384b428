// Locate the real embedding model for integration tests: the repository's models/ folder, filled by
// `npm run setup` (which `npm test` runs first). Fails with a clear message, never skips.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..', '..');
const MODEL = 'all-MiniLM-L6-v2-q4';
const FILES = ['onnx/model_q4.onnx', 'onnx/model_q4.onnx_data', 'vocab.txt', 'tokenizer.json'];

/** Absolute path of the repository's setup script. */
export const SETUP_SCRIPT = join(REPO, 'scripts', 'setup-model.mjs');

/**
 * The installed model folder, `<repo>/models/all-MiniLM-L6-v2-q4`.
 * @throws Error naming the folder and the command that fills it when a model file is missing.
 */
export function modelDir(): string {
  const dir = join(REPO, 'models', MODEL);
  const missing = FILES.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) {
    throw new Error(`embedding model not found in ${dir} (missing ${missing.join(', ')}): run \`npm run setup\``);
  }
  return dir;
}

/** The env of a CLI run with the installed model (see {@link modelDir}) and no running host. */
export function modelEnv(): Record<string, string> {
  return { GITMEM_MODEL_DIR: modelDir(), GITMEM_NO_HOST: '1' };
}
