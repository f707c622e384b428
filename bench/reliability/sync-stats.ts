// Per-sync figures of the convergence harness (issue 46): each `gitmem sync` it ran (wall time, CPU,
// fetch-merge-push rounds, exit status) and what they add up to — how many syncs needed 1, 2, 3…
// rounds, the wall time of the one-round and the many-round syncs, the wall time per round, and a
// progress line for long runs (the soak). Wall time depends on the machine's load; rounds and CPU do not.
import { percentile } from './clone-ops.js';

/** One `gitmem sync` the harness ran. */
export interface SyncSample {
  /** Wall time (ms), process start included. */
  readonly ms: number;
  /** CPU (ms, user + system of the node process and the children it waited for), when measured. */
  readonly cpuMs?: number;
  /** Fetch-merge-push rounds (`attempts` of the report or of the exit-6 error), when known. */
  readonly rounds?: number;
  readonly code: number | null;
}

export interface SyncBreakdown {
  /** Syncs by rounds: [rounds, count] in rounds order. */
  readonly byRounds: readonly (readonly [number, number])[];
  /** Wall P50 / P95 (ms) of the syncs that ran one round, and of those that ran more. */
  readonly oneRound: { readonly n: number; readonly p50: number; readonly p95: number };
  readonly moreRounds: { readonly n: number; readonly p50: number; readonly p95: number };
  /** Of the slowest 5 % of syncs (wall), how many ran more than one round. */
  readonly tailMulti: { readonly n: number; readonly of: number };
  /** Mean wall time per round (ms): the sum of wall times over the sum of rounds. */
  readonly msPerRound: number;
}

const fig = (xs: readonly number[]) => ({ n: xs.length, p50: percentile(xs, 0.5), p95: percentile(xs, 0.95) });

/** What the samples add up to (samples without a round count are left out of the round figures). */
export function syncBreakdown(samples: readonly SyncSample[]): SyncBreakdown {
  const counted = samples.filter((s) => s.rounds !== undefined && Number.isFinite(s.rounds));
  const by = new Map<number, number>();
  for (const s of counted) by.set(s.rounds!, (by.get(s.rounds!) ?? 0) + 1);
  const sorted = [...counted].sort((a, b) => b.ms - a.ms);
  const tail = sorted.slice(0, Math.max(1, Math.ceil(sorted.length * 0.05)));
  const rounds = counted.reduce((a, s) => a + s.rounds!, 0);
  return {
    byRounds: [...by].sort((a, b) => a[0] - b[0]),
    oneRound: fig(counted.filter((s) => s.rounds === 1).map((s) => s.ms)),
    moreRounds: fig(counted.filter((s) => s.rounds! > 1).map((s) => s.ms)),
    tailMulti: { n: tail.filter((s) => s.rounds! > 1).length, of: counted.length ? tail.length : 0 },
    msPerRound: rounds ? counted.reduce((a, s) => a + s.ms, 0) / rounds : NaN,
  };
}

const sec = (x: number) => (Number.isFinite(x) ? `${(x / 1000).toFixed(1)} s` : '—');

/** The breakdown as figure rows (label, value) for printFigures. */
export function breakdownRows(b: SyncBreakdown): [string, string][] {
  return [
    ['syncs by rounds (rounds: syncs)', b.byRounds.map(([r, n]) => `${r}: ${n}`).join(', ') || '—'],
    ['  one-round syncs, wall P50 / P95', `${sec(b.oneRound.p50)} / ${sec(b.oneRound.p95)} (${b.oneRound.n})`],
    ['  many-round syncs, wall P50 / P95', `${sec(b.moreRounds.p50)} / ${sec(b.moreRounds.p95)} (${b.moreRounds.n})`],
    ['  slowest 5 % that ran more than one round', `${b.tailMulti.n} of ${b.tailMulti.of}`],
    ['  wall time per round (mean)', sec(b.msPerRound)],
  ];
}

/** One progress line: writes so far, syncs, wall P50/P95, CPU P50/P95, rounds mean, exit 5 and 6 counts. */
export function progressLine(writes: number, samples: readonly SyncSample[], elapsedMs: number): string {
  const ms = samples.map((s) => s.ms);
  const cpu = samples.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));
  const rounds = samples.flatMap((s) => (s.rounds === undefined ? [] : [s.rounds]));
  const mean = rounds.length ? rounds.reduce((a, b) => a + b, 0) / rounds.length : NaN;
  const exits = (c: number) => samples.filter((s) => s.code === c).length;
  return (
    `  … ${Math.round(elapsedMs / 60000)} min: ${writes} writes, ${samples.length} syncs, wall P50 ${sec(percentile(ms, 0.5))} ` +
    `P95 ${sec(percentile(ms, 0.95))}, CPU P50 ${Math.round(percentile(cpu, 0.5))} ms P95 ${Math.round(percentile(cpu, 0.95))} ms, ` +
    `rounds mean ${mean.toFixed(2)}, exit 5: ${exits(5)}, exit 6: ${exits(6)}`
  );
}
