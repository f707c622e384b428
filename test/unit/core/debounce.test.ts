// Unit tests for the one debounce (core/debounce.ts): a burst runs the action once after the quiet
// period, a long burst runs it at the max wait, cancel stops it. Fake timers: the logic is under test.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Debouncer, type DebounceCause } from '../../../src/core/debounce.js';

describe('Debouncer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once per burst, after the burst has been quiet for delayMs', () => {
    const runs: DebounceCause[] = [];
    const d = new Debouncer((c) => runs.push(c), { delayMs: 50 });
    d.schedule();
    vi.advanceTimersByTime(40);
    d.schedule(); // restarts the quiet period
    vi.advanceTimersByTime(40);
    expect(runs).toEqual([]);
    expect(d.pending).toBe(true);
    vi.advanceTimersByTime(10);
    expect(runs).toEqual(['quiet']);
    expect(d.pending).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(runs).toEqual(['quiet']);
  });

  it('with maxWaitMs, a burst that goes quiet runs once: the quiet run ends its max-wait clock (R24)', () => {
    const runs: DebounceCause[] = [];
    const d = new Debouncer((c) => runs.push(c), { delayMs: 50, maxWaitMs: 200 });
    d.schedule();
    vi.advanceTimersByTime(30);
    d.schedule();
    vi.advanceTimersByTime(50);
    expect(runs).toEqual(['quiet']);
    expect(d.pending).toBe(false);
    expect(d.burstMs).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(runs).toEqual(['quiet']);
    // The next burst has a clock of its own: a full maxWaitMs from its first call.
    for (let t = 0; t < 180; t += 30) {
      d.schedule();
      vi.advanceTimersByTime(30);
    }
    expect(runs).toEqual(['quiet']);
    vi.advanceTimersByTime(20);
    expect(runs).toEqual(['quiet', 'max-wait']);
  });

  it('a burst that never goes quiet runs at maxWaitMs, once, and the next burst starts a new clock', () => {
    const runs: DebounceCause[] = [];
    const d = new Debouncer((c) => runs.push(c), { delayMs: 50, maxWaitMs: 200 });
    for (let t = 0; t < 180; t += 30) {
      d.schedule();
      vi.advanceTimersByTime(30);
    }
    expect(runs).toEqual([]);
    expect(d.burstMs).toBe(180);
    vi.advanceTimersByTime(20);
    expect(runs).toEqual(['max-wait']);
    expect(d.burstMs).toBe(0);
    // The quiet timer of that burst was cleared with it: nothing more runs.
    vi.advanceTimersByTime(100);
    expect(runs).toEqual(['max-wait']);
    d.schedule();
    vi.advanceTimersByTime(50);
    expect(runs).toEqual(['max-wait', 'quiet']);
  });

  it('cancel stops both timers', () => {
    const runs: DebounceCause[] = [];
    const d = new Debouncer((c) => runs.push(c), { delayMs: 50, maxWaitMs: 100 });
    d.schedule();
    d.cancel();
    expect(d.pending).toBe(false);
    vi.advanceTimersByTime(500);
    expect(runs).toEqual([]);
  });

  it('extend: a burst the action held back (git writing) runs at the latest maxWaitMs after its first call', () => {
    const runs: [DebounceCause, number][] = [];
    let hold = true;
    const d = new Debouncer(
      (c) => {
        runs.push([c, Date.now() - start]);
        // The watcher decides asynchronously: the re-arm comes after the action returned.
        if (hold && c !== 'max-wait') queueMicrotask(() => d.extend());
      },
      { delayMs: 50, maxWaitMs: 200 },
    );
    const start = Date.now();
    d.schedule();
    vi.advanceTimersByTime(50);
    expect(runs).toEqual([['quiet', 50]]);
    return Promise.resolve().then(async () => {
      // Each quiet run declines and extends; the burst's clock still counts from its first call.
      for (let i = 0; i < 10 && runs.at(-1)![0] !== 'max-wait'; i++) {
        vi.advanceTimersByTime(50);
        await Promise.resolve();
      }
      expect(runs.at(-1)).toEqual(['max-wait', 200]);
      hold = false;
      vi.advanceTimersByTime(1000);
      expect(runs.filter((r) => r[0] === 'max-wait')).toHaveLength(1);
    });
  });

  it('flush runs a scheduled action at once; dispose ignores later schedules; idle resolves when nothing is scheduled', async () => {
    const runs: DebounceCause[] = [];
    const d = new Debouncer((c) => runs.push(c), { delayMs: 50, maxWaitMs: 100 });
    d.flush();
    expect(runs).toEqual([]);
    d.schedule();
    let idle = false;
    void d.idle().then(() => (idle = true));
    d.flush();
    expect(runs).toEqual(['flush']);
    await Promise.resolve();
    expect(idle).toBe(true);
    vi.advanceTimersByTime(500);
    expect(runs).toEqual(['flush']);
    d.dispose();
    d.schedule();
    expect(d.pending).toBe(false);
    vi.advanceTimersByTime(500);
    expect(runs).toEqual(['flush']);
  });
});
