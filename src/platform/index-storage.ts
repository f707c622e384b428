// IndexStorage over one folder of derived state (default `<gitdir>/gitmem/`). Atomic replace for
// every artifact. Imports core and node:* only (plus write-file-atomic).
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { MemoryError } from '../core/errors.js';
import type { IndexStorage } from '../core/ports.js';

function checkName(name: string): void {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) {
    throw new MemoryError('path.invalid', `invalid artifact name: ${name}`);
  }
}

/** Create an {@link IndexStorage} in `dir` (created on first write). */
export function createIndexStorage(dir: string): IndexStorage {
  return {
    location: dir,
    async read(name) {
      checkName(name);
      try {
        return new Uint8Array(await fsp.readFile(join(dir, name)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new MemoryError('index.corrupt', `cannot read index artifact ${name}: ${(e as Error).message}`, { cause: e });
      }
    },
    async write(name, data) {
      checkName(name);
      try {
        await fsp.mkdir(dir, { recursive: true });
        await writeFileAtomic(join(dir, name), typeof data === 'string' ? data : Buffer.from(data), { fsync: true });
      } catch (e) {
        throw new MemoryError('index.write-failed', `cannot write index artifact ${name}: ${(e as Error).message}`, {
          cause: e,
          hint: `check that ${dir} is writable`,
        });
      }
    },
    async remove(name) {
      checkName(name);
      await fsp.rm(join(dir, name), { force: true });
    },
  };
}
