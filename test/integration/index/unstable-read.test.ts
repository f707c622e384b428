// Issue 16 item 13: a file whose stat moves while it is read (a save in progress) keeps its last good
// indexed state, and is read again on the next pass. Real files, real Memory; the only stand-in is
// readChecked reporting `unstable` for one path (a real racing writer cannot be timed in a test).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import type { MemoryFs } from '../../../src/core/ports.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory, type Memory } from '../../../src/service/memory.js';
import { copyFixture, tempDir } from '../../support/fixtures.js';
import { recall } from '../../../src/service/recall/recall.js';

const PATH = 'memory/entries/2026-11-20-postgres-connection-pool.md' as RelPath;
const dirs: string[] = [];
let mem: Memory | undefined;
afterEach(async () => {
  await mem?.dispose();
  mem = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function open(): Promise<{ root: string; unstable: Set<string> }> {
  const root = copyFixture('demo');
  const idx = tempDir('gitmem-idx-');
  dirs.push(dirname(root), idx);
  const base = createNodeFs(root);
  const unstable = new Set<string>();
  const fs: MemoryFs = Object.assign(Object.create(base) as MemoryFs, {
    root: base.root,
    async readChecked(p: RelPath) {
      const r = await base.readChecked!(p);
      return r && unstable.has(p) ? { ...r, unstable: true } : r;
    },
  });
  mem = await createMemory({ fs, openStorage: () => createIndexStorage(join(idx, 'index')), freshness: 'manual' });
  await mem.index();
  return { root, unstable };
}

const hits = async (q: string) =>
  (await recall(mem!.context, q, { mode: 'keyword', limit: 20 })).results.map((r) => r.path);

describe('a file read while it changes keeps its last good indexed state', () => {
  it('watcher batch (applyChanges): kept and reported while unstable, re-read once stable', async () => {
    const { root, unstable } = await open();
    expect(await hits('PgBouncer')).toContain(PATH);
    const abs = join(root, PATH);
    writeFileSync(abs, readFileSync(abs, 'utf8').replace(/PgBouncer/g, 'zanzibarpool'));
    unstable.add(PATH);
    const ev = await mem!.applyChanges({ created: [], changed: [PATH], deleted: [] });
    expect(ev.failed.map((f) => f.path)).toEqual([PATH]);
    expect(ev.failed[0]!.reason).toMatch(/changed while being read/);
    expect(await hits('PgBouncer')).toContain(PATH);
    expect(await hits('zanzibarpool')).not.toContain(PATH);
    unstable.delete(PATH);
    await mem!.applyChanges({ created: [], changed: [PATH], deleted: [] });
    expect(await hits('zanzibarpool')).toContain(PATH);
    expect(await hits('PgBouncer')).not.toContain(PATH);
  });

  it('full pass (index): kept while unstable, re-read on the next pass', async () => {
    const { root, unstable } = await open();
    const abs = join(root, PATH);
    writeFileSync(abs, readFileSync(abs, 'utf8').replace(/PgBouncer/g, 'zanzibarpool'));
    unstable.add(PATH);
    await mem!.index();
    expect(await hits('PgBouncer')).toContain(PATH);
    expect(await hits('zanzibarpool')).not.toContain(PATH);
    unstable.delete(PATH);
    await mem!.index();
    expect(await hits('zanzibarpool')).toContain(PATH);
    expect(await hits('PgBouncer')).not.toContain(PATH);
  });
});
