// B47: a language server saves the keyword index after a pause, not after every edit of an open
// buffer (server.ts: LiveIndex.deferSaves). The test reads the index folder's state (a
// MemoryIndexStorage) right after each update: while edits come it is the state before them, and a
// flush or the end of the session (what Memory.dispose calls) writes an index that a new process
// loads without re-indexing. The quiet period is long here, so no save is due by time.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src/core/ports.js';
import type { RelPath } from '../../../../src/core/paths.js';
import { IndexFreshness } from '../../../../src/engine/freshness/freshness.js';
import { loadConfig } from '../../../../src/engine/load/load.js';
import { createNodeFs } from '../../../../src/platform/node-fs.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const NOTE = 'memory/2031-01-15.md' as RelPath;
const note = (word: string) =>
  `# 2031-01-15\n\n${Array.from({ length: 200 }, (_, i) => `- line ${i} deploy ${i === 120 ? word : 'pool'}\n`).join('')}`;

async function open(root: string, storage: MemoryIndexStorage) {
  const fs = createNodeFs(root);
  return new IndexFreshness({
    fs,
    loaded: await loadConfig(fs),
    storage,
    fingerprint: 'fp',
    logger,
    lexicalWorker: false,
  });
}

/** The index folder's state: each file's name and the SHA-256 of its bytes. */
const stateOf = (s: MemoryIndexStorage) =>
  [...s.files].map(([k, v]) => `${k} ${createHash('sha256').update(v).digest('hex').slice(0, 16)}`).sort();
const paths = (f: IndexFreshness, q: string) => {
  const snap = f.snapshot!;
  return [...new Set(snap.lexical.search(q, 10).map((h) => snap.chunks.get(h.ref)!.path))];
};

describe('B47: edits in a language server session', () => {
  it('do not rewrite the index files while they come; a flush and the end of the session save them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gitmem-b47-'));
    roots.push(root);
    mkdirSync(join(root, 'memory'));
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n\nThe postgres pool size is twenty.\n');
    writeFileSync(join(root, NOTE), note('start'));
    const storage = new MemoryIndexStorage();
    const f = await open(root, storage);
    await f.walk();
    f.background();
    f.live.deferSaves(60_000); // as the language server does (a second there; here never due by time)
    const saved = stateOf(storage);
    expect(saved.some((l) => l.startsWith('manifest.json '))).toBe(true);
    const edit = async (word: string, before: string[]) => {
      writeFileSync(join(root, NOTE), note(word));
      const e = await f.applyChanges({ created: [], changed: [NOTE], deleted: [] });
      expect(e.upserted).toEqual([NOTE]);
      expect(e.persisted).toBe(false); // said as it is: not saved yet
      expect(paths(f, word)).toEqual([NOTE]); // recall sees the edit at once
      expect(stateOf(storage)).toEqual(before); // and the index folder is as it was
    };
    await edit('zebra', saved);
    expect(await f.live.flush()).toBe(true);
    const flushed = stateOf(storage);
    expect(flushed).not.toEqual(saved);
    await edit('narwhal', flushed);
    await f.stopWatching(); // the end of the session (Memory.dispose) saves the last edit
    expect(stateOf(storage)).not.toEqual(flushed);
    const again = await open(root, storage);
    const out = (await again.walk()).out;
    expect(out.update?.upserted ?? []).toEqual([]); // the saved index holds the last edit: nothing re-indexed
    expect(paths(again, 'narwhal')).toEqual([NOTE]);
    expect(paths(again, 'walrus')).toEqual([]);
  });
});
