// Bad input U67 (docs/bad-inputs.md), the roll-back's own failure: service/files/move.ts over the real
// node file system port with failures injected into it (a link rewrite refused, then one rename back
// refused). The move must say which file it could not put back and where that file is now, and must
// still restore every other one. The real failures (no injection) are in integration/files/mv-rollback.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../../src/core/errors.js';
import type { MemoryFs } from '../../../src/core/ports.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { moveMemory } from '../../../src/service/files/move.js';
import { createMemory } from '../../../src/service/memory.js';
import { tempDir } from '../../support/fixtures.js';

function workspace(): string {
  const root = join(tempDir(), 'ws');
  mkdirSync(join(root, 'memory/topics'), { recursive: true });
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'default' }));
  writeFileSync(join(root, 'memory/topics/a.md'), '# a\n\nx\n');
  writeFileSync(join(root, 'memory/topics/b.md'), '# b\n\ny\n');
  writeFileSync(join(root, 'memory/MEMORY.md'), '# Memory\n\n- [a](topics/a.md)\n');
  writeFileSync(join(root, 'memory/other.md'), '# other\n\n[b](topics/b.md)\n');
  return root;
}

/** The node port, with `fail(op, path)` deciding which calls throw as a full disk would. */
function failing(root: string, fail: (op: string, path: string) => boolean): MemoryFs {
  const fs = createNodeFs(root);
  const boom = (op: string, path: string) => {
    if (fail(op, path))
      throw new MemoryError('fs.write-failed', `cannot ${op} ${path}: ENOSPC: no space left on device`);
  };
  return Object.assign(Object.create(fs) as MemoryFs, fs, {
    async writeTextAtomic(path: string, text: string) {
      boom('write', path);
      return fs.writeTextAtomic(path as never, text);
    },
    async renameFile(from: string, to: string) {
      boom('rename', `${from}>${to}`);
      return fs.renameFile!(from as never, to as never);
    },
  });
}

async function open(root: string, fs: MemoryFs) {
  return createMemory({ fs, openStorage: () => createIndexStorage(join(root, '..', 'index')), freshness: 'manual' });
}

describe('U67: the roll-back of a failed move', () => {
  it('puts back every file it can and names the one it cannot, with where it is now', async () => {
    const root = workspace();
    const fs = failing(
      root,
      (op, path) => (op === 'write' && path === 'memory/other.md') || path === 'memory/t2/b.md>memory/topics/b.md',
    );
    const memory = await open(root, fs);
    try {
      const err = await moveMemory(memory.context, { from: 'memory/topics', to: 'memory/t2' }).then(
        () => undefined,
        (e: MemoryError) => e,
      );
      expect(err?.code).toBe('fs.write-failed');
      expect(err?.message).toMatch(/^cannot move memory\/topics to memory\/t2: cannot write memory\/other\.md: ENOSPC/);
      expect(err?.message).toContain('the roll-back did not finish, put these back by hand:');
      expect(err?.message).toContain('memory/topics/b.md is still at memory/t2/b.md');
      expect(err?.data).toMatchObject({ rolledBack: false });
      // Everything else is back: a.md at its old name, MEMORY.md's link as it was.
      expect(readFileSync(join(root, 'memory/topics/a.md'), 'utf8')).toBe('# a\n\nx\n');
      expect(existsSync(join(root, 'memory/t2/a.md'))).toBe(false);
      expect(readFileSync(join(root, 'memory/MEMORY.md'), 'utf8')).toBe('# Memory\n\n- [a](topics/a.md)\n');
      expect(readFileSync(join(root, 'memory/other.md'), 'utf8')).toBe('# other\n\n[b](topics/b.md)\n');
    } finally {
      await memory.dispose();
    }
  });

  it('a failure with nothing done yet is the failure itself, no roll-back named', async () => {
    const root = workspace();
    const memory = await open(
      root,
      failing(root, (op) => op === 'rename'),
    );
    try {
      const err = await moveMemory(memory.context, { from: 'memory/topics', to: 'memory/t2' }).then(
        () => undefined,
        (e: MemoryError) => e,
      );
      expect(err?.message).toBe('cannot rename memory/topics/a.md>memory/t2/a.md: ENOSPC: no space left on device');
      expect(readFileSync(join(root, 'memory/MEMORY.md'), 'utf8')).toBe('# Memory\n\n- [a](topics/a.md)\n');
    } finally {
      await memory.dispose();
    }
  });
});
