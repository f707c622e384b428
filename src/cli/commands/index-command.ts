// `gitmem index`: bring the derived index (keyword segments and vectors) up to date, or rebuild it, with
// a progress bar; Ctrl-C keeps the vectors made so far. (This file is `index-command.ts`, not `index.ts`,
// which would read as the folder's barrel.) deps: service (doctor on demand), cli.
import type { Command } from 'commander';
import { indexHeadline, savedNote, vectorsLine } from '../index-report.js';
import { type GlobalOptions, openWorkspace } from '../open-workspace.js';
import { progressBar } from '../options.js';
import { dim, err, out, printJson } from '../output.js';
import { exitWhenNoLock } from '../signals.js';

/**
 * End the process by `sig` with its default action (no exit handlers, no waiting for a native
 * session run in a worker, which process.exit would do). Falls back to exit code 128 + signal
 * number when another listener keeps the signal from ending the process.
 */
function raise(sig: NodeJS.Signals): never {
  process.removeAllListeners(sig);
  process.kill(process.pid, sig);
  process.exit(sig === 'SIGTERM' ? 143 : 130);
}

/** Add `index` (with its action) to `program`; `g` gives the program's global options. */
export function indexCommand(program: Command, g: () => GlobalOptions): Command {
  return program
    .command('index')
    .description('bring the derived index (keyword segments and vectors) up to date, or rebuild it')
    .option('--rebuild', 'discard the persisted index and rebuild from the markdown')
    .option(
      '--paranoid',
      'after the incremental update, rebuild from scratch in memory and report any difference (exit 1)',
    )
    .action(async (o: { rebuild?: boolean; paranoid?: boolean }) => {
      // Embedding runs in a worker thread, so this thread answers Ctrl-C while a batch is running.
      // Bulk: after the first texts the worker runs the fp32 graph derived from the shipped one.
      const mem = (await openWorkspace(g(), { embedWorker: 'bulk' })).memory;
      const bar = await progressBar(!g().json && process.stderr.isTTY === true);
      let barPhase: string | undefined;
      let lastLine = 0;
      // Ctrl-C / SIGTERM while embedding: stop embedding, keep (save) the vectors already made, then
      // end by the same signal (a shell shows 130 for Ctrl-C). Before the embedding (reading the
      // files, the keyword update and its save), nothing listens for the abort: the call ends as
      // every writing command does, between two writes (exitWhenNoLock), and the index on disk stays
      // the one before or, when its save had finished, the new one. A second signal ends at once;
      // vectors are also checkpointed during the run, so even that keeps most of them.
      const stop = new AbortController();
      let embedding = false;
      const onSignal = (sig: NodeJS.Signals) => {
        if (stop.signal.aborted) raise(sig);
        stop.abort(sig);
        if (!embedding) {
          if (!g().json)
            err('gitmem: interrupted before embedding; the index on disk stays whole (run `gitmem index` again)');
          exitWhenNoLock(sig);
        }
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const res = await mem
        .index({
          signal: stop.signal,
          ...(o.rebuild ? { rebuild: true } : {}),
          ...(o.paranoid ? { paranoid: true } : {}),
          onProgress: (phase, done, total) => {
            if (phase === 'embed') embedding = true;
            if (bar) {
              if (total > 0 && barPhase !== phase) {
                if (barPhase) bar.stop();
                bar.start(total, 0, { phase, unit: phase === 'embed' ? 'chunks' : 'files' });
                barPhase = phase;
              }
              if (total > 0) bar.update(done, { phase });
            } else if (!g().json) {
              // Not a terminal: plain lines, at most one per phase change or per 10 %.
              const step = total > 0 ? Math.floor((done / total) * 10) : -1;
              if (phase !== barPhase || (total > 0 && step !== lastLine)) {
                err(`gitmem: ${phase}${total > 0 ? ` ${done}/${total}` : '…'}`);
                barPhase = phase;
                lastLine = step;
              }
            }
          },
        })
        .finally(() => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        });
      if (bar && barPhase) bar.stop();
      // The first index of a workspace says what markdown its layout leaves out (R29).
      const left = /^index missing/.test(res.reason ?? '')
        ? await import('../../service/doctor/left-out.js')
        : undefined;
      const leftOut = await left?.leftOutMarkdown(mem.context.fs, mem.context.loaded.layout);
      if (g().json) printJson(leftOut ? { ...res, leftOut } : res);
      else {
        if (leftOut?.count) err(`gitmem: note: ${left!.leftOutLine(leftOut, mem.context.loaded.layout.name)}`);
        out(
          `${indexHeadline(res)}: ${res.files} files, ${res.chunks} chunks in ${res.ms.toFixed(0)} ms ${savedNote(res.saved, res.vectors)}`,
        );
        out(res.vectors.unavailable ? dim(vectorsLine(res.vectors)) : vectorsLine(res.vectors));
        for (const s of res.skipped) out(dim(`skipped ${s.path}: ${s.reason}`));
        out(dim(`derived state: ${res.location}`));
        if (res.paranoid) for (const d of res.paranoid.differences) out(`paranoid: ${d}`);
        if (res.paranoid)
          out(
            res.paranoid.differences.length
              ? `Paranoid check FAILED: the incremental index differs from a rebuild`
              : `Paranoid check: identical to a rebuild (${res.paranoid.queries} queries)`,
          );
      }
      if (res.paranoid?.differences.length) process.exitCode = 1;
      if (res.vectors.interrupted) {
        if (!g().json)
          err(
            `gitmem: interrupted; ${res.vectors.total - res.vectors.missing} of ${res.vectors.total} chunks are embedded and saved — run \`gitmem index\` to embed the rest`,
          );
        // The batch in flight is abandoned: end now rather than wait for the runtime to finish it.
        raise((stop.signal.reason as NodeJS.Signals | undefined) ?? 'SIGINT');
      }
    });
}
