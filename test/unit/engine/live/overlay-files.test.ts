// The files a live-index snapshot reads (engine/live/overlay-files.ts): a copy taken now and then with
// the changes since over it. Each snapshot must read as a copy of the map taken when it was made
// (same states, same sorted paths, same chunk count), whatever changes come after it, while the map
// is copied again only once the changes outgrow the threshold. Seeded random changes.
import { describe, expect, it } from 'vitest';
import { byPath } from '../../../../src/engine/live/chunk-table.js';
import type { FileState } from '../../../../src/engine/live/live-index-types.js';
import { FrozenFiles } from '../../../../src/engine/live/overlay-files.js';

const state = (n: number): FileState => ({
  hash: `h${n}`,
  records: Array.from({ length: n % 4 }, (_, i) => ({ id: `x#${i}` }) as unknown as FileState['records'][number]),
});

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** What a snapshot of `live` must read: a plain copy. */
function copyOf(live: Map<string, FileState>) {
  const sorted = [...live.keys()].sort(byPath);
  let chunks = 0;
  for (const f of live.values()) chunks += f.records.length;
  return { entries: sorted.map((p) => [p, live.get(p)] as const), sorted, chunks };
}

describe('FrozenFiles: a snapshot reads as a copy of the map when it was taken', () => {
  it('over 3,000 random adds, edits and removals, each snapshot keeps its states, order and chunk count', () => {
    const r = rng(7);
    const live = new Map<string, FileState>();
    const sorted: string[] = [];
    const frozen = new FrozenFiles();
    const put = (p: string, f: FileState | null) => {
      const at = sorted.findIndex((q) => byPath(q, p) >= 0);
      if (f) {
        if (!live.has(p)) sorted.splice(at < 0 ? sorted.length : at, 0, p);
        live.set(p, f);
      } else if (live.delete(p)) sorted.splice(at, 1);
    };
    for (let i = 0; i < 2000; i++) put(`memory/e-${i}.md`, state(i));
    const taken: { view: ReturnType<FrozenFiles['take']>; want: ReturnType<typeof copyOf> }[] = [];
    for (let step = 0; step < 3000; step++) {
      const p = `memory/e-${Math.floor(r() * 2600)}.md`;
      put(p, r() < 0.2 ? null : state(Math.floor(r() * 100)));
      frozen.changed(live, [p]);
      if (step % 97 === 0) taken.push({ view: frozen.take(live, sorted), want: copyOf(live) });
    }
    taken.push({ view: frozen.take(live, sorted), want: copyOf(live) });
    for (const { view, want } of taken) {
      expect(view.sorted()).toEqual(want.sorted);
      expect(view.chunks).toBe(want.chunks);
      expect(view.files.size).toBe(want.sorted.length);
      for (const [p, f] of want.entries) expect(view.files.get(p)).toBe(f);
      expect(view.files.get('memory/e-99999.md')).toBeUndefined();
      expect([...view.files.keys()].sort(byPath)).toEqual(want.sorted);
    }
  });

  it('a few changes do not copy the map again: the next snapshot shares the copy and lays the changes over it', () => {
    const live = new Map<string, FileState>();
    for (let i = 0; i < 10_000; i++) live.set(`m/e-${String(i).padStart(5, '0')}.md`, state(i));
    const sorted = [...live.keys()].sort(byPath);
    const frozen = new FrozenFiles();
    const first = frozen.take(live, sorted);
    live.set('m/new.md', state(3));
    sorted.push('m/new.md');
    frozen.changed(live, ['m/new.md']);
    const second = frozen.take(live, sorted);
    expect(first.files).toBeInstanceOf(Map); // the copy itself
    expect(second.files).not.toBeInstanceOf(Map); // the same copy, one file laid over it
    expect(first.files.has('m/new.md')).toBe(false);
    expect(second.files.get('m/new.md')).toBe(live.get('m/new.md'));
    expect(second.chunks).toBe(first.chunks + 3);
  });
});
