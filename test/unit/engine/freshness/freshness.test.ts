// IndexFreshness (engine/freshness/freshness.ts) over a real folder (node fs, real parser, in-memory index
// storage): a first sync builds, an unchanged workspace is answered from the index, an edit is
// re-indexed alone, a touch records only the new stat key, a deletion leaves recall, a rebuild is
// built again. Asserted by what keyword search finds.
import { mkdtempSync, rmSync, utimesSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger, MemoryFs } from '../../../../src/core/ports.js';
import { IndexFreshness } from '../../../../src/engine/freshness/freshness.js';
import { loadConfig, readWorkspace } from '../../../../src/engine/load/load.js';
import { createNodeFs } from '../../../../src/platform/node-fs.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function setup(wrap: (fs: MemoryFs) => MemoryFs = (fs) => fs) {
  const root = mkdtempSync(join(tmpdir(), 'gitmem-fresh-'));
  roots.push(root);
  mkdirSync(join(root, 'memory'));
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n\nThe postgres pool size is twenty.\n');
  writeFileSync(join(root, 'memory', '2031-01-15.md'), '# 2031-01-15\n\nDeploys run on tuesday.\n');
  // Old mtimes: not "racy", so stat keys are recorded.
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'MEMORY.md'), old, old);
  utimesSync(join(root, 'memory', '2031-01-15.md'), old, old);
  const fs = wrap(createNodeFs(root));
  const loaded = await loadConfig(fs);
  const f = new IndexFreshness({
    fs,
    loaded,
    storage: new MemoryIndexStorage(),
    fingerprint: 'test-fp',
    logger,
    lexicalWorker: false,
  });
  const find = (q: string) => {
    const snap = f.snapshot!;
    return [...new Set(snap.lexical.search(q, 10).map((h) => snap.chunks.get(h.ref)!.path))].sort();
  };
  // A rebuild reads every file; otherwise the stat walk reads only what changed.
  const sync = async (rebuild = false) => (await f.walk(rebuild ? { rebuild: true } : {})).out;
  return { root, f, find, sync };
}

