// Locate the team's shared folder for benchmarks that need data not kept in the repository (LoCoMo):
// $GITMEM_SHARED, else ../shared beside the repository. Tests never use it.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the shared folder holding `sub` (e.g. `bench/locomo`). When it is missing, prints
 * one clear line naming what was looked for and where, and exits with code 2.
 */
export function sharedDir(sub, purpose) {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [process.env.GITMEM_SHARED, resolve(here, '..', '..', 'shared')].filter(Boolean);
  for (const c of candidates) if (existsSync(join(c, sub))) return c;
  console.error(
    `${purpose} needs the shared data folder (${sub}/), which is not part of the repository and was not found ` +
      `(looked in ${candidates.join(', ')}). Set GITMEM_SHARED=/path/to/shared to run it.`,
  );
  process.exit(2);
}
