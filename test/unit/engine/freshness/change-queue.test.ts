// Unit tests for the one change queue (engine/freshness/change-queue.ts) with a fake `apply`: changes merge per
// path, one pass runs at a time, a change that arrives while a pass runs is applied by the next one
// (nothing lost), the HEAD check runs before every pass and its files join the batch, `add` resolves
// with the event of the pass that applied it, and `schedule` waits for its quiet period (fake timers).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RelPath } from '../../../../src/core/paths.js';
import type { FileChangeBatch } from '../../../../src/core/ports.js';
import type { HeadMove } from '../../../../src/engine/freshness/branch-switch.js';
import { ChangeQueue } from '../../../../src/engine/freshness/change-queue.js';
import type { MemoryChangeEvent } from '../../../../src/engine/freshness/freshness-types.js';

const p = (s: string) => s as RelPath;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const batch = (b: Partial<Record<keyof FileChangeBatch, string[]>>): FileChangeBatch => ({
  created: (b.created ?? []).map(p),
  changed: (b.changed ?? []).map(p),
  deleted: (b.deleted ?? []).map(p),
});
const eventOf = (b: FileChangeBatch) =>
  ({
    reason: 'changes',
    upserted: [...b.created, ...b.changed],
    removed: [...b.deleted],
  }) as unknown as MemoryChangeEvent;

/** A queue whose passes are recorded and can be held open. */
function recorded() {
  const passes: { batch: FileChangeBatch; head: HeadMove | undefined }[] = [];
  let hold: Promise<void> | undefined;
  const q = new ChangeQueue({
    logger: silent,
    async apply(b, head) {
      passes.push({ batch: b, head });
      if (hold) await hold;
      return eventOf(b);
    },
  });
  return {
    q,
    passes,
    holdNext() {
      let release!: () => void;
      hold = new Promise<void>((r) => (release = r));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ChangeQueue', () => {
  it('a change that arrives while a pass runs is applied by the next pass, merged per path', async () => {
    const { q, passes, holdNext } = recorded();
    const release = holdNext();
    const first = q.add(batch({ created: ['a.md'] }));
    await vi.waitFor(() => expect(passes).toHaveLength(1));
    // Arrive while the first pass (a rebuild, say) still runs.
    const second = q.add(batch({ changed: ['b.md', 'a.md'] }));
    const third = q.add(batch({ deleted: ['c.md'] }));
    q.schedule(p('d.md'), 'created');
    expect(q.pending).toBe(5); // a in flight; a, b, c, d queued for the next pass
    release();
    const [e1, e2, e3] = await Promise.all([first, second, third]);
    expect(passes.map((x) => x.batch)).toEqual([
      batch({ created: ['a.md'] }),
      batch({ created: ['d.md'], changed: ['a.md', 'b.md'], deleted: ['c.md'] }),
    ]);
    expect(e1.upserted).toEqual(['a.md']);
    expect(e2).toBe(e3); // one pass, one event
    expect(q.pending).toBe(0);
  });

  it('merges kinds: created then changed stays created, deleted then created is a change (atomic save)', async () => {
    const { q, passes, holdNext } = recorded();
    const release = holdNext();
    void q.add(batch({}));
    await vi.waitFor(() => expect(passes).toHaveLength(1));
    q.schedule(p('new.md'), 'created');
    q.schedule(p('new.md'), 'changed');
    q.schedule(p('saved.md'), 'deleted');
    q.schedule(p('saved.md'), 'created');
    q.schedule(p('gone.md'), 'changed');
    q.schedule(p('gone.md'), 'deleted');
    release();
    await q.settled();
    expect(passes[1]!.batch).toEqual(batch({ created: ['new.md'], changed: ['saved.md'], deleted: ['gone.md'] }));
  });

  it('after follow, every pass asks for the HEAD move and re-indexes the files git changed with the batch', async () => {
    const { q, passes } = recorded();
    const moves: (HeadMove | undefined)[] = [
      undefined,
      { from: 'c1', to: 'c2', batch: batch({ created: ['feat.md'], changed: ['x.md'], deleted: ['old.md'] }) },
    ];
    let asked = 0;
    q.follow(async () => moves[asked++]);
    expect(q.followsHead).toBe(true);
    await q.add(batch({ changed: ['x.md'] }));
    const e = await q.add(batch({ changed: ['y.md'] }));
    expect(asked).toBe(2);
    expect(passes[0]).toEqual({ batch: batch({ changed: ['x.md'] }), head: undefined });
    expect(passes[1]!.head?.to).toBe('c2');
    expect(passes[1]!.batch).toEqual(batch({ created: ['feat.md'], changed: ['x.md', 'y.md'], deleted: ['old.md'] }));
    expect(e.removed).toEqual(['old.md']);
  });

  it('a failed HEAD read leaves the batch as it is; a failed pass rejects its adds and the next pass runs', async () => {
    const errors: string[] = [];
    let fail = true;
    const q = new ChangeQueue({
      logger: { ...silent, error: (m: string) => errors.push(m), warn: (m: string) => errors.push(m) },
      async apply(b) {
        if (fail) {
          fail = false;
          throw new Error('disk gone');
        }
        return eventOf(b);
      },
    });
    q.follow(async () => {
      throw new Error('no HEAD');
    });
    await expect(q.add(batch({ changed: ['a.md'] }))).rejects.toThrow('disk gone');
    const e = await q.add(batch({ changed: ['b.md'] }));
    expect(e.upserted).toEqual(['b.md']);
    expect(errors.some((m) => m.includes('disk gone'))).toBe(true);
    expect(errors.some((m) => m.includes('no HEAD'))).toBe(true);
  });

  it('schedule waits for the quiet period given to follow; flush skips it; dispose ignores later schedules', async () => {
    vi.useFakeTimers();
    const { q, passes } = recorded();
    q.follow(undefined, { delayMs: 200 });
    q.schedule(p('a.md'), 'changed');
    await vi.advanceTimersByTimeAsync(150);
    q.schedule(p('a.md'), 'changed'); // a save after the edit: one update (B30)
    await vi.advanceTimersByTimeAsync(150);
    expect(passes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60);
    await q.settled();
    expect(passes.map((x) => x.batch)).toEqual([batch({ changed: ['a.md'] })]);
    q.schedule(p('b.md'), 'changed');
    await q.flush();
    expect(passes).toHaveLength(2);
    q.dispose();
    q.schedule(p('c.md'), 'changed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toHaveLength(2);
  });

  it('a quiet period that ends with nothing queued (an add took its path) leaves the queue working', async () => {
    vi.useFakeTimers();
    const { q, passes } = recorded();
    q.follow(undefined, { delayMs: 200 });
    q.schedule(p('a.md'), 'changed');
    await q.add(batch({ created: ['b.md'] })); // applies a.md too, before its quiet period ends
    await vi.advanceTimersByTimeAsync(300); // the timer fires over an empty queue
    // Before the fix that empty drain stayed recorded as running, and this add never resolved.
    const added = q.add(batch({ created: ['c.md'] }));
    await vi.advanceTimersByTimeAsync(0);
    await expect(added).resolves.toMatchObject({ upserted: ['c.md'] });
    expect(passes.map((x) => x.batch)).toEqual([
      batch({ created: ['b.md'], changed: ['a.md'] }),
      batch({ created: ['c.md'] }),
    ]);
  });
});
