// Concurrent writers (issue 10 §2, docs/DESIGN.md §10): several real CLI processes write one workspace at the
// same moment: entries with the same title, appends to the same daily note (plain, and with an
// expected content hash), `state set` from several agents (plain, and with an expected hash), while
// `index` runs beside them. No acknowledged write may be lost; a write that would overwrite another's
// change must fail with `fs.conflict`, never succeed silently. Prints writers, writes, lost, conflicts.
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeWorkspace, marker, ms, printFigures, removeDir, rng, runCli, words, type CliResult } from './common.js';

export interface ConcurrentOptions {
  /** Processes started at once per scenario. */
  readonly writers: number;
  /** How many times each scenario is repeated. */
  readonly rounds: number;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface ScenarioFigures {
  readonly name: string;
  readonly writes: number;
  readonly acknowledged: number;
  readonly conflicts: number;
  readonly lost: number;
  /** Exits that were neither success nor a reported conflict. */
  readonly errors: number;
}

export interface ConcurrentFigures {
  readonly seed: number;
  readonly writers: number;
  readonly rounds: number;
  readonly scenarios: readonly ScenarioFigures[];
  readonly writes: number;
  readonly acknowledged: number;
  readonly lost: number;
  readonly conflicts: number;
  readonly errors: number;
  /** Scenarios where more writers succeeded than optimistic concurrency allows (silent overwrite). */
  readonly overwrites: number;
  readonly failures: readonly string[];
  readonly ms: number;
}

/** Same normalisation as core/hash.ts contentHash. */
function contentHash(text: string): string {
  return createHash('sha256')
    .update(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'))
    .digest('hex');
}

const isConflict = (r: CliResult) => r.code === 1 && r.json?.error?.code === 'fs.conflict';

export async function runConcurrent(options: ConcurrentOptions): Promise<ConcurrentFigures> {
  const t0 = performance.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rand = rng(seed);
  const log = options.log ?? (() => undefined);
  const root = makeWorkspace({ model: false, prefix: 'gitmem-conc-' });
  const failures: string[] = [];
  const fail = (m: string) => {
    failures.push(m);
    log(`  ! ${m}`);
  };
  const read = (p: string) => (existsSync(join(root, p)) ? readFileSync(join(root, p), 'utf8') : '');
  const totals = new Map<
    string,
    { writes: number; acknowledged: number; conflicts: number; lost: number; errors: number }
  >();
  let overwrites = 0;
  const W = options.writers;
  const date = '2031-01-15';
  const daily = `memory/${date}.md`;
  const STATE = 'memory/CURRENT_STATE.md';

  function tally(
    name: string,
    results: readonly CliResult[],
    present: (r: CliResult, i: number) => boolean,
    maxAcked = Infinity,
  ): void {
    const t = totals.get(name) ?? { writes: 0, acknowledged: 0, conflicts: 0, lost: 0, errors: 0 };
    totals.set(name, t);
    let acked = 0;
    results.forEach((r, i) => {
      t.writes++;
      if (r.code === 0 && r.json && !r.json.error) {
        acked++;
        t.acknowledged++;
        if (!present(r, i)) {
          t.lost++;
          fail(`${name}: acknowledged write ${i} is missing`);
        }
      } else if (isConflict(r)) t.conflicts++;
      else {
        t.errors++;
        fail(`${name}: writer ${i} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
      }
    });
    if (acked > maxAcked) {
      overwrites++;
      fail(`${name}: ${acked} writers succeeded with the same expected hash (at most ${maxAcked} may)`);
    }
  }

  /** Start `argsList` at once, with an `index` run beside them. */
  async function together(argsList: string[][]): Promise<CliResult[]> {
    const all = await Promise.all([...argsList.map((a) => runCli(root, a)), runCli(root, ['--json', 'index'])]);
    const idx = all.pop()!;
    if (idx.code !== 0) fail(`index beside the writers exited ${idx.code}: ${idx.stderr.slice(0, 300)}`);
    return all;
  }

  try {
    for (let round = 0; round < options.rounds; round++) {
      // 1. Same title from every writer: distinct files, none overwritten.
      const texts = Array.from({ length: W }, () => `${marker(rand)} ${words(rand, 8)}`);
      const rem = await together(texts.map((t) => ['--json', 'remember', t, '--title', 'Shared title']));
      const paths = rem.filter((r) => r.code === 0 && r.json?.status === 'created').map((r) => r.json.path as string);
      if (new Set(paths).size !== paths.length) fail(`same-title remember: two writers reported the same file`);
      tally('same-title remember', rem, (r, i) => read(r.json.path).endsWith(`\n${texts[i]}\n`));

      // 2. Plain appends to one daily note: all land, each exactly once.
      const notes = Array.from({ length: W }, () => marker(rand, 'ap'));
      const app = await together(notes.map((m) => ['--json', 'append', '--date', date, `${m} ${words(rand, 4)}`]));
      tally('daily append', app, (_r, i) => read(daily).split(notes[i]!).length === 2);

      // 3. Appends with the same expected hash: one wins, the rest get fs.conflict.
      const h = contentHash(read(daily));
      const cas = Array.from({ length: W }, () => marker(rand, 'cas'));
      const appCas = await together(cas.map((m) => ['--json', 'append', '--date', date, '--expect-hash', h, m]));
      tally('daily append --expect-hash', appCas, (_r, i) => read(daily).includes(cas[i]!), 1);

      // 4. state set from several agents (read-modify-write of CURRENT_STATE.md).
      const decisions = Array.from({ length: W }, () => marker(rand, 'dec'));
      const st = await together(
        decisions.map((d) => ['--json', 'state', 'set', '--decision', `${d} ${words(rand, 3)}`]),
      );
      tally('state set', st, (_r, i) => read(STATE).includes(decisions[i]!));

      // 5. state set with the same expected hash: at most one wins.
      const sh = contentHash(read(STATE));
      const steps = Array.from({ length: W }, () => marker(rand, 'step'));
      const stCas = await together(steps.map((s) => ['--json', 'state', 'set', '--step', s, '--expect-hash', sh]));
      tally('state set --expect-hash', stCas, (_r, i) => read(STATE).includes(steps[i]!), 1);
      log(`  round ${round + 1}/${options.rounds} done`);
    }
    const scenarios = [...totals].map(([name, t]) => ({ name, ...t }));
    const sum = (k: keyof Omit<ScenarioFigures, 'name'>) => scenarios.reduce((s, x) => s + x[k], 0);
    return {
      seed,
      writers: W,
      rounds: options.rounds,
      scenarios,
      writes: sum('writes'),
      acknowledged: sum('acknowledged'),
      lost: sum('lost'),
      conflicts: sum('conflicts'),
      errors: sum('errors'),
      overwrites,
      failures,
      ms: performance.now() - t0,
    };
  } finally {
    if (failures.length === 0) removeDir(dirname(root));
    else log(`  workspace kept for inspection: ${root}`);
  }
}

export function printConcurrent(f: ConcurrentFigures, log: (s: string) => void = console.log): void {
  printFigures(
    `Concurrent writers (${f.writers} processes at once + an index run, ${f.rounds} rounds; seed ${f.seed})`,
    [
      ...f.scenarios.map(
        (s) =>
          [
            s.name,
            `${s.writes} writes, ${s.acknowledged} acknowledged, ${s.conflicts} conflicts, ${s.lost} lost${s.errors ? `, ${s.errors} errors` : ''}`,
          ] as const,
      ),
      ['writers', f.writers],
      ['writes', f.writes],
      ['acknowledged', f.acknowledged],
      ['lost', f.lost],
      ['conflicts reported', f.conflicts],
      ['silent overwrites', f.overwrites],
      ['other errors', f.errors],
      ['wall time', ms(f.ms)],
    ],
    log,
  );
}
