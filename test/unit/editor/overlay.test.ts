// The open-buffer overlay: buffers win over the disk until closed, and a disk read reports an
// unstable read the way the base file system does (the CLI path), so indexing through the language
// server keeps a file's last good state when it changed during the read.
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import type { MemoryFs } from '../../../src/core/ports.js';
import { createOverlayFs } from '../../../src/editor/overlay.js';
import { readForIndex } from '../../../src/engine/load/load.js';

const p = (s: string) => s as RelPath;
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

/** A base fs over a map; `moving` paths read as changed-while-read when it offers readChecked. */
function baseFs(files: Record<string, string>, moving: ReadonlySet<string>, checked = true): MemoryFs {
  const bytes = (path: string) => (path in files ? new TextEncoder().encode(files[path]) : undefined);
  return {
    root: '/ws',
    read: async (path) => bytes(path),
    ...(checked
      ? {
          readChecked: async (path: RelPath) => {
            const b = bytes(path);
            return b ? { bytes: b, unstable: moving.has(path) } : undefined;
          },
        }
      : {}),
    writeTextAtomic: async (path, t) => {
      files[path] = t;
    },
    stat: async (path) => (path in files ? { size: files[path]!.length, mtimeMs: 1, isDirectory: false } : undefined),
    list: async (accept: (path: string) => boolean) =>
      Object.keys(files)
        .filter((f) => accept(f))
        .sort(),
  } as MemoryFs;
}

describe('createOverlayFs', () => {
  it('reports an unstable disk read as the base does; an open buffer is stable', async () => {
    const fs = createOverlayFs(baseFs({ 'memory/a.md': 'disk a', 'memory/b.md': 'disk b' }, new Set(['memory/a.md'])));
    expect(await readForIndex(fs, p('memory/a.md'))).toMatchObject({ unstable: true });
    expect(await readForIndex(fs, p('memory/b.md'))).toMatchObject({ unstable: false });
    fs.set(p('memory/a.md'), 'buffer a');
    const open = await fs.readChecked!(p('memory/a.md'));
    expect(open?.unstable).toBe(false);
    expect(text(open?.bytes)).toBe('buffer a');
    expect(fs.delete(p('memory/a.md'))).toBe(true);
    expect((await fs.readChecked!(p('memory/a.md')))?.unstable).toBe(true);
  });

  it('over a base without readChecked, reads are stable and missing files are undefined', async () => {
    const fs = createOverlayFs(baseFs({ 'memory/a.md': 'disk a' }, new Set(['memory/a.md']), false));
    const r = await fs.readChecked!(p('memory/a.md'));
    expect(r?.unstable).toBe(false);
    expect(text(r?.bytes)).toBe('disk a');
    expect(await fs.readChecked!(p('memory/gone.md'))).toBeUndefined();
  });

  it('open buffers win over the disk for read, stat and list until closed', async () => {
    const files = { 'memory/a.md': 'disk a' };
    const fs = createOverlayFs(baseFs(files, new Set()));
    fs.set(p('memory/new.md'), 'unsaved');
    expect(text(await fs.read(p('memory/new.md')))).toBe('unsaved');
    expect((await fs.stat(p('memory/new.md')))?.size).toBe(7);
    expect(await fs.list(() => true)).toEqual(['memory/a.md', 'memory/new.md']);
    await fs.writeTextAtomic(p('memory/a.md'), 'written');
    expect(files['memory/a.md']).toBe('written');
    fs.delete(p('memory/new.md'));
    expect(await fs.read(p('memory/new.md'))).toBeUndefined();
  });

  it("takes the disk's lock, exclusive create, guards, rename and delete (no write from the language server runs unlocked)", async () => {
    const files: Record<string, string> = { 'memory/a.md': 'disk a' };
    const calls: string[] = [];
    const base: MemoryFs = {
      ...baseFs(files, new Set()),
      createTextExclusive: async (path, t) => {
        calls.push(`create ${path}`);
        if (path in files) return false;
        files[path] = t;
        return true;
      },
      checkWrite: async (path) => void calls.push(`check ${path}`),
      withFileLock: async (path, fn, options) => {
        calls.push(`lock ${path} ${options?.waitMs ?? ''}`);
        return fn();
      },
      renameFile: async (from, to) => (calls.push(`rename ${from} ${to}`), true),
      remove: async (path) => void calls.push(`remove ${path}`),
    };
    const fs = createOverlayFs(base);
    expect(await fs.withFileLock(p('memory/entries/.remember'), async () => 7, { waitMs: 30 })).toBe(7);
    expect(await fs.createTextExclusive(p('memory/a.md'), 'x')).toBe(false);
    expect(await fs.createTextExclusive(p('memory/b.md'), 'b')).toBe(true);
    await fs.checkWrite(p('memory/b.md'), 'b');
    expect(await fs.renameFile(p('memory/b.md'), p('memory/c.md'))).toBe(true);
    await fs.remove(p('memory/c.md'));
    expect(calls).toEqual([
      'lock memory/entries/.remember 30',
      'create memory/a.md',
      'create memory/b.md',
      'check memory/b.md',
      'rename memory/b.md memory/c.md',
      'remove memory/c.md',
    ]);
    expect(files['memory/a.md']).toBe('disk a');
  });
});
