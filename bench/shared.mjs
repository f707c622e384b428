// Locate the shared folder for benchmarks: $GITMEM_SHARED, else ../shared beside the repository.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function sharedDir() {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [process.env.GITMEM_SHARED, resolve(here, '..', '..', 'shared')].filter(Boolean);
  for (const c of candidates) if (existsSync(join(c, 'bench')) || existsSync(join(c, 'corpora'))) return c;
  throw new Error(`shared folder not found (tried ${candidates.join(', ')}); set GITMEM_SHARED`);
}
