// Locate the team's read-only shared folder (corpora, LoCoMo, model guard copy). Tests that need it
// fail with a clear message when it is missing — they never skip silently.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Absolute path of the shared folder: $GITMEM_SHARED, else `../shared` beside the repository. */
export function sharedDir(): string {
  const candidates = [process.env.GITMEM_SHARED, resolve(import.meta.dirname, '..', '..', '..', 'shared')].filter(
    (p): p is string => typeof p === 'string' && p.length > 0,
  );
  for (const c of candidates) if (existsSync(join(c, 'DESIGN.md')) || existsSync(join(c, 'corpora'))) return c;
  throw new Error(
    `shared folder not found (tried ${candidates.join(', ')}); set GITMEM_SHARED to the folder that holds corpora/ and bench/`,
  );
}
