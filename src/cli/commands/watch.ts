// `gitmem watch`: keep the index fresh while files change (DESIGN §3, ARCHITECTURE §5). Long-running;
// one status line per update (JSON lines with --json); SIGINT/SIGTERM stop it cleanly: pending
// changes are applied, the index and vectors saved, the writer lock released. deps: service, platform, core.
import type { Command } from 'commander';
import { MemoryError } from '../../core/errors.js';
import { createChokidarWatcher } from '../../platform/watcher.js';
import type { MemoryChangeEvent } from '../../service/memory.js';
import type { CliContext } from '../context.js';
import { dim, out } from '../output.js';
import { stopSignal } from '../signals.js';

/** One JSON object per line (a stream, unlike printJson's pretty output). */
const jsonLine = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);

function parseMs(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 60_000) throw new MemoryError('usage', `expected milliseconds between 0 and 60000, got "${v}"`);
  return n;
}

const clock = () => new Date().toTimeString().slice(0, 8);

function statusLine(e: MemoryChangeEvent): string {
  if (e.reason === 'compaction') return `${clock()} compacted: one base segment, ${e.chunks} chunks`;
  const parts = [`${e.upserted.length} re-indexed`, `${e.removed.length} removed`];
  if (e.failed.length) parts.push(`${e.failed.length} unreadable`);
  const vec = e.vectorMs === null ? '' : ` · vectors ${e.vectorMs.toFixed(0)} ms (${e.embedded} embedded)`;
  const saved = e.persisted ? '' : ' · not saved (another process writes the index)';
  return `${clock()} ${e.reason === 'changes' ? 'updated' : e.reason}: ${parts.join(', ')} · ${e.chunks} chunks (delta ${e.delta}) · keyword ${e.keywordMs.toFixed(0)} ms${vec}${saved}`;
}

export function registerWatchCommands(program: Command, ctx: CliContext): void {
  program
    .command('watch')
    .description('keep the index up to date while memory files change (long-running; Ctrl-C stops it)')
    .option('--debounce <ms>', 'quiet time that ends a burst of file events', parseMs, 50)
    .option('--poll', 'poll the file system instead of native events (network drives)')
    .action(async (o: { debounce: number; poll?: boolean }) => {
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
          else out(statusLine(e));
        });
        const session = await mem.startWatching((w) => createChokidarWatcher({ ...w, ...(o.poll ? { usePolling: true } : {}) }), {
          debounceMs: o.debounce,
        });
        if (json) jsonLine({ event: 'ready', root: opened.root, ...session, reconciled: session.reconciled ?? null });
        else {
          const rec = session.reconciled;
          out(
            `${clock()} watching ${opened.root} (${session.mode}${session.writer ? '' : ', read-only: another process writes the index'}): ` +
              `${session.files} files, ${session.chunks} chunks` +
              (rec ? `; caught up with ${rec.upserted.length} changed and ${rec.removed.length} removed files` : ''),
          );
          out(dim('press Ctrl-C to stop'));
        }
        const sig = await stop;
        stopping = true;
        await mem.stopWatching();
        if (json) jsonLine({ event: 'stopped', signal: sig });
        else out(`${clock()} stopped (${sig}); index saved`);
      } finally {
        await mem.dispose();
      }
    });
}
