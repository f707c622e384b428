// Interrupted `gitmem index` keeps its embeddings: a real `node dist/cli.cjs index` over a workspace
// of a few hundred chunks is stopped with SIGINT (Ctrl-C), SIGTERM or SIGKILL (kill -9) once its
// progress passes 80 %. After each stop: SIGINT/SIGTERM saved what was finished and ended by that
// signal (exit 130 / 143 seen from a shell); SIGKILL kept the last checkpoint, at most one group of
// chunks behind the progress line (vectors are checkpointed after every group while saving is
// cheap, and a checkpoint replaces the previous one atomically). `doctor` reports the vectors kept,
// and the next `index` embeds exactly the rest. Uses the real model (models/).
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { EMBED_GROUP } from '../../src/engine/vectors/semantic.js';
import { CLI, GIT_ENV, makeWorkspace, ms, printFigures, removeDir, rng, runCliSync, words } from './common.js';

export interface InterruptRun {
  readonly signal: 'SIGINT' | 'SIGTERM' | 'SIGKILL';
  /** Chunks the progress line had reported embedded when the signal was sent. */
  readonly doneAtSignal: number;
  /** Chunks this run had to embed (the progress total). */
  readonly total: number;
  /** Of this run's chunks, how many had a vector afterwards (`doctor` count minus earlier runs'). */
  readonly kept: number;
  /** Chunks the next `index` embedded. */
  readonly reembedded: number;
  /** Exit code, or the signal that ended the process. */
  readonly ended: number | NodeJS.Signals | null;
  /** Signal sent → process gone. */
  readonly stopMs: number;
}

export interface InterruptFigures {
  readonly runs: readonly InterruptRun[];
  readonly failures: readonly string[];
  readonly ms: number;
}

/** Write `n` short entries (one chunk each) into the workspace. */
/**
 * Add `n` new entries for run `run`. Earlier runs' entries stay, so their chunks stay in use: a
 * replaced file would leave its vectors unused, and the index keeps some unused vectors for an undo
 * (engine/vectors/semantic.ts), which `doctor` counts until the next sync.
 */
function seed(root: string, n: number, rand: () => number, run: number): void {
  mkdirSync(join(root, 'memory', 'entries'), { recursive: true });
  for (let i = 0; i < n; i++) {
    const id = `note-${run}-${i}`;
    writeFileSync(
      join(root, 'memory', 'entries', `${id}.md`),
      `---\nid: ${id}\ntype: learning\ntitle: note ${i} ${words(rand, 2)}\n---\n\nNote ${i}: ${words(rand, 10)}.\n`,
    );
  }
}

/**
 * Start `index`, send `signal` once the embed progress reaches `fraction`, wait for the exit.
 * Progress comes from the plain `gitmem: embed done/total` lines printed when stderr is not a TTY.
 */
function indexUntil(
  root: string,
  fraction: number,
  signal: InterruptRun['signal'],
): Promise<{
  code: number | null;
  ended: NodeJS.Signals | null;
  done: number;
  total: number;
  stopMs: number;
  stderr: string;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'index'], {
      cwd: root,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let done = 0;
    let total = 0;
    let sentAt = 0;
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      for (const m of d.matchAll(/gitmem: embed (\d+)\/(\d+)/g)) {
        if (sentAt) break;
        const [n, t] = [Number(m[1]), Number(m[2])];
        if (n >= fraction * t) {
          done = n;
          total = t;
          sentAt = performance.now();
          child.kill(signal);
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code, ended) =>
      resolve({ code, ended, done, total, stopMs: sentAt ? performance.now() - sentAt : 0, stderr }),
    );
  });
}

