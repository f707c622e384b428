// Crash consistency (issue 10 §1, docs/DESIGN.md §10): real `node dist/cli.cjs` processes doing writes
// (`remember`, `append`, `state set`, `index`, `index --rebuild`, `checkpoint`) in a temp git repo are
// SIGKILLed at random moments. After every kill: each memory file is its old or its new content
// (never truncated or mixed), every acknowledged write (exit 0 + JSON printed) is still there, keyword
// recall of a recent write finds it (the index is served correctly or rebuilt), and the next
// checkpoint is not blocked by a stale lock. Prints kills, acknowledged, lost, corrupt, recovery time.
import {
  git,
  makeWorkspace,
  marker,
  median,
  ms,
  printFigures,
  removeDir,
  rng,
  runCli,
  runCliSync,
  snapshotMarkdown,
  listFiles,
  words,
  type CliResult,
} from './common.js';
import { dirname } from 'node:path';

export interface CrashOptions {
  /** SIGKILLs to deliver (operations that finish before their kill time are not counted). */
  readonly kills: number;
  readonly seed?: number;
  /** Embeddings on (default true): `index` also writes vectors, hybrid recall is checked sometimes. */
  readonly model?: boolean;
  readonly log?: (line: string) => void;
}

export interface CrashFigures {
  readonly seed: number;
  readonly operations: number;
  readonly kills: number;
  readonly acknowledged: number;
  /** Writes that landed although their process was killed before it answered. */
  readonly landedUnacknowledged: number;
  readonly checkpointsAcknowledged: number;
  readonly lost: number;
  readonly corrupt: number;
  /** A later command refused or failed because of a leftover (stale lock, half index). */
  readonly blocked: number;
  /** Keyword recall of a tracked write did not find it. */
  readonly recallMisses: number;
  readonly recallChecks: number;
  /** Non-memory files left by killed writers (temp files, lock files); harmless, reported. */
  readonly litter: number;
  readonly recoveryMedianMs: number;
  readonly recoveryMaxMs: number;
  readonly fsckClean: boolean;
  readonly failures: readonly string[];
  readonly ms: number;
}

type OpName = 'remember' | 'append' | 'state' | 'index' | 'rebuild' | 'checkpoint';
const WEIGHTS: ReadonlyArray<[OpName, number]> = [
  ['remember', 3],
  ['append', 3],
  ['state', 2],
  ['index', 2],
  ['rebuild', 1],
  ['checkpoint', 2],
];

interface Tracked {
  readonly marker: string;
  /** File that must hold the marker (entries: found after the write). */
  path: string;
  readonly acked: boolean;
}

