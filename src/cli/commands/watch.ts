// `gitmem watch`: keep the index fresh while files change (docs/DESIGN.md §3, docs/ARCHITECTURE.md). Long-running;
// one status line per update (JSON lines with --json); SIGINT/SIGTERM stop it cleanly: pending
// changes are applied, the index and vectors saved, the writer lock released. deps: service, platform, core.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { Debouncer } from '../../core/debounce.js';
import { MemoryError, shownValue } from '../../core/errors.js';
import { createNodeFs } from '../../platform/node-fs.js';
import type { ScheduleEvent } from '../../service/ace/dream-schedule.js';
import { scheduledDream, type ScheduledDreamResult } from '../../service/ace/insights.js';
import type { MemoryChangeEvent } from '../../service/memory.js';
import type { CliContext } from '../context.js';
import { dim, out, err } from '../output.js';
import { stopSignal } from '../signals.js';
import { startHost } from '../host-start.js';
import { MAX_IDLE_EXIT_S } from '../host-autostart.js';

/** One JSON object per line (a stream, unlike printJson's pretty output). */
const jsonLine = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);

function parseMs(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 60_000)
    throw new MemoryError('usage', `expected milliseconds between 0 and 60000, got ${shownValue(v)}`);
  return n;
}

function parseSeconds(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > MAX_IDLE_EXIT_S)
    throw new MemoryError('usage', `expected whole seconds between 1 and ${MAX_IDLE_EXIT_S}, got ${shownValue(v)}`);
  return n;
}

/**
 * `--idle-exit`: a promise that resolves `idle` once no one-shot call has arrived for `seconds`;
 * `touch` restarts the wait (each call). Without `seconds` it never resolves.
 */
function idleStop(seconds: number | undefined): { stopped: Promise<string>; touch: () => void } {
  if (seconds === undefined) return { stopped: new Promise<string>(() => undefined), touch: () => undefined };
  let fire: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (fire = resolve));
  // unref: the watcher keeps the process alive; a stopped watch must not wait for this (core/debounce.ts).
  const idle = new Debouncer(() => fire('idle'), { delayMs: seconds * 1000, unref: true });
  const touch = () => idle.schedule();
  touch();
  return { stopped, touch };
}

const clock = () => new Date().toTimeString().slice(0, 8);

function dreamLine(e: ScheduleEvent<ScheduledDreamResult>): string {
  const next = e.next ? `; next ${e.next}` : '';
  if (e.event === 'dream-skipped')
    return `${clock()} dream skipped: last run ${e.lastRun}, minimum interval until ${e.allowedAt}${next}`;
  if (e.event === 'dream-failed') return `${clock()} dream failed: ${e.error}${next}`;
  const r = e.result;
  return `${clock()} dream: ${r.proposed.length} new proposals, ${r.awaiting} awaiting review${r.files.length ? ` (${r.files.join(', ')})` : ''}${next}`;
}

function statusLine(e: MemoryChangeEvent): string {
  if (e.reason === 'compaction') return `${clock()} compacted: one base segment, ${e.chunks} chunks`;
  if (e.reason === 'vectors')
    return `${clock()} vectors: ${e.embedded} embedded${e.vectorMs === null ? '' : ` · ${e.vectorMs.toFixed(0)} ms since the update began`}${e.vectorsPending ? ` · ${e.vectorsPending} not embedded` : ''}`;
  const parts = [`${e.upserted.length} re-indexed`, `${e.removed.length} removed`];
  if (e.failed.length) parts.push(`${e.failed.length} unreadable`);
  // The vectors follow in the background; a `vectors` line reports them.
  const vec = e.vectorsPending > 0 ? ` · ${e.vectorsPending} chunks to embed in the background` : '';
  const saved = e.persisted ? '' : ' · not saved (another process writes the index)';
  return `${clock()} ${e.reason === 'changes' ? 'updated' : e.reason}: ${parts.join(', ')} · ${e.chunks} chunks (delta ${e.delta}) · keyword ${e.keywordMs.toFixed(0)} ms${vec}${saved}`;
}

/**
 * Embedding progress on stderr (stdout stays the status or JSON-lines stream): a note when a run
 * starts (one line for a run of one group), then for a longer run `gitmem: embed done/total` at
 * most every 2 s, and the last one.
 */
function embedProgress(): (done: number, total: number) => void {
  let last = 0;
  let groups = 0;
  return (done, total) => {
    const now = performance.now();
    if (done === 0) {
      err(`gitmem: note: embedding ${total} new or changed chunks…`);
      last = now;
      groups = 0;
      return;
    }
    groups++;
    if (done === total && groups === 1) return; // one group: the note said it all
    if (done === total || now - last >= 2000) {
      err(`gitmem: embed ${done}/${total}`);
      last = now;
    }
  };
}

