// Dreams on a schedule: `dream.schedule` (cron, parsed by croner), `dream.minIntervalMs` and
// `dream.enabled` — with the Fusion layout its own names `insightExtractionEnabled`,
// `insightExtractionSchedule`, `insightExtractionMinIntervalMs` win. A long-running host (`gitmem
// watch`, the language server) checks on a timer; the last run's time is kept in derived state, so a
// run is never closer than the minimum interval to the previous one, even across restarts. The pass
// itself only proposes (service/ace/insights.ts); nothing is promoted without review.
// deps: core, service (insights), croner.
import { Cron } from 'croner';
import type { MemoryConfig } from '../../core/config.js';
import { MemoryError } from '../../core/errors.js';
import type { LayoutName } from '../../core/layout.js';
import type { Clock, IndexStorage } from '../../core/ports.js';

export const SCHEDULE_ARTIFACT = 'dream-schedule.json';
/** How often a host checks whether a run is due (ms). Tests shorten it with GITMEM_DREAM_CHECK_MS. */
const DEFAULT_CHECK_MS = 15_000;

export interface DreamScheduleSettings {
  readonly enabled: boolean;
  readonly schedule: string;
  readonly minIntervalMs: number;
  /** Which setting names were read: `dream` or the Fusion `insightExtraction*` names. */
  readonly from: 'dream' | 'fusion';
}

/** The schedule settings in force for `layout` (Fusion names with the fusion layout, defaults `0 2 * * *`, one day). */
export function dreamScheduleSettings(config: MemoryConfig, layout: LayoutName): DreamScheduleSettings {
  const d = config.dream;
  if (layout !== 'fusion')
    return { enabled: d.enabled, schedule: d.schedule, minIntervalMs: d.minIntervalMs, from: 'dream' };
  return {
    enabled: config.insightExtractionEnabled ?? d.enabled,
    schedule: config.insightExtractionSchedule ?? d.schedule,
    minIntervalMs: config.insightExtractionMinIntervalMs ?? d.minIntervalMs,
    from: 'fusion',
  };
}

/**
 * Parse a cron expression (5 fields, or 6 with seconds first; host time zone).
 * @throws MemoryError `config.invalid` naming the expression and croner's reason.
 */
export function parseSchedule(expr: string, setting = 'dream.schedule'): Cron {
  try {
    return new Cron(expr, { paused: true });
  } catch (e) {
    throw new MemoryError(
      'config.invalid',
      `${setting} "${expr}" is not a cron expression: ${e instanceof Error ? e.message : String(e)}`,
      {
        hint: 'five fields: minute hour day-of-month month day-of-week, e.g. "0 2 * * *" (02:00 every day)',
      },
    );
  }
}

/** What a check decides. */
export type TickDecision =
  | { readonly action: 'wait' }
  | { readonly action: 'run' }
  | { readonly action: 'skip'; readonly lastRun: Date; readonly allowedAt: Date };

/**
 * One check: a scheduled time (`due`, or null when none has come) at or before `now` means run,
 * unless the last run was less than `minIntervalMs` ago (then skip this occurrence).
 */
export function decideTick(due: Date | null, lastRun: Date | null, now: Date, minIntervalMs: number): TickDecision {
  if (!due || due.getTime() > now.getTime()) return { action: 'wait' };
  if (lastRun && now.getTime() - lastRun.getTime() < minIntervalMs) {
    return { action: 'skip', lastRun, allowedAt: new Date(lastRun.getTime() + minIntervalMs) };
  }
  return { action: 'run' };
}

/** The last run time in derived state (null when never run, or unreadable). */
export async function readLastRun(storage: IndexStorage): Promise<Date | null> {
  const bytes = await storage.read(SCHEDULE_ARTIFACT);
  if (!bytes) return null;
  try {
    const t = Date.parse((JSON.parse(new TextDecoder().decode(bytes)) as { lastRun?: string }).lastRun ?? '');
    return Number.isNaN(t) ? null : new Date(t);
  } catch {
    return null;
  }
}