export async function runInterrupt(
  options: { chunks?: number; seed?: number; log?: (s: string) => void } = {},
): Promise<InterruptFigures> {
  const t0 = performance.now();
  const log = options.log ?? (() => undefined);
  const rand = rng(options.seed ?? 7);
  const failures: string[] = [];
  const fail = (s: string) => {
    failures.push(s);
    log(`  ! ${s}`);
  };
  const runs: InterruptRun[] = [];
  const plan: ReadonlyArray<[InterruptRun['signal'], number]> = [
    ['SIGINT', 0.8],
    ['SIGTERM', 0.8],
    ['SIGKILL', 0.8],
  ];
  const root = makeWorkspace({ model: true, prefix: 'gitmem-interrupt-' });
  try {
    for (const [run, [signal, fraction]] of plan.entries()) {
      // A fresh set of chunks each run (new texts → new embedding keys), so every run starts at 0 %.
      seed(root, options.chunks ?? 240, rand, run);
      const r = await indexUntil(root, fraction, signal);
      if (!r.total) {
        fail(`${signal}: index finished before reaching ${fraction * 100} % (exit ${r.code}): ${r.stderr.slice(-300)}`);
        continue;
      }
      // After saving, index ends by the signal it got (a shell shows 130 / 143), or exits with that code.
      const byTheSignal = r.ended === signal || r.code === (signal === 'SIGTERM' ? 143 : 130);
      if (signal !== 'SIGKILL' && !byTheSignal)
        fail(`${signal}: index ended with ${r.code ?? r.ended}, expected ${signal}: ${r.stderr.slice(-300)}`);
      if (signal !== 'SIGKILL' && !/interrupted; \d+ of \d+ chunks are embedded and saved/.test(r.stderr))
        fail(`${signal}: no "interrupted" message: ${r.stderr.slice(-300)}`);
      const doc = runCliSync(root, ['--json', 'doctor']);
      const next = runCliSync(root, ['--json', 'index']);
      const reembedded = Number(next.json?.vectors?.embedded ?? -1);
      const total = Number(next.json?.vectors?.total ?? -1);
      // Earlier runs' chunks were all embedded (checked below for each run), so they are total − r.total.
      const kept = Number(doc.json?.model?.vectors ?? -1) - (total - r.total);
      if (next.code !== 0) fail(`${signal}: the next index failed (exit ${next.code}): ${next.stderr.slice(0, 300)}`);
      if (next.json?.vectors?.missing !== 0)
        fail(`${signal}: the next index left ${next.json?.vectors?.missing} chunks unembedded`);
      // Whatever the signal, the restart embeds exactly what was not kept (nothing saved is redone).
      if (kept + reembedded !== r.total)
        fail(`${signal}: kept ${kept} + re-embedded ${reembedded} ≠ the run's ${r.total} chunks`);
      // Ctrl-C / SIGTERM save everything finished before the signal; SIGKILL keeps the checkpoint of
      // the last group (or the one before, when the kill lands during its save).
      const least = signal === 'SIGKILL' ? r.done - EMBED_GROUP : r.done;
      if (kept < least) fail(`${signal} at ${r.done}/${r.total}: only ${kept} vectors kept (expected ≥ ${least})`);
      runs.push({
        signal,
        doneAtSignal: r.done,
        total: r.total,
        kept,
        reembedded,
        ended: r.code ?? r.ended,
        stopMs: r.stopMs,
      });
      log(
        `  ${signal} at ${r.done}/${r.total}: kept ${kept}, next index embedded ${reembedded}, stopped in ${ms(r.stopMs)}`,
      );
    }
  } finally {
    if (failures.length === 0) removeDir(dirname(root));
    else log(`  workspace kept for inspection: ${root}`);
  }
  return { runs, failures, ms: performance.now() - t0 };
}

export function printInterrupt(f: InterruptFigures, log: (s: string) => void = console.log): void {
  printFigures(
    'Interrupted index (real model): signal at a fraction of the embed phase, then doctor and a second index',
    [
      ...f.runs.map(
        (r) =>
          [
            `${r.signal} at ${r.doneAtSignal}/${r.total} chunks`,
            `ended by ${r.ended} in ${ms(r.stopMs)}; vectors kept ${r.kept}; restart embedded ${r.reembedded} (${((100 * r.reembedded) / Math.max(1, r.total)).toFixed(0)} % of the workspace's ${r.total})`,
          ] as const,
      ),
      ['failures', f.failures.length],
      ['wall time', ms(f.ms)],
    ],
    log,
  );
}
