// Convergence of many clones (issues 19 and 46): a bare remote and N clones (2 at CI size, 20 in the
// soak), each making `perKind` writes of every kind — remember, append, state set, complete-task,
// supersede, mv, forget — in a seeded random order with a sync after about one write in four, the
// clones at the same time (so pushes race and get rejected). Then every clone syncs until all agree,
// and each must hold every acknowledged memory exactly once (a moved entry only at its new path, a
// forgotten one archived, a superseding one still naming the old), validate clean, leave no conflict
// in an append-only file, and find each write by recall. Prints writes made and present everywhere,
// duplicates, conflicts (exit 5) and those resolved by a later sync, syncs per clone, sync P50/P95.
// Real `node dist/cli.cjs` and real git; forget goes through `gitmem mcp` (memory_forget).
import { appendFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { CONFLICT_MARKERS, find, markSuperseding, mcpCall, memoryTexts, percentile } from './clone-ops.js';
import { git, marker, ms, printFigures, removeDir, rng, runCli, runCliSync, tempDir, words } from './common.js';
import { breakdownRows, progressLine, syncBreakdown, type SyncBreakdown, type SyncSample } from './sync-stats.js';

export interface ConvergenceOptions {
  readonly clones: number;
  /** Writes of each kind per clone (syncs come on top). */
  readonly perKind: number;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface ConvergenceFigures {
  readonly seed: number;
  readonly clones: number;
  readonly writes: number;
  readonly acknowledged: number;
  /** Acknowledged writes found in every clone with their effect (moved, archived, superseding). */
  readonly everywhere: number;
  readonly syncs: number;
  /** Sync wall times (ms), process start included. */
  readonly syncP50: number;
  readonly syncP95: number;
  /** Fetch-merge-push rounds per sync (from `sync --json`: the report's or the exit-6 error's `attempts`): mean and max. */
  readonly rounds?: { readonly mean: number; readonly max: number };
  /** Syncs by rounds, and the wall time of one-round and many-round syncs (sync-stats.ts). */
  readonly breakdown?: SyncBreakdown;
  /** CPU time per sync (ms, user + system, the node process and the git and merge-driver processes it waited for; Linux). */
  readonly syncCpu?: { readonly mean: number; readonly p50: number; readonly p95: number; readonly selfMean: number };
  /** Syncs that stopped on a true conflict (exit 5). */
  readonly conflicts: number;
  /** Of those, clones whose next sync succeeded. */
  readonly resolved: number;
  /** Append-only files (daily notes, DREAMS.md) with conflict markers, or named by an exit-5 sync. */
  readonly appendConflicts: number;
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
  /** The machine's 1-minute load average at the start and at the end of the run (wall times depend on it). */
  readonly load: readonly [number, number];
}

type Op = 'remember' | 'append' | 'state' | 'task' | 'supersede' | 'mv' | 'forget';
const OPS: readonly Op[] = ['remember', 'append', 'state', 'task', 'supersede', 'mv', 'forget'];

interface Ack {
  readonly marker: string;
  readonly op: Op;
  readonly clone: number;
  /** Occurrences of the marker in the writer's memory files right after the write. */
  readonly count: number;
  /** What must hold of the file with the marker in every clone (mv, forget, supersede). */
  readonly expect?: { readonly path?: string; readonly archived?: boolean; readonly supersedes?: string };
}

/** Occurrences of `m` in the memory files of `dir`. */
function occurrences(dir: string, m: string): number {
  return find(memoryTexts(dir), m).n;
}

/** A seeded shuffle of `perKind` of every op. */
function plan(rand: () => number, perKind: number): Op[] {
  const ops = OPS.flatMap((op) => Array.from({ length: perKind }, () => op));
  for (let i = ops.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [ops[i], ops[j]] = [ops[j]!, ops[i]!];
  }
  return ops;
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
  const loadStart = loadavg()[0]!;
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
    const syncMs: number[] = [];
    const syncCpu: { self: number; children: number }[] = [];
    const syncRounds: number[] = [];
    const samples: SyncSample[] = [];
    let lastProgress = performance.now();
    /** Per clone: an exit-5 sync waiting for a later good one. */
    const pendingConflict = new Set<number>();
    let resolved = 0;
    const appendPaths = new Set<string>();
    const doSync = async (c: number): Promise<boolean> => {
      syncs++;
      const r = await runCli(dirs[c]!, ['sync', '--json'], { cpu: true });
      syncMs.push(r.ms);
      if (r.cpuMs) syncCpu.push(r.cpuMs);
      const rounds = Number(r.json?.attempts ?? r.json?.error?.data?.attempts);
      if (Number.isFinite(rounds)) syncRounds.push(rounds);
      samples.push({
        ms: r.ms,
        code: r.code,
        ...(r.cpuMs ? { cpuMs: r.cpuMs.self + r.cpuMs.children } : {}),
        ...(Number.isFinite(rounds) ? { rounds } : {}),
      });
      if (process.env.GITMEM_BENCH_SYNC_LOG)
        appendFileSync(process.env.GITMEM_BENCH_SYNC_LOG, `${JSON.stringify({ clone: c, ...samples.at(-1) })}\n`);
      // Long runs (the soak) say how they are going every two minutes.
      if (performance.now() - lastProgress > 120_000) {
        lastProgress = performance.now();
        log(progressLine(writes, samples, performance.now() - t0));
      }
      if (r.code === 0) {
        if (pendingConflict.delete(c)) resolved++;
        return true;
      }
      if (r.code === 5) {
        conflicts++;
        pendingConflict.add(c);
        for (const m of `${r.stdout}\n${r.stderr}`.matchAll(/memory\/[\w/.-]*\d{4}-\d{2}-\d{2}[\w.-]*\.md|DREAMS\.md/g))
          appendPaths.add(m[0]);
      } else if (r.code === 6) rejected++;
      else failures.push(`clone ${c}: sync exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
      log(`  ! clone ${c} sync exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
      return false;
    };
    const worker = async (c: number) => {
      const rand = rng(seed + c * 7919);
      const dir = dirs[c]!;
      /** This clone's own entries still active (supersede, mv and forget pick one). */
      const own: { id: string; path: string; marker: string }[] = [];
      // A title without the marker: the entry's id (and a superseding entry's `supersedes:`) then never
      // holds another write's marker, so each marker is counted where its own text is.
      const remember = async (text: string) => {
        const title = `${words(rand, 3)} c${c} w${writes}`;
        const r = await runCli(dir, ['remember', text, '--type', 'learning', '--title', title, '--json']);
        const ok = r.code === 0 && r.json?.status === 'created';
        return { r, ok, id: ok ? String(r.json.id) : '', path: ok ? String(r.json.path) : '' };
      };
      for (const [i, planned] of plan(rand, options.perKind).entries()) {
        const m = marker(rand, `zq${c}`);
        const text = `${words(rand, 4)} ${m}`;
        // supersede, mv and forget need an entry of this clone: a remember comes first when there is none.
        const op: Op = ['supersede', 'mv', 'forget'].includes(planned) && own.length === 0 ? 'remember' : planned;
        writes++;
        let r: { code: number | null; stderr: string; json?: { status?: string } } | undefined;
        let ack: Ack | undefined;
        if (op === 'remember') {
          const w = await remember(text);
          r = w.r;
          if (w.ok) {
            own.push({ id: w.id, path: w.path, marker: m });
            ack = { marker: m, op, clone: c, count: occurrences(dir, m) };
          }
        } else if (op === 'supersede') {
          const old = own.splice(Math.floor(rand() * own.length), 1)[0]!;
          const w = await remember(`${text} replaces an earlier entry`);
          r = w.r;
          if (w.ok) {
            markSuperseding(dir, w.path, old.id);
            own.push({ id: w.id, path: w.path, marker: m });
            ack = { marker: m, op, clone: c, count: occurrences(dir, m), expect: { supersedes: old.id } };
          }
        } else if (op === 'mv') {
          const e = own[Math.floor(rand() * own.length)]!;
          const to = `memory/entries/moved-${c}/${i}-${basename(e.path)}`;
          r = await runCli(dir, ['mv', e.path, to, '--json']);
          if (r.code === 0) {
            e.path = to;
            ack = { marker: e.marker, op, clone: c, count: occurrences(dir, e.marker), expect: { path: to } };
          }
        } else if (op === 'forget') {
          const e = own.splice(Math.floor(rand() * own.length), 1)[0]!;
          const f = await mcpCall(dir, 'memory_forget', { id: e.id });
          r = { code: f.ok ? 0 : 1, stderr: f.error ?? '' };
          if (f.ok)
            ack = { marker: e.marker, op, clone: c, count: occurrences(dir, e.marker), expect: { archived: true } };
        } else if (op === 'append') r = await runCli(dir, ['append', text, '--json']);
        else if (op === 'state') r = await runCli(dir, ['state', 'set', '--decision', text, '--json']);
        else {
          const input = join(base, `task-${c}-${i}.json`);
          writeFileSync(
            input,
            JSON.stringify({ goal: `Work on ${text}`, result: `Finished ${m} with ${words(rand, 3)}.` }),
          );
          r = await runCli(dir, ['complete-task', '--input', input, '--json']);
        }
        if (!ack && r?.code === 0 && (op === 'append' || op === 'state' || op === 'task')) {
          if (r.json?.status === undefined || r.json.status === 'created')
            ack = { marker: m, op, clone: c, count: occurrences(dir, m) };
        }
        if (ack) acks.push(ack);
        else if (r && r.code !== 0)
          failures.push(`clone ${c}: ${op} exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
        if (rand() < 0.25) await doSync(c);
      }
    };
    await Promise.all(dirs.map((_, c) => worker(c)));
    log(progressLine(writes, samples, performance.now() - t0).replace('…', 'writes done,'));

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
    const missingSomewhere = new Set<Ack>();
    for (let c = 0; c < dirs.length; c++) {
      const dir = dirs[c]!;
      const texts = memoryTexts(dir);
      for (const [p, t] of texts)
        if (CONFLICT_MARKERS.test(t) && (/\d{4}-\d{2}-\d{2}[^/]*\.md$/.test(p) || p.endsWith('DREAMS.md')))
          appendPaths.add(p);
      const where = new Map<Ack, string[]>();
      for (const a of acks) {
        const { n, paths } = find(texts, a.marker);
        where.set(a, paths);
        if (n === 0) {
          lost++;
          missingSomewhere.add(a);
          failures.push(`clone ${c}: ${a.op} ${a.marker} (written in clone ${a.clone}) is missing`);
          continue;
        }
        if (n > a.count) {
          duplicated++;
          failures.push(`clone ${c}: ${a.op} ${a.marker} found ${n}× (written ${a.count}×)`);
        }
        const text = texts.get(paths[0]!) ?? '';
        const e = a.expect;
        const bad =
          (e?.path !== undefined && (paths.length !== 1 || paths[0] !== e.path)) ||
          (e?.archived && !/^status: archived$/m.test(text)) ||
          (e?.supersedes !== undefined && !text.includes(`supersedes: [${e.supersedes}]`));
        if (bad) {
          missingSomewhere.add(a);
          failures.push(`clone ${c}: ${a.op} of ${a.marker} not in effect (at ${paths.join(', ')})`);
        }
      }
      // Recall, eight markers a call: each must bring back the file that holds it.
      const found = acks.filter((a) => where.get(a)?.length);
      for (let i = 0; i < found.length; i += 8) {
        const group = found.slice(i, i + 8);
        const hit = runCliSync(dir, [
          'recall',
          ...group.map((a) => a.marker),
          '--mode',
          'keyword',
          '--all',
          '--limit',
          '200',
          '--json',
        ]);
        const got = new Set<string>((hit.json?.results ?? []).map((r: { path: string }) => r.path));
        for (const a of group) {
          if (where.get(a)!.some((p) => got.has(p))) continue;
          const one = runCliSync(dir, ['recall', a.marker, '--mode', 'keyword', '--all', '--json']);
          if (one.json?.results?.length > 0) continue;
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
    for (const p of appendPaths) failures.push(`conflict on append-only file ${p}`);
    return {
      seed,
      clones: options.clones,
      writes,
      acknowledged: acks.length,
      everywhere: acks.length - missingSomewhere.size,
      syncs,
      syncP50: percentile(syncMs, 0.5),
      syncP95: percentile(syncMs, 0.95),
      ...(syncCpu.length ? { syncCpu: cpuFigures(syncCpu) } : {}),
      ...(syncRounds.length
        ? { rounds: { mean: syncRounds.reduce((a, b) => a + b, 0) / syncRounds.length, max: Math.max(...syncRounds) } }
        : {}),
      ...(syncRounds.length ? { breakdown: syncBreakdown(samples) } : {}),
      conflicts,
      resolved,
      appendConflicts: appendPaths.size,
      rejected,
      lost,
      duplicated,
      recallMisses,
      invalid,
      finalRounds,
      failures,
      ms: performance.now() - t0,
      load: [loadStart, loadavg()[0]!],
    };
  } finally {
    removeDir(base);
  }
}

function cpuFigures(xs: readonly { self: number; children: number }[]): NonNullable<ConvergenceFigures['syncCpu']> {
  const total = xs.map((x) => x.self + x.children);
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  return {
    mean: mean(total),
    p50: percentile(total, 0.5),
    p95: percentile(total, 0.95),
    selfMean: mean(xs.map((x) => x.self)),
  };
}

export function printConvergence(f: ConvergenceFigures, log: (s: string) => void = console.log): void {
  const ok = (good: boolean) => (good ? 'met' : 'NOT MET');
  printFigures(
    `Convergence (${f.clones} clones of one bare remote; remember/append/state set/complete-task/supersede/mv/forget, a sync after ~1 write in 4, all clones at once; seed ${f.seed})`,
    [
      ['clones', f.clones],
      ['writes made', f.writes],
      ['acknowledged', f.acknowledged],
      ['present in every clone (with its effect)', `${f.everywhere} of ${f.acknowledged}`],
      ['lost (per clone)', `${f.lost} (goal 0: ${ok(f.lost === 0)})`],
      ['duplicated (per clone)', `${f.duplicated} (goal 0: ${ok(f.duplicated === 0)})`],
      ['conflicts on append-only files', `${f.appendConflicts} (goal 0: ${ok(f.appendConflicts === 0)})`],
      ['true conflicts reported (exit 5)', f.conflicts],
      ['  resolved by a later sync', f.resolved],
      ['pushes rejected (exit 6)', f.rejected],
      ['syncs', f.syncs],
      ['syncs per clone', (f.syncs / f.clones).toFixed(1)],
      ['sync P50', ms(f.syncP50)],
      ['sync P95', `${ms(f.syncP95)} (goal ≤ 2 s: ${ok(f.syncP95 <= 2000)})`],
      ...(f.syncCpu
        ? ([
            [
              'sync CPU mean / P50 / P95',
              `${ms(f.syncCpu.mean)} / ${ms(f.syncCpu.p50)} / ${ms(f.syncCpu.p95)} (node ${ms(f.syncCpu.selfMean)} of the mean; the rest git and merge drivers)`,
            ],
          ] as const)
        : []),
      ...(f.rounds
        ? ([['fetch-merge-push rounds per sync, mean / max', `${f.rounds.mean.toFixed(2)} / ${f.rounds.max}`]] as const)
        : []),
      ...(f.breakdown ? breakdownRows(f.breakdown) : []),
      ['final sync rounds', f.finalRounds],
      ['recall misses', `${f.recallMisses} (goal 0: ${ok(f.recallMisses === 0)})`],
      ['clones failing validate', `${f.invalid} (goal 0: ${ok(f.invalid === 0)})`],
      ['wall time', ms(f.ms)],
      ['machine load (1 min) at start / end', `${f.load[0].toFixed(1)} / ${f.load[1].toFixed(1)}`],
    ],
    log,
  );
  for (const x of f.failures.slice(0, 10)) log(`  ! ${x}`);
}