async function writeLastRun(storage: IndexStorage, at: Date): Promise<void> {
  await storage.write(SCHEDULE_ARTIFACT, `${JSON.stringify({ lastRun: at.toISOString() })}\n`);
}

/** What the scheduler reports after a check that did something. */
export type ScheduleEvent<R> =
  | { readonly event: 'dream'; readonly at: string; readonly result: R; readonly next: string | null }
  | {
      readonly event: 'dream-skipped';
      readonly at: string;
      readonly lastRun: string;
      readonly allowedAt: string;
      readonly next: string | null;
    }
  | { readonly event: 'dream-failed'; readonly at: string; readonly error: string; readonly next: string | null };

export interface DreamScheduler<R> {
  /** Check once (timers call this; tests call it with a fake clock). Never throws. */
  tick(): Promise<ScheduleEvent<R> | undefined>;
  /** Check every `checkMs` until {@link stop}. */
  start(checkMs?: number): void;
  /** Stop the timer and wait for a running pass. */
  stop(): Promise<void>;
  /** The next scheduled time (ISO), or null. */
  next(): string | null;
}

/**
 * A scheduler over `run` (the dream pass). The first occurrence it waits for is the one after its
 * creation (a host started at 02:30 does not run the 02:00 dream it missed until the next one).
 * @throws MemoryError `config.invalid` for a bad cron expression.
 */
export function createDreamScheduler<R>(deps: {
  readonly settings: DreamScheduleSettings;
  readonly storage: IndexStorage;
  readonly clock: Clock;
  readonly run: (now: Date) => Promise<R>;
  readonly onEvent?: (e: ScheduleEvent<R>) => void;
}): DreamScheduler<R> {
  const { settings, storage, clock } = deps;
  const cron = parseSchedule(
    settings.schedule,
    settings.from === 'fusion' ? 'insightExtractionSchedule' : 'dream.schedule',
  );
  let due: Date | null = cron.nextRun(clock.now());
  let running: Promise<ScheduleEvent<R> | undefined> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);

  async function check(): Promise<ScheduleEvent<R> | undefined> {
    const now = clock.now();
    const decision = decideTick(due, await readLastRun(storage), now, settings.minIntervalMs);
    if (decision.action === 'wait') return undefined;
    due = cron.nextRun(now);
    if (decision.action === 'skip') {
      return {
        event: 'dream-skipped',
        at: now.toISOString(),
        lastRun: decision.lastRun.toISOString(),
        allowedAt: decision.allowedAt.toISOString(),
        next: iso(due),
      };
    }
    // Recorded before the pass: a pass that fails or crashes still counts, so a broken workspace
    // is not retried on every check.
    await writeLastRun(storage, now);
    try {
      return { event: 'dream', at: now.toISOString(), result: await deps.run(now), next: iso(due) };
    } catch (e) {
      return {
        event: 'dream-failed',
        at: now.toISOString(),
        error: e instanceof Error ? e.message : String(e),
        next: iso(due),
      };
    }
  }

  const scheduler: DreamScheduler<R> = {
    async tick() {
      if (running) return undefined;
      running = check().catch((e: unknown) => ({
        event: 'dream-failed' as const,
        at: clock.now().toISOString(),
        error: e instanceof Error ? e.message : String(e),
        next: iso(due),
      }));
      try {
        const ev = await running;
        if (ev) deps.onEvent?.(ev);
        return ev;
      } finally {
        running = undefined;
      }
    },
    start(checkMs = DEFAULT_CHECK_MS) {
      if (timer) return;
      timer = setInterval(() => void scheduler.tick(), checkMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
    next: () => iso(due),
  };
  return scheduler;
}

/** The check interval for hosts: GITMEM_DREAM_CHECK_MS (tests only) when a positive integer, else {@link DEFAULT_CHECK_MS}. */
export function checkIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GITMEM_DREAM_CHECK_MS);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_CHECK_MS;
}
