// Scheduled dreams in the language server, as `gitmem watch` runs them: dream.* (or, with the Fusion
// layout, insightExtraction*) in gitmem.config.json, off by default. The scheduler, its cron and the
// last-run record in derived state are service/ace/dream-schedule.ts's; the pass is
// service/ace/insights.ts scheduledDream (proposals only, uncommitted). Files it wrote are reloaded
// into the editor model and re-indexed. deps: core, service, vscode-languageserver (through context).
import type { RelPath } from '../core/paths.js';
import {
  checkIntervalMs,
  createDreamScheduler,
  dreamScheduleSettings,
  type DreamScheduler,
  type ScheduleEvent,
} from '../service/ace/dream-schedule.js';
import { scheduledDream, type ScheduledDreamResult } from '../service/ace/insights.js';
import type { ServerContext } from './context.js';
import type { Session } from './session.js';

/**
 * Start the dream schedule of `s` when the configuration enables it.
 * @returns the running scheduler (stop it with the session), or undefined when dreams are off or
 * the schedule does not parse (logged; the session keeps serving).
 */
export function startDreams(ctx: ServerContext, s: Session): DreamScheduler<ScheduledDreamResult> | undefined {
  const settings = dreamScheduleSettings(s.memory.config, s.memory.loaded.layout.name);
  if (!settings.enabled) return undefined;
  let scheduler: DreamScheduler<ScheduledDreamResult>;
  try {
    scheduler = createDreamScheduler({
      settings,
      storage: s.memory.storage,
      clock: ctx.clock,
      run: (now) =>
        scheduledDream(s.memory.context, {
          git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
          fs: s.platform.fs,
          now,
          exists: (p) => s.model.hasFile(p) || s.model.doc(p as RelPath) !== undefined,
        }),
      onEvent: (e) => onEvent(ctx, s, e),
    });
  } catch (e) {
    ctx.log.warn(`gitmem: dreams are not scheduled: ${(e as Error)?.message ?? e}`);
    return undefined;
  }
  scheduler.start(checkIntervalMs());
  ctx.log.info(
    `gitmem: dreams on "${settings.schedule}" (minimum interval ${settings.minIntervalMs} ms); next ${scheduler.next() ?? 'never'}`,
  );
  return scheduler;
}

function onEvent(ctx: ServerContext, s: Session, e: ScheduleEvent<ScheduledDreamResult>): void {
  const next = e.next ? `; next ${e.next}` : '';
  if (e.event === 'dream-skipped') {
    ctx.log.info(`gitmem: dream skipped: last run ${e.lastRun}, minimum interval until ${e.allowedAt}${next}`);
    return;
  }
  if (e.event === 'dream-failed') {
    ctx.log.warn(`gitmem: dream failed: ${e.error}${next}`);
    return;
  }
  const r = e.result;
  for (const f of r.files) {
    const rel = f as RelPath;
    // An open buffer wins over the disk, as for any file event.
    if (ctx.session() !== s || s.overlay.get(rel) !== undefined) continue;
    void s.model.reload(rel).then(
      (res) => {
        ctx.diagnostics.publish(s, res.affected);
        if (res.changed) ctx.updates.schedule(rel, 'changed');
      },
      (err) => ctx.log.error(`gitmem: reload ${rel} after the dream failed: ${(err as Error)?.message ?? err}`),
    );
  }
  ctx.log.info(
    `gitmem: dream: ${r.proposed.length} new proposals, ${r.awaiting} awaiting review${r.files.length ? ` (${r.files.join(', ')})` : ''}${next}`,
  );
}
