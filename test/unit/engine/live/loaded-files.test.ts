// LoadedFiles (engine/live/loaded-files.ts): a loaded index makes a file state only when one is read, and
// what it gives is what the index saved: the same files, hashes, stat keys, records and superseding
// entries; the live index takes a map of its own on its first change, and the snapshot of the load
// keeps answering as before. Real parsed documents over the in-memory storage fake.
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src/core/ports.js';
import type { DocKind } from '../../../../src/core/document.js';
import { LiveIndex, type FileState } from '../../../../src/engine/live/live-index.js';
import { LoadedFiles } from '../../../../src/engine/live/loaded-files.js';
import { SegmentBuilder } from '../../../../src/engine/segments/segment-builder.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';
import { fileState } from '../../../support/live-index-state.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const state = (path: string, text: string, stat: string, kind: DocKind = 'note'): FileState =>
  fileState(path, text, stat, kind);

function open(storage: MemoryIndexStorage): LiveIndex {
  return new LiveIndex({ storage, fingerprint: 'fp', logger, builder: new SegmentBuilder({ script: false, logger }) });
}

const entry = (id: string, body: string, supersedes?: string) =>
  `---\nid: ${id}\ntype: decision\ntitle: ${id}\n${supersedes ? `supersedes: [${supersedes}]\n` : ''}---\n\n${body}\n`;

/** Every file of `files` as comparable data: path, hash, stat key, records. */
function dump(files: ReadonlyMap<string, FileState>) {
  return [...files]
    .map(([p, f]) => ({ p, hash: f.hash, stat: f.stat, records: f.records }))
    .sort((a, b) => (a.p < b.p ? -1 : 1));
}

describe('LoadedFiles', () => {
  it('gives what was saved, made as read; the first change takes a copy and the loaded snapshot stays', async () => {
    const storage = new MemoryIndexStorage();
    const live = open(storage);
    const files = new Map<string, FileState>();
    for (let i = 0; i < 40; i++)
      files.set(`memory/n${i}.md`, state(`memory/n${i}.md`, `# Note ${i}\n\nword${i} shared text\n`, `k${i}`));
    files.set(
      'memory/entries/e-1.md',
      state('memory/entries/e-1.md', entry('e-1', 'old rule about pools'), 'ke1', 'entry'),
    );
    await live.rebuild(files);
    // A delta: one changed, one added (superseding e-1), one removed.
    await live.update(
      new Map<string, FileState | null>([
        ['memory/n3.md', state('memory/n3.md', '# Note 3\n\nrewritten quokka text\n', 'k3b')],
        [
          'memory/entries/e-2.md',
          state('memory/entries/e-2.md', entry('e-2', 'new rule about pools', 'e-1'), 'ke2', 'entry'),
        ],
        ['memory/n7.md', null],
      ]),
    );
    expect(await live.flush()).toBe(true);
    const saved = dump(live.files);
    const savedSuperseding = [...live.snapshot.chunks.superseding!()].map((r) => r.id);
    await live.dispose();

    const again = open(storage);
    expect(await again.load()).toBe(true);
    const loaded = again.files;
    expect(loaded).toBeInstanceOf(LoadedFiles);
    const lf = loaded as LoadedFiles;
    expect(lf.size).toBe(saved.length);
    expect(lf.madeStates).toBe(0);
    // What a walk asks of every file, without making its state.
    for (const s of saved)
      expect(again.knownFile(s.p)).toEqual({ hash: s.hash, stat: s.stat, chunkCount: s.records.length });
    expect(again.knownFile('memory/n7.md')).toBeUndefined();
    expect(lf.madeStates).toBe(0);
    // A query reads its hits' states only.
    const snap = again.snapshot;
    const hit = snap.lexical.search('quokka', 10);
    expect(hit.map((h) => snap.chunks.get(h.ref)?.path)).toEqual(['memory/n3.md']);
    expect([...snap.chunks.superseding!()].map((r) => r.id)).toEqual(savedSuperseding);
    expect(savedSuperseding.length).toBeGreaterThan(0);
    expect(lf.madeStates).toBeLessThanOrEqual(2);
    expect(snap.chunks.size).toBe(saved.reduce((n, s) => n + s.records.length, 0));
    // Walked whole, it is what was saved.
    expect(dump(loaded)).toEqual(saved);

    // The first change: the index takes its own map; the loaded snapshot still answers as before.
    const oldId = hit[0]!.ref;
    await again.update(new Map([['memory/n3.md', state('memory/n3.md', '# Note 3\n\nwombat now\n', 'k3c')]]));
    expect(again.files).not.toBe(loaded);
    expect(snap.chunks.get(oldId)?.text).toMatch(/quokka/);
    expect(again.snapshot.lexical.search('quokka', 10)).toEqual([]);
    expect(again.snapshot.lexical.search('wombat', 10).map((h) => again.snapshot.chunks.get(h.ref)?.path)).toEqual([
      'memory/n3.md',
    ]);
    expect(dump(loaded)).toEqual(saved);
    await again.dispose();
  });

  it('past 2,048 states or lookups (a diff or walk of every file), the rest are read through one map, the same as saved', async () => {
    const storage = new MemoryIndexStorage();
    const live = open(storage);
    const files = new Map<string, FileState>();
    for (let i = 0; i < 2100; i++) {
      const p = `memory/n${String(i).padStart(4, '0')}.md`;
      files.set(p, state(p, `# N${i}\n\nword${i}\n`, `k${i}`));
    }
    await live.rebuild(files);
    expect(await live.flush()).toBe(true);
    const saved = dump(live.files);
    await live.dispose();

    const byGet = open(storage);
    expect(await byGet.load()).toBe(true);
    const lf = byGet.files as LoadedFiles;
    for (const [i, s] of saved.entries()) {
      const f = lf.get(s.p)!;
      expect({ p: s.p, hash: f.hash, stat: f.stat, records: f.records }).toEqual(s);
      // One at a time up to 2,048; then every state at once, through one walk of the file table.
      expect(lf.madeStates).toBe(i < 2048 ? i + 1 : saved.length);
    }
    expect(lf.get('memory/missing.md')).toBeUndefined();
    await byGet.dispose();

    const byLookup = open(storage);
    expect(await byLookup.load()).toBe(true);
    const lf2 = byLookup.files as LoadedFiles;
    for (const [i, s] of saved.entries()) {
      const k = byLookup.knownFile(s.p)!;
      expect({ hash: k.hash, stat: k.stat }).toEqual({ hash: s.hash, stat: s.stat });
      expect(lf2.madeStates).toBe(i < 2048 ? 0 : saved.length);
    }
    expect(byLookup.knownFile('memory/missing.md')).toBeUndefined();
    await byLookup.dispose();
  });
});
