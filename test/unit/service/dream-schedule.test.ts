// The dream schedule logic with a fake clock: cron occurrences, the minimum interval (also across a
// restart, through the last run kept in derived state), settings precedence with the Fusion names,
// and bad cron expressions as config.invalid.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../../../src/core/config.js';
import { isMemoryError } from '../../../src/core/errors.js';
import {
  checkIntervalMs,
  createDreamScheduler,
  decideTick,
  dreamScheduleSettings,
  parseSchedule,
  readLastRun,
  SCHEDULE_ARTIFACT,
} from '../../../src/service/ace/dream-schedule.js';
import { MemoryIndexStorage } from '../../support/memory-storage.js';

function fakeClock(start: Date) {
  let t = start.getTime();
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

const MIN = 60_000;
// A local-time start, like the host's: croner reads cron fields in the host time zone.
const start = new Date(2026, 11, 1, 10, 0, 30);

describe('decideTick', () => {
  it('waits before the occurrence, runs at it, skips inside the minimum interval', () => {
    const due = new Date(2026, 0, 1, 2, 0);
    expect(decideTick(due, null, new Date(2026, 0, 1, 1, 59), MIN).action).toBe('wait');
    expect(decideTick(null, null, new Date(2026, 0, 1, 3), MIN).action).toBe('wait');
    expect(decideTick(due, null, due, MIN).action).toBe('run');
    const last = new Date(due.getTime() - 30_000);
    expect(decideTick(due, last, due, MIN)).toEqual({
      action: 'skip',
      lastRun: last,
      allowedAt: new Date(last.getTime() + MIN),
    });
    expect(decideTick(due, new Date(due.getTime() - MIN), due, MIN).action).toBe('run');
  });
});

describe('createDreamScheduler', () => {
  it('every minute with a 90 s minimum interval: runs, skips the next tick, runs the one after', async () => {
    const clock = fakeClock(start);
    const storage = new MemoryIndexStorage();
    const runs: string[] = [];
    const s = createDreamScheduler({
      settings: { enabled: true, schedule: '* * * * *', minIntervalMs: 90_000, from: 'dream' },
      storage,
      clock,
      run: async (now) => (runs.push(now.toISOString()), runs.length),
    });
    expect(s.next()).toBe(new Date(2026, 11, 1, 10, 1).toISOString());
    expect(await s.tick()).toBeUndefined(); // 10:00:30, nothing due
    clock.advance(30_000); // 10:01:00
    expect(await s.tick()).toMatchObject({
      event: 'dream',
      result: 1,
      next: new Date(2026, 11, 1, 10, 2).toISOString(),
    });
    expect(await s.tick()).toBeUndefined(); // same minute: not again
    clock.advance(MIN); // 10:02 — 60 s after the run
    expect(await s.tick()).toMatchObject({
      event: 'dream-skipped',
      lastRun: new Date(2026, 11, 1, 10, 1).toISOString(),
      allowedAt: new Date(2026, 11, 1, 10, 2, 30).toISOString(),
    });
    clock.advance(MIN); // 10:03 — 120 s after
    expect(await s.tick()).toMatchObject({ event: 'dream', result: 2 });
    expect(runs).toEqual([new Date(2026, 11, 1, 10, 1).toISOString(), new Date(2026, 11, 1, 10, 3).toISOString()]);
  });

  it('keeps the minimum interval across a restart (last run in derived state)', async () => {
    const clock = fakeClock(new Date(2026, 11, 1, 1, 59, 0));
    const storage = new MemoryIndexStorage();
    let runs = 0;
    const settings = { enabled: true, schedule: '0 2 * * *', minIntervalMs: 86_400_000, from: 'fusion' as const };
    const first = createDreamScheduler({ settings, storage, clock, run: async () => ++runs });
    clock.advance(MIN);
    expect((await first.tick())?.event).toBe('dream');
    expect(await readLastRun(storage)).toEqual(new Date(2026, 11, 1, 2, 0));
    // Restarted a minute later; a schedule edited to every minute must still wait out the day.
    clock.advance(MIN);
    const second = createDreamScheduler({
      settings: { ...settings, schedule: '* * * * *' },
      storage,
      clock,
      run: async () => ++runs,
    });
    clock.advance(MIN);
    expect(await second.tick()).toMatchObject({
      event: 'dream-skipped',
      allowedAt: new Date(2026, 11, 2, 2, 0).toISOString(),
    });
    expect(runs).toBe(1);
    // An unreadable state file counts as "never ran".
    storage.files.set(SCHEDULE_ARTIFACT, new TextEncoder().encode('{not json'));
    expect(await readLastRun(storage)).toBeNull();
  });

  it('a failing pass is reported (dream-failed), still counts as a run, and the scheduler keeps going', async () => {
    const clock = fakeClock(start);
    const storage = new MemoryIndexStorage();
    const s = createDreamScheduler({
      settings: { enabled: true, schedule: '* * * * *', minIntervalMs: 0, from: 'dream' },
      storage,
      clock,
      run: async () => {
        throw new Error('DREAMS.md is binary');
      },
    });
    clock.advance(30_000);
    expect(await s.tick()).toMatchObject({ event: 'dream-failed', error: 'DREAMS.md is binary' });
    expect(await readLastRun(storage)).toEqual(clock.now());
    clock.advance(MIN);
    expect((await s.tick())?.event).toBe('dream-failed');
  });

  it('a bad cron expression is config.invalid naming the setting', () => {
    for (const [expr, setting] of [
      ['every day', 'dream.schedule'],
      ['61 * * * *', 'insightExtractionSchedule'],
    ] as const) {
      let err: unknown;
      try {
        parseSchedule(expr, setting);
      } catch (e) {
        err = e;
      }
      expect(isMemoryError(err) && err.code).toBe('config.invalid');
      expect((err as Error).message).toContain(`${setting} "${expr}" is not a cron expression`);
    }
  });
});

describe('dreamScheduleSettings', () => {
  it('off by default; the Fusion names win with the fusion layout only', () => {
    expect(dreamScheduleSettings(DEFAULT_CONFIG, 'default')).toEqual({
      enabled: false,
      schedule: '0 2 * * *',
      minIntervalMs: 86_400_000,
      from: 'dream',
    });
    expect(dreamScheduleSettings(DEFAULT_CONFIG, 'fusion')).toEqual({
      enabled: false,
      schedule: '0 2 * * *',
      minIntervalMs: 86_400_000,
      from: 'fusion',
    });
    const cfg = mergeConfig({
      dream: { enabled: true, schedule: '*/5 * * * *' },
      insightExtractionEnabled: false,
      insightExtractionMinIntervalMs: 1000,
    });
    expect(dreamScheduleSettings(cfg, 'default')).toMatchObject({
      enabled: true,
      schedule: '*/5 * * * *',
      minIntervalMs: 86_400_000,
    });
    expect(dreamScheduleSettings(cfg, 'fusion')).toMatchObject({
      enabled: false,
      schedule: '*/5 * * * *',
      minIntervalMs: 1000,
    });
  });

  it('GITMEM_DREAM_CHECK_MS (tests) shortens the check interval; junk is ignored', () => {
    expect(checkIntervalMs({})).toBe(15_000);
    expect(checkIntervalMs({ GITMEM_DREAM_CHECK_MS: '200' })).toBe(200);
    expect(checkIntervalMs({ GITMEM_DREAM_CHECK_MS: '-1' })).toBe(15_000);
  });
});
