// Two-clone convergence (issue 19): a bare remote and 2–3 clones, each running remember, append,
// state set, complete-task and sync in a seeded random order, the clones at the same time (so pushes
// race and get rejected). Then every clone syncs until all agree, and each must hold every
// acknowledged memory exactly once, validate clean, and find each write by recall. Prints writes,
// syncs, conflicts, rejected pushes, lost and duplicated. Real `node dist/cli.cjs` and real git.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  git,
  listFiles,
  marker,
  ms,
  printFigures,
  removeDir,
  rng,
  runCli,
  runCliSync,
  tempDir,
  words,
} from './common.js';

export interface ConvergenceOptions {
  readonly clones: number;
  /** Operations per clone (writes and syncs). */
  readonly ops: number;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface ConvergenceFigures {
  readonly seed: number;
  readonly clones: number;
  readonly writes: number;
  readonly acknowledged: number;
  readonly syncs: number;
  /** Syncs that stopped on a true conflict (exit 5). */
  readonly conflicts: number;
  /** Syncs whose push was rejected after its retries (exit 6); a later sync sends the memory. */
  readonly rejected: number;
  /** Acknowledged memories missing from some clone at the end (per clone). */
  readonly lost: number;
  /** Acknowledged memories found more often than written (per clone). */
  readonly duplicated: number;
  /** Acknowledged memories recall did not find (per clone). */
  readonly recallMisses: number;
  /** Clones whose `gitmem validate` reported errors. */
  readonly invalid: number;
  readonly finalRounds: number;
  readonly failures: readonly string[];
  readonly ms: number;
}

type Op = 'remember' | 'append' | 'state' | 'task' | 'sync';
const OPS: readonly Op[] = ['remember', 'append', 'state', 'task', 'sync'];

interface Ack {
  readonly marker: string;
  readonly op: Op;
  readonly clone: number;
  /** Occurrences of the marker in the writer's memory files right after the write. */
  readonly count: number;
}

/** Occurrences of `m` in the memory files of `dir`. */
function occurrences(dir: string, m: string): number {
  let n = 0;
  for (const f of listFiles(dir)) {
    if (!f.startsWith('memory/') || !f.endsWith('.md')) continue;
    n += readFileSync(join(dir, f), 'utf8').split(m).length - 1;
  }
  return n;
}

function setup(clones: number, base: string): { remote: string; dirs: string[] } {
  const remote = join(base, 'remote.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  const first = join(base, 'c0');
  git(base, 'init', '-q', '-b', 'main', first);
  const init = runCliSync(first, ['init', '--merge-driver']);
  if (init.code !== 0) throw new Error(`gitmem init failed: ${init.stderr}`);
  // Keyword recall is what the checks need; the embedding model would only slow every process down.
  writeFileSync(
    join(first, 'gitmem.config.json'),
    `${JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }, null, 2)}\n`,
  );
  git(first, 'add', '-A');
  git(first, 'commit', '-q', '-m', 'initial');
  git(first, 'remote', 'add', 'origin', remote);
  git(first, 'push', '-q', '-u', 'origin', 'main');
  const dirs = [first];
  for (let i = 1; i < clones; i++) {
    const d = join(base, `c${i}`);
    git(base, 'clone', '-q', remote, d);
    const fix = runCliSync(d, ['doctor', '--fix']);
    if (fix.code !== 0) throw new Error(`gitmem doctor --fix failed: ${fix.stderr}`);
    dirs.push(d);
  }
  return { remote, dirs };
}

export async function runConvergence(options: ConvergenceOptions): Promise<ConvergenceFigures> {
  const t0 = performance.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const log = options.log ?? (() => undefined);
  const base = tempDir('gitmem-conv-');
  const failures: string[] = [];
  const acks: Ack[] = [];
  let writes = 0;
  let syncs = 0;
  let conflicts = 0;
  let rejected = 0;
  try {
    const { dirs } = setup(options.clones, base);
    const doSync = async (c: number): Promise<boolean> => {
      syncs++;
      const r = await runCli(dirs[c]!, ['sync', '--json']);
      if (r.code === 0) return true;
      if (r.code === 5) conflicts++;
      else if (r.code === 6) rejected++;
      else failures.push(`clone ${c}: sync exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
      log(`  ! clone ${c} sync exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
      return false;
    };
    const worker = async (c: number) => {
      const rand = rng(seed + c * 7919);
      const dir = dirs[c]!;
      for (let i = 0; i < options.ops; i++) {
        const op = OPS[Math.floor(rand() * OPS.length)]!;
        if (op === 'sync') {
          await doSync(c);
          continue;
        }
        const m = marker(rand, `zq${c}`);
        const text = `${words(rand, 4)} ${m}`;
        writes++;
        let r;
        if (op === 'remember') r = await runCli(dir, ['remember', text, '--type', 'learning', '--json']);
        else if (op === 'append') r = await runCli(dir, ['append', text, '--json']);
        else if (op === 'state') r = await runCli(dir, ['state', 'set', '--decision', text, '--json']);
        else {
          const input = join(base, `task-${c}-${i}.json`);
          writeFileSync(
            input,
            JSON.stringify({ goal: `Work on ${text}`, result: `Finished ${m} with ${words(rand, 3)}.` }),
          );
          r = await runCli(dir, ['complete-task', '--input', input, '--json']);
        }
        const created = r.code === 0 && (r.json?.status === undefined || r.json.status === 'created');
        if (created) acks.push({ marker: m, op, clone: c, count: occurrences(dir, m) });
        else if (r.code !== 0) failures.push(`clone ${c}: ${op} exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
      }
    };
    await Promise.all(dirs.map((_, c) => worker(c)));

    // Converge: sync every clone in turn until all HEADs equal the remote's.
    let finalRounds = 0;
    for (; finalRounds < 2 * options.clones + 2; finalRounds++) {
      for (let c = 0; c < dirs.length; c++) await doSync(c);
      const heads = new Set(dirs.map((d) => git(d, 'rev-parse', 'HEAD').out.trim()));
      const remoteHead = git(dirs[0]!, 'ls-remote', 'origin', 'refs/heads/main').out.split('\t')[0];
      if (heads.size === 1 && heads.has(remoteHead!)) break;
    }
    finalRounds++;

    let lost = 0;
    let duplicated = 0;
    let recallMisses = 0;
    let invalid = 0;
    for (let c = 0; c < dirs.length; c++) {
      const dir = dirs[c]!;
      for (const a of acks) {
        const n = occurrences(dir, a.marker);
        if (n === 0) {
          lost++;
          failures.push(`clone ${c}: ${a.op} ${a.marker} (written in clone ${a.clone}) is missing`);
        } else if (n > a.count) {
          duplicated++;
          failures.push(`clone ${c}: ${a.op} ${a.marker} found ${n}× (written ${a.count}×)`);
        }
        const hit = runCliSync(dir, ['recall', a.marker, '--mode', 'keyword', '--all', '--json']);
        if (!(hit.json?.results?.length > 0)) {
          recallMisses++;
          failures.push(`clone ${c}: recall does not find ${a.marker} (${a.op})`);
        }
      }
      const v = runCliSync(dir, ['validate', '--json']);
      const errors = (v.json?.diagnostics ?? []).filter((d: { severity: string }) => d.severity === 'error');
      if (v.code !== 0 || errors.length) {
        invalid++;
        failures.push(
          `clone ${c}: validate: ${errors.map((d: { path: string; code: string }) => `${d.path} ${d.code}`).join(', ') || v.stderr.trim()}`,
        );
      }
      const dirty = git(dir, 'status', '--porcelain').out.trim();
      if (dirty)
        failures.push(`clone ${c}: work tree not clean after sync: ${dirty.split('\n').slice(0, 3).join(' | ')}`);
    }
    return {
      seed,
      clones: options.clones,
      writes,
      acknowledged: acks.length,
      syncs,
      conflicts,
      rejected,
      lost,
      duplicated,
      recallMisses,
      invalid,
      finalRounds,
      failures,
      ms: performance.now() - t0,
    };
  } finally {
    removeDir(base);
  }
}

export function printConvergence(f: ConvergenceFigures, log: (s: string) => void = console.log): void {
  printFigures(
    `Convergence (${f.clones} clones of one bare remote, random remember/append/state set/complete-task/sync at once; seed ${f.seed})`,
    [
      ['clones', f.clones],
      ['writes', f.writes],
      ['acknowledged', f.acknowledged],
      ['syncs', f.syncs],
      ['conflicts (exit 5)', f.conflicts],
      ['pushes rejected (exit 6)', f.rejected],
      ['final sync rounds', f.finalRounds],
      ['lost', f.lost],
      ['duplicated', f.duplicated],
      ['recall misses', f.recallMisses],
      ['clones failing validate', f.invalid],
      ['wall time', ms(f.ms)],
    ],
    log,
  );
  for (const x of f.failures.slice(0, 10)) log(`  ! ${x}`);
}