describe('IndexFreshness.sync', () => {
  it('builds on first use, then answers an unchanged workspace without re-indexing', async () => {
    const { f, find, sync } = await setup();
    const first = await sync();
    expect(first.source).toBe('built');
    expect(first.update?.upserted.length).toBe(2);
    expect(find('postgres')).toEqual(['MEMORY.md']);
    const again = await sync();
    expect(again.update).toBeUndefined();
    expect(find('tuesday')).toEqual(['memory/2031-01-15.md']);
    await f.stopWatching();
  });

  it('re-indexes only the edited file; a deletion leaves the index', async () => {
    const { root, f, find, sync } = await setup();
    await sync();
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n\nThe mysql pool size is forty.\n');
    const edit = await sync();
    expect(edit.update?.upserted).toEqual(['MEMORY.md']);
    expect(find('postgres')).toEqual([]);
    expect(find('mysql')).toEqual(['MEMORY.md']);
    unlinkSync(join(root, 'memory', '2031-01-15.md'));
    const del = await sync();
    expect(del.update?.removed).toEqual(['memory/2031-01-15.md']);
    expect(find('tuesday')).toEqual([]);
    await f.stopWatching();
  });

  it('a touch (same content, new mtime) records the stat key and re-indexes nothing', async () => {
    const { root, f, sync } = await setup();
    await sync();
    const before = (await f.known())!('MEMORY.md');
    const older = new Date(Date.now() - 30_000);
    utimesSync(join(root, 'MEMORY.md'), older, older);
    const touched = await sync();
    expect(touched.update).toBeUndefined();
    const after = (await f.known())!('MEMORY.md');
    expect(after?.hash).toBe(before?.hash);
    expect(after).not.toEqual(before);
    await f.stopWatching();
  });

  it('a walk against the index stats every file in one call and reads only the changed one, with its kind', async () => {
    const calls = { statAll: 0, stat: 0, reads: [] as string[] };
    const { root, f, sync } = await setup((fs) => ({
      ...fs,
      root: fs.root,
      stat: (p) => (calls.stat++, fs.stat(p)),
      statAll: (ps) => (calls.statAll++, fs.statAll!(ps)),
      read: (p) => (calls.reads.push(p), fs.read(p)),
      readChecked: (p) => (calls.reads.push(p), fs.readChecked!(p)),
      list: (accept, onSkip) => fs.list(accept, onSkip),
    }));
    await sync();
    const kindOf = (path: string) => [...f.snapshot!.chunks.values()].find((c) => c.path === path)?.kind;
    const dailyKind = kindOf('memory/2031-01-15.md');
    expect(dailyKind).toBeDefined();
    calls.statAll = calls.stat = 0;
    calls.reads.length = 0;
    expect((await sync()).update).toBeUndefined();
    expect(calls).toEqual({ statAll: 1, stat: 0, reads: [] });
    // The edited file is known to the index: listed without classifying it again, then read and
    // indexed under the kind its path has.
    writeFileSync(join(root, 'memory', '2031-01-15.md'), '# 2031-01-15\n\nDeploys moved to thursday.\n');
    const edit = await sync();
    expect(edit.update?.upserted).toEqual(['memory/2031-01-15.md']);
    expect(calls.reads).toEqual(['memory/2031-01-15.md']);
    expect(kindOf('memory/2031-01-15.md')).toBe(dailyKind);
    await f.stopWatching();
  });

  it('a walk whose index lookup is still loading lists the same files and reports only skipped memory files', async () => {
    const { root } = await setup();
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'guide.md'), '# Guide\n\nNot memory in this layout.\n');
    expect(spawnSync('mkfifo', [join(root, 'memory', 'pipe.md'), join(root, 'docs', 'pipe.md')]).status).toBe(0);
    const fs = createNodeFs(root);
    const loaded = await loadConfig(fs);
    const skips = (into: string[]) => (p: string) => void into.push(p);
    const plain: string[] = [];
    const now = await readWorkspace(fs, loaded, { onSkip: skips(plain) });
    expect(plain).toEqual(['memory/pipe.md']);
    expect(Object.keys(now.hashes).sort()).toEqual(['MEMORY.md', 'memory/2031-01-15.md']);
    // No usable index (the lookup settles undefined): every file is read, the same ones.
    const none: string[] = [];
    const cold = await readWorkspace(fs, loaded, { onSkip: skips(none), known: Promise.resolve(undefined) });
    expect(none).toEqual(plain);
    expect(cold.hashes).toEqual(now.hashes);
    expect(cold.files.map((f) => [f.path, f.kind])).toEqual(now.files.map((f) => [f.path, f.kind]));
    // The index's lookup, settled after the listing: unchanged files are not read.
    const lookup = (p: string) => (now.hashes[p] ? { hash: now.hashes[p]!, stat: now.stats[p] } : undefined);
    const later: string[] = [];
    // Settled when the listing has ended (fs.list resolved), so the walk lists without it.
    let settle!: (v: typeof lookup) => void;
    const known = new Promise<typeof lookup>((r) => (settle = r));
    const listsThenSettles: typeof fs = {
      ...fs,
      list: async (...args: Parameters<typeof fs.list>) => {
        const listed = await fs.list(...args);
        settle(lookup);
        return listed;
      },
    };
    const warm = await readWorkspace(listsThenSettles, loaded, { onSkip: skips(later), known });
    expect(later).toEqual(plain);
    expect(warm.hashes).toEqual(now.hashes);
    expect(warm.unchanged).toBe(2);
    expect(warm.files).toEqual([]);
  });

  it('rebuild: true builds again from the files, whatever the index holds', async () => {
    const { f, find, sync } = await setup();
    await sync();
    const r = await sync(true);
    expect(r.source).toBe('built');
    expect(r.reason).toBe('rebuild requested');
    expect(find('postgres')).toEqual(['MEMORY.md']);
    await f.stopWatching();
  });
});
