// A kill at any moment of a save leaves a consistent index: each update of a sequence (edits,
// touches, removals, additions, enough to fold both the keyword delta and the per-file delta table
// into new bases) is replayed once per write it makes, the process "killed" after that many writes
// (nothing more is written or removed). A fresh load must then succeed and hold exactly the files of
// the state before the update or of the one after it; the next save from there converges.
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src/core/ports.js';
import { LiveIndex, type FileState } from '../../../../src/engine/live/live-index.js';
import { SegmentBuilder } from '../../../../src/engine/segments/segment-builder.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';
import { fileState } from '../../../support/live-index-state.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** In-memory storage that dies after `dieAfter` more writes, with a stat key that changes on every write. */
class KillableStorage extends MemoryIndexStorage {
  dieAfter: number | undefined;
  #version = new Map<string, number>();
  #seq = 0;

  override async write(name: string, data: Uint8Array | string): Promise<void> {
    if (this.dieAfter !== undefined && this.dieAfter-- <= 0) throw new Error('killed');
    await super.write(name, data);
    this.#version.set(name, ++this.#seq);
  }

  override async remove(name: string): Promise<void> {
    if (this.dieAfter !== undefined && this.dieAfter <= 0) throw new Error('killed');
    await super.remove(name);
    this.#version.delete(name);
  }

  async statKey(name: string): Promise<string | undefined> {
    return this.files.has(name) ? `v${this.#version.get(name)}` : undefined;
  }

  clone(): KillableStorage {
    const c = new KillableStorage();
    for (const [k, v] of this.files) c.files.set(k, v.slice());
    c.#version = new Map(this.#version);
    c.#seq = this.#seq;
    return c;
  }
}

const state = (path: string, text: string, stat?: string): FileState => fileState(path, text, stat);

const open = (storage: KillableStorage) =>
  new LiveIndex({
    storage,
    fingerprint: 'crash-fp',
    logger,
    builder: new SegmentBuilder({ script: false, logger }),
    compactAt: 6,
  });

/** What a loaded index holds per file (hash and stat key), sorted. */
const filesOf = (live: LiveIndex) =>
  [...live.files].map(([p, f]) => `${p} ${f.hash.slice(0, 8)} ${f.stat ?? '-'}`).sort();

const WORDS = ['pool', 'deploy', 'retry', 'webhook', 'cache', 'queue', 'schema', 'token'];
const text = (i: number, v: number) => `# Note ${i}\n\nThe ${WORDS[(i + v) % 8]} of note ${i}, version ${v}.\n`;

describe('LiveIndex saves survive a kill at any write', () => {
  it('every prefix of every save loads as the state before or after it', async () => {
    const N = 30;
    let storage = new KillableStorage();
    const first = open(storage);
    await first.rebuild(
      new Map(
        Array.from({ length: N }, (_, i) => [`memory/n-${i}.md`, state(`memory/n-${i}.md`, text(i, 0), `s${i}`)]),
      ),
    );
    await first.dispose();
    // The steps: 3 edits, a touch, a removal, an addition, then 14 more edits (past the delta limit of 15 at 30 files).
    const steps: Map<string, FileState | null>[] = [];
    for (let v = 1; v <= 3; v++)
      steps.push(new Map([[`memory/n-${v}.md`, state(`memory/n-${v}.md`, text(v, v), `s${v}.${v}`)]]));
    steps.push(new Map([['memory/n-10.md', state('memory/n-10.md', text(10, 0), 'touched')]]));
    steps.push(new Map([['memory/n-11.md', null]]));
    steps.push(new Map([['memory/new.md', state('memory/new.md', '# New\n\nA new queue note.\n', 'sn')]]));
    for (let i = 12; i < 26; i++)
      steps.push(new Map([[`memory/n-${i}.md`, state(`memory/n-${i}.md`, text(i, 1), `s${i}.1`)]]));
    let kills = 0;
    for (const changes of steps) {
      // The clean run: how many writes the save makes, and the state after it.
      const clean = storage.clone();
      const live = open(clean);
      expect(await live.load()).toBe(true);
      const before = filesOf(live);
      const writes0 = clean.writes().length;
      await live.update(changes);
      const after = filesOf(live);
      const writes = clean.writes().length - writes0;
      await live.dispose();
      expect(writes).toBeGreaterThan(0);
      for (let k = 0; k < writes; k++) {
        const crashed = storage.clone();
        const victim = open(crashed);
        await victim.load();
        crashed.dieAfter = k;
        const rep = await victim.update(changes);
        expect(rep.persisted).toBe(false);
        crashed.dieAfter = undefined;
        const next = open(crashed);
        expect(await next.load(), `kill after ${k} of ${writes} writes: ${next.loadFailure}`).toBe(true);
        expect([before, after]).toContainEqual(filesOf(next));
        // Re-applying the update from whichever state survived reaches the same end state.
        await next.update(changes);
        expect(filesOf(next)).toEqual(after);
        await next.dispose();
        const reread = open(crashed);
        expect(await reread.load()).toBe(true);
        expect(filesOf(reread)).toEqual(after);
        await reread.dispose();
        kills++;
      }
      storage = clean;
    }
    expect(kills).toBeGreaterThan(steps.length * 2);
    // The last steps folded the per-file delta into a new base: one base table, at most one delta.
    const tables = [...storage.files.keys()].filter((n) => n.startsWith('files-'));
    expect(tables.filter((n) => !n.startsWith('files-delta-'))).toHaveLength(1);
    expect(tables.length).toBeLessThanOrEqual(2);
  });
});