const STATE = 'memory/CURRENT_STATE.md';
const ENTRIES = 'memory/entries/';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function runCrash(options: CrashOptions): Promise<CrashFigures> {
  const t0 = performance.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rand = rng(seed);
  const log = options.log ?? (() => undefined);
  const root = makeWorkspace({ model: options.model ?? true, prefix: 'gitmem-crash-' });
  const tracked: Tracked[] = [];
  const ackedCommits: string[] = [];
  const failures: string[] = [];
  const recovery: number[] = [];
  let operations = 0;
  let kills = 0;
  let acknowledged = 0;
  let landed = 0;
  let corrupt = 0;
  let blocked = 0;
  let recallMisses = 0;
  let recallChecks = 0;
  const typical = new Map<OpName, number>();
  const today = new Date();
  const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const daily = `memory/${date}.md`;
  const fail = (msg: string) => {
    failures.push(msg);
    log(`  ! ${msg}`);
  };

  const pick = (): OpName => {
    const total = WEIGHTS.reduce((s, [, w]) => s + w, 0);
    let r = rand() * total;
    for (const [op, w] of WEIGHTS) if ((r -= w) < 0) return op;
    return 'remember';
  };

  function argsFor(op: OpName, m: string): string[] {
    switch (op) {
      case 'remember':
        return ['--json', 'remember', `${m} ${words(rand, 8)}`, '--title', 'crash test entry'];
      case 'append':
        return ['--json', 'append', '--date', date, `${m} ${words(rand, 5)}`];
      case 'state':
        return ['--json', 'state', 'set', '--decision', `${m} ${words(rand, 3)}`, '--step', `step ${m}`];
      case 'index':
        return ['--json', 'index'];
      case 'rebuild':
        return ['--json', 'index', '--rebuild'];
      case 'checkpoint':
        return ['--json', 'checkpoint', '-m', `crash ${m}`];
    }
  }

  /** Old-or-new check of every memory file; returns where the op's marker landed, if it did. */
  function verifyFiles(
    op: OpName,
    m: string,
    text: string,
    before: Map<string, string>,
    after: Map<string, string>,
  ): string | undefined {
    let landedAt: string | undefined;
    for (const [p, old] of before) {
      const now = after.get(p);
      if (now === undefined) {
        corrupt++;
        fail(`${op}: ${p} vanished`);
        continue;
      }
      if (now === old) continue;
      if (op === 'append' && p === daily) {
        const rest = now.slice(old.length);
        if (!now.startsWith(old) || !new RegExp(`^\\n?- \\d\\d:\\d\\d ${escape(text)}\\n$`).test(rest)) {
          corrupt++;
          fail(`append: ${p} is neither old nor old + one bullet: ${JSON.stringify(rest.slice(0, 200))}`);
        } else landedAt = p;
        continue;
      }
      if (op === 'state' && p === STATE) {
        const heads = (s: string) =>
          s
            .split('\n')
            .filter((l) => l.startsWith('## '))
            .join('|');
        const keep = tracked.filter((t) => t.path === STATE).every((t) => now.includes(t.marker));
        if (!now.includes(m) || heads(now) !== heads(old) || !now.endsWith('\n') || !keep) {
          corrupt++;
          fail(`state: ${p} is neither the old nor a complete new state`);
        } else landedAt = p;
        continue;
      }
      corrupt++;
      fail(`${op}: ${p} changed though this operation does not write it`);
    }
    for (const [p, now] of after) {
      if (before.has(p)) continue;
      if (op === 'remember' && p.startsWith(ENTRIES) && !landedAt) {
        const slug = p.slice(p.lastIndexOf('/') + 1, -3);
        if (!now.startsWith('---\n') || !now.endsWith(`\n${text}\n`) || !now.includes(`id: ${slug}\n`)) {
          corrupt++;
          fail(`remember: new entry ${p} is incomplete: ${JSON.stringify(now.slice(-120))}`);
        } else landedAt = p;
        continue;
      }
      if (op === 'append' && p === daily && !landedAt) {
        if (!new RegExp(`^# ${date}\\n\\n- \\d\\d:\\d\\d ${escape(text)}\\n$`).test(now)) {
          corrupt++;
          fail(`append: new note ${p} is incomplete: ${JSON.stringify(now.slice(0, 200))}`);
        } else landedAt = p;
        continue;
      }
      corrupt++;
      fail(`${op}: unexpected new memory file ${p}`);
    }
    return landedAt;
  }

  function lostCheck(after: Map<string, string>): number {
    let lost = 0;
    for (const t of tracked) {
      const text = after.get(t.path);
      if (text === undefined || !text.includes(t.marker)) {
        lost++;
        fail(`lost ${t.acked ? 'acknowledged' : 'landed'} write ${t.marker} (${t.path})`);
      }
    }
    const head = git(root, 'rev-parse', 'HEAD').out.trim();
    for (const oid of ackedCommits) {
      if (git(root, 'merge-base', '--is-ancestor', oid, head).code !== 0) {
        lost++;
        fail(`acknowledged checkpoint ${oid} is not in HEAD's history`);
      }
    }
    return lost;
  }

  /** One recall naming the latest tracked write and a random older one: both must be found. */
  async function recallCheck(hybrid: boolean): Promise<void> {
    const latest = tracked.at(-1);
    const older = tracked[Math.floor(rand() * tracked.length)];
    const candidates = [...new Set([latest, older])].filter((t): t is Tracked => t !== undefined);
    if (candidates.length === 0) return;
    const r = runCliSync(root, [
      '--json',
      'recall',
      candidates.map((t) => t.marker).join(' '),
      '--mode',
      hybrid ? 'hybrid' : 'keyword',
      '--all',
      '--limit',
      '50',
    ]);
    recovery.push(r.ms);
    recallChecks += candidates.length;
    if (r.code !== 0 || !r.json) {
      blocked++;
      fail(`recall after a kill failed (exit ${r.code}): ${r.stderr.slice(0, 300)}`);
      return;
    }
    const paths: string[] = (r.json.results ?? []).map((x: { path: string }) => x.path);
    for (const t of candidates) {
      if (!paths.includes(t.path)) {
        recallMisses++;
        fail(`recall ${t.marker} did not find ${t.path} (got ${paths.slice(0, 5).join(', ')})`);
      }
    }
  }

  function checkpointAfter(reason: string): void {
    const r = runCliSync(root, ['--json', 'checkpoint', '-m', `recover after ${reason}`]);
    if (r.code !== 0) {
      blocked++;
      fail(`checkpoint after ${reason} failed (exit ${r.code}): ${r.stderr.slice(0, 300)}`);
    } else if (r.json?.kind === 'committed') ackedCommits.push(r.json.oid);
  }

  async function one(op: OpName, killAfterMs: number | undefined): Promise<CliResult> {
    const m = marker(rand);
    const args = argsFor(op, m);
    const text = op === 'remember' || op === 'append' ? args[op === 'remember' ? 2 : 4]! : '';
    const before = snapshotMarkdown(root);
    const r = await runCli(root, args, killAfterMs === undefined ? {} : { killAfterMs });
    operations++;
    if (r.killed) kills++;
    const after = snapshotMarkdown(root);
    const where = verifyFiles(op, m, text, before, after);
    const ok = !r.killed && r.code === 0 && r.json !== undefined;
    if (!r.killed && !ok) {
      if (/busy|lock/i.test(r.stderr)) blocked++;
      fail(`${op} exited ${r.code} without being killed: ${r.stderr.slice(0, 300)}`);
    }
    if (op === 'remember' || op === 'append' || op === 'state') {
      if (ok) {
        acknowledged++;
        const path = op === 'remember' ? String(r.json.path) : op === 'append' ? String(r.json.path) : STATE;
        if (!where || where !== path) {
          fail(`${op} acknowledged ${path} but the write is not there`);
        }
        tracked.push({ marker: m, path, acked: true });
      } else if (where) {
        landed++;
        tracked.push({ marker: m, path: where, acked: false });
      }
    }
    if (op === 'checkpoint' && ok && r.json.kind === 'committed') {
      acknowledged++;
      ackedCommits.push(String(r.json.oid));
    }
    return r;
  }

  try {
    // Calibrate: one clean run of each operation (these are acknowledged writes too).
    for (const [op] of WEIGHTS) {
      const r = await one(op, undefined);
      typical.set(op, Math.max(150, r.ms));
    }
    log(`  calibrated: ${[...typical].map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}`);
    let lost = 0;
    let round = 0;
    while (kills < options.kills && operations < options.kills * 5 + 20) {
      const op = pick();
      const d = typical.get(op)!;
      // About one operation in four runs to the end, so acknowledged writes pile up between kills.
      const killAt = rand() < 0.25 ? undefined : Math.floor(d * (0.1 + rand()));
      const r = await one(op, killAt);
      if (!r.killed) continue;
      round++;
      lost = lostCheck(snapshotMarkdown(root));
      if (lost > 0) break;
      await recallCheck((options.model ?? true) && round % 4 === 0);
      if (op === 'checkpoint' || round % 5 === 0) checkpointAfter(`killed ${op}`);
      log(`  kill ${kills}: ${op} at ${killAt ?? 0} ms`);
    }
    checkpointAfter('the last kill');
    lost = lostCheck(snapshotMarkdown(root));
    await recallCheck(false);
    const fsck = git(root, 'fsck', '--no-dangling');
    const fsckClean = fsck.code === 0;
    if (!fsckClean) fail(`git fsck: ${fsck.out.slice(0, 300)}`);
    const md = new Set(snapshotMarkdown(root).keys());
    const litter = listFiles(root).filter((f) => !md.has(f) && /\.tmp$|\.lock$|\.md\.\d+$/.test(f)).length;
    const figures: CrashFigures = {
      seed,
      operations,
      kills,
      acknowledged,
      landedUnacknowledged: landed,
      checkpointsAcknowledged: ackedCommits.length,
      lost,
      corrupt,
      blocked,
      recallMisses,
      recallChecks,
      litter,
      recoveryMedianMs: median(recovery),
      recoveryMaxMs: Math.max(0, ...recovery),
      fsckClean,
      failures,
      ms: performance.now() - t0,
    };
    return figures;
  } finally {
    if (failures.length === 0) removeDir(dirname(root));
    else log(`  workspace kept for inspection: ${root}`);
  }
}

export function printCrash(f: CrashFigures, log: (s: string) => void = console.log): void {
  printFigures(
    `Crash consistency (SIGKILL at random moments; seed ${f.seed})`,
    [
      ['operations run', f.operations],
      ['kills', f.kills],
      ['writes acknowledged', f.acknowledged],
      ['  of them checkpoints', f.checkpointsAcknowledged],
      ['killed writes that landed', f.landedUnacknowledged],
      ['writes lost', f.lost],
      ['files corrupt', f.corrupt],
      ['blocked by leftovers', f.blocked],
      ['recall checks / misses', `${f.recallChecks} / ${f.recallMisses}`],
      ['recovery (first recall) median / max', `${ms(f.recoveryMedianMs)} / ${ms(f.recoveryMaxMs)}`],
      ['litter files (temp, lock)', f.litter],
      ['git fsck', f.fsckClean ? 'clean' : 'ERRORS'],
      ['wall time', ms(f.ms)],
    ],
    log,
  );
}
