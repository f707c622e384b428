// Merge-friendly memory files for `gitmem init` and `gitmem doctor [--fix]`: the `.gitattributes`
// block (union merge for daily notes and logs, the gitmem driver for the rest) written through the
// workspace fs, and the `merge.gitmem` driver registered in the repository's config on request.
// deps: core, git (attributes, system-git).
import {
  ATTRIBUTES_FILE,
  attributeRules,
  driverCommand,
  hasAttributeBlock,
  mergeDriverStatus,
  registerMergeDriver,
  withAttributeBlock,
  type DriverStatus,
} from '../../git/attributes.js';
import { notARepository } from '../../git/repo.js';

export { mergeFiles } from '../../git/merge-file.js';
import type { Layout } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import type { MemoryFs } from '../../core/ports.js';

/** Where the merge setup stands. `driver` is null outside git (or without a git binary). */
export interface MergeSetupStatus {
  /** `.gitattributes` holds gitmem's current rules. */
  readonly attributes: boolean;
  readonly rules: readonly string[];
  /** `stale`: the registered command names a file that is gone (`doctor --fix` registers it anew). */
  readonly driver: DriverStatus | null;
}

async function readText(fs: MemoryFs, path: string): Promise<string> {
  const b = await fs.read(toRelPath(path));
  return b ? new TextDecoder().decode(b) : '';
}

/** @returns whether `.gitattributes` and the driver are set up for `layout`. */
export async function mergeSetupStatus(
  fs: MemoryFs,
  layout: Layout,
  workTree: string | undefined,
): Promise<MergeSetupStatus> {
  const rules = attributeRules(layout);
  const attributes = hasAttributeBlock(await readText(fs, ATTRIBUTES_FILE), rules);
  let driver: MergeSetupStatus['driver'] = null;
  if (workTree) {
    try {
      driver = await mergeDriverStatus(workTree);
    } catch {
      driver = null; // no git binary: reported as unknown
    }
  }
  return { attributes, rules, driver };
}

/** What a setup run changed. */
export interface MergeSetupResult {
  /** `.gitattributes` was written (created or its gitmem block updated). */
  readonly attributesWritten: boolean;
  /** The driver command registered now, or null when not requested / already the same. */
  readonly driverRegistered: string | null;
}

/**
 * Write gitmem's `.gitattributes` block (other lines kept) and, with `driver`, register the merge
 * driver in the repository's config. `cliScript` is the running gitmem bundle (for the driver command).
 * @throws MemoryError `git.not-a-repository` when `driver` is asked outside git; `git.unavailable`.
 */
export async function applyMergeSetup(
  fs: MemoryFs,
  layout: Layout,
  options: { workTree: string | undefined; driver: boolean; cliScript?: string | undefined },
): Promise<MergeSetupResult> {
  const rules = attributeRules(layout);
  const current = await readText(fs, ATTRIBUTES_FILE);
  let attributesWritten = false;
  if (!hasAttributeBlock(current, rules)) {
    await fs.writeTextAtomic(toRelPath(ATTRIBUTES_FILE), withAttributeBlock(current, rules));
    attributesWritten = true;
  }
  let driverRegistered: string | null = null;
  if (options.driver) {
    if (!options.workTree) throw notARepository(fs.root);
    const command = driverCommand(options.cliScript);
    const now = await mergeDriverStatus(options.workTree);
    if (now.command !== command) {
      await registerMergeDriver(options.workTree, command);
      driverRegistered = command;
    }
  }
  return { attributesWritten, driverRegistered };
}