export function registerWatchCommands(program: Command, ctx: CliContext): void {
  program
    .command('watch')
    .description('keep the index up to date while memory files change (long-running; Ctrl-C stops it)')
    .option('--debounce <ms>', 'quiet time that ends a burst of file events', parseMs, 50)
    .option('--poll', 'poll the file system instead of native events (network drives)')
    .option(
      '--idle-exit <seconds>',
      'stop once no one-shot call has been answered for this long (also at once when another host already answers this workspace)',
      parseSeconds,
    )
    .action(async (o: { debounce: number; poll?: boolean; idleExit?: number }) => {
      // Imported here: chokidar and croner serve a running watch only, and every other command
      // (a one-shot recall above all) would otherwise compile them at start-up.
      const [{ createChokidarWatcher }, { checkIntervalMs, createDreamScheduler, dreamScheduleSettings }] =
        await Promise.all([import('../../platform/watcher.js'), import('../../service/ace/dream-schedule.js')]);
      const json = ctx.json();
      const opened = await ctx.open({ freshness: 'manual' });
      const mem = opened.memory;
      let stopping = false;
      // The stop must finish within a second of the signal, or the process exits anyway.
      const stop = stopSignal();
      try {
        mem.onDidChange((e) => {
          if (stopping && e.reason === 'compaction') return;
          if (json) jsonLine({ event: 'update', ...e });
          else if (e.reason !== 'vectors' || e.embedded > 0 || e.vectorsPending > 0) out(statusLine(e));
        });
        const session = await mem.startWatching(
          (w) => createChokidarWatcher({ ...w, ...(o.poll ? { usePolling: true } : {}) }),
          {
            debounceMs: o.debounce,
            onEmbedProgress: embedProgress(),
          },
        );
        // Scheduled dreams (dream.* or, with the Fusion layout, insightExtraction*): off by default.
        const settings = dreamScheduleSettings(mem.config, mem.loaded.layout.name);
        const fs = createNodeFs(opened.root);
        const scheduler = settings.enabled
          ? createDreamScheduler({
              settings,
              storage: mem.storage,
              clock: { now: () => new Date() },
              run: (now) =>
                scheduledDream(mem.context, {
                  git: { gitdir: opened.gitdir, workTree: opened.workTree },
                  fs,
                  now,
                  exists: (p) => existsSync(join(opened.root, p)),
                }),
              onEvent: (e) => (json ? jsonLine(e) : out(dreamLine(e))),
            })
          : undefined;
        scheduler?.start(checkIntervalMs());
        const dreams = scheduler
          ? { schedule: settings.schedule, minIntervalMs: settings.minIntervalMs, next: scheduler.next() }
          : null;
        // One-shot CLI calls in this workspace are answered from this process's index (src/host/).
        const idle = idleStop(o.idleExit);
        const host = await startHost(opened, 'watch', idle.touch);
        const hostLine = 'refused' in host ? { socket: null, refused: host.refused } : { socket: host.path };
        if (json)
          jsonLine({
            event: 'ready',
            root: opened.root,
            ...session,
            reconciled: session.reconciled ?? null,
            dreams,
            host: hostLine,
          });
        else {
          const rec = session.reconciled;
          out(
            `${clock()} watching ${opened.root} (${session.mode}${session.writer ? '' : ', read-only: another process writes the index'}): ` +
              `${session.files} files, ${session.chunks} chunks` +
              (rec ? `; caught up with ${rec.upserted.length} changed and ${rec.removed.length} removed files` : ''),
          );
          if (dreams)
            out(
              dim(
                `dreams on "${dreams.schedule}" (minimum interval ${dreams.minIntervalMs} ms); next ${dreams.next ?? 'never'}`,
              ),
            );
          out(
            dim(
              'refused' in host
                ? `not answering one-shot calls: ${host.refused}`
                : `answering one-shot calls at ${host.path}`,
            ),
          );
          out(dim('press Ctrl-C to stop'));
        }
        // A watch that only exists to answer calls (`--idle-exit`, as GITMEM_HOST_AUTOSTART starts it)
        // has nothing to do when another host answers them.
        const sig =
          o.idleExit !== undefined && 'refused' in host ? 'no host' : await Promise.race([stop, idle.stopped]);
        stopping = true;
        if (!('refused' in host)) await host.close();
        await scheduler?.stop();
        await mem.stopWatching();
        if (json) jsonLine({ event: 'stopped', signal: sig });
        else
          out(
            `${clock()} stopped (${sig === 'idle' ? `no one-shot call for ${o.idleExit} s` : sig === 'no host' ? 'not answering one-shot calls, --idle-exit' : sig}); index saved`,
          );
      } finally {
        await mem.dispose();
      }
    });
}
