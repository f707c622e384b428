// The scale rows of bench:peers (issue 46), measured on the same workspace as the side-by-side rows:
// - one edited file, then a one-shot recall that must find the edit (no `index` call in between),
//   against the cold no-edit recall of the same run;
// - `git checkout` of a branch that changes N memory files, then a one-shot recall: the files the
//   call re-read, from its own `--debug` line ("walked the workspace: L memory files listed, R read");
// - hybrid over a synthetic workspace of ~5 chunks a file in a fresh process (bench/serve-child.ts):
//   vector search P95 warm and peak RSS serving;
// - the goals table: each figure beside its goal.
// deps: node:*, core/ports.ts (RACY_MS); bench/serve-child.ts and bench/perf.ts's generator are reached through arguments.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleepUntil } from 'node:timers/promises';
import { RACY_MS } from '../src/core/ports.js';

/** One CLI call: wall ms, stdout, stderr, exit status. */
interface Call {
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ok: boolean;
}

function call(cmd: string, args: readonly string[], cwd?: string): Call {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 << 20, timeout: 60 * 60_000 });
  return { ms: performance.now() - t0, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ok: r.status === 0 };
}

/** The result paths of a `recall --json` answer (empty when it is not one). */
function resultPaths(stdout: string): string[] {
  try {
    return (JSON.parse(stdout) as { results: { path: string }[] }).results.map((r) => r.path);
  } catch {
    return [];
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** A cold one-shot keyword recall (`--no-host`) of `words` in `root`, with `--debug` when asked. */
function coldRecall(cli: string, root: string, words: string, debug = false): Call {
  const flags = debug ? ['--debug'] : [];
  return call(process.execPath, [
    cli,
    ...flags,
    '--dir',
    root,
    'recall',
    '--mode',
    'keyword',
    '--json',
    '--limit',
    '10',
    '--no-host',
    '--',
    ...words.split(' '),
  ]);
}

/** What "one edited file, then a one-shot recall that sees it" measured. */
export interface EditRecall {
  /** Wall ms of each recall made right after its edit. */
  readonly ms: readonly number[];
  /** How many of those recalls returned the edited file. */
  readonly found: number;
}

/**
 * `n` times: append a line with a new word to `editable` (workspace-relative), then one cold
 * one-shot recall of that word, with no `index` call between.
 */
export function editThenRecall(cli: string, root: string, editable: string, n = 5): EditRecall {
  const ms: number[] = [];
  let found = 0;
  const run = Date.now().toString(36);
  for (let k = 0; k < n; k++) {
    const word = `editmark${k}z${run}`;
    appendFileSync(join(root, editable), `\n- ${word} written for the edit-then-recall figure\n`);
    const r = coldRecall(cli, root, word);
    ms.push(r.ms);
    if (resultPaths(r.stdout).includes(editable)) found++;
  }
  return { ms, found };
}

/** What "`git checkout` of a branch changing N memory files, then recall" measured. */
export interface CheckoutRecall {
  /** Memory files the branch changes. */
  readonly changed: number;
  /** Wall ms of `git checkout` alone. */
  readonly checkoutMs: number;
  /** Wall ms of the one-shot recall after it. */
  readonly recallMs: number;
  /** Wall ms of the same kind of recall just before the checkout (committed workspace, nothing changed). */
  readonly settledMs: number;
  /** Files listed and re-read by that recall (its `--debug` line); undefined when it printed none. */
  readonly listed: number | undefined;
  readonly read: number | undefined;
  /** Whether the recall returned a file the branch changed. */
  readonly found: boolean;
  /** Wall ms of committing the workspace first (`git add -A`, commit). */
  readonly commitMs: number;
}

/** The `walked the workspace` debug line's two counts, when the call printed it. */
export function walkCounts(stderr: string): { listed: number; read: number } | undefined {
  const m = /walked the workspace: (\d+) memory files listed, (\d+) read/.exec(stderr);
  return m ? { listed: Number(m[1]), read: Number(m[2]) } : undefined;
}

/**
 * Resolve once the newest mtime of `paths` (relative to `root`) is more than {@link RACY_MS} behind
 * the clock: from then on a stat walk records their stat keys (engine/load/load.ts trusts a key only
 * when the file's mtime is older than the walk's start minus RACY_MS), so the next index settles. The
 * condition is read from the files' own mtimes (the file-system clock), not a fixed wait.
 * @throws Error when it does not hold within RACY_MS + 10 s (an mtime in the future).
 */
async function pastRacyWindow(root: string, paths: readonly string[]): Promise<void> {
  let newest = -Infinity;
  for (const p of paths) newest = Math.max(newest, statSync(join(root, p)).mtimeMs);
  const deadline = Date.now() + RACY_MS + 10_000;
  while (!(newest < Date.now() - RACY_MS)) {
    if (Date.now() > deadline) throw new Error(`a memory file's mtime stays within ${RACY_MS} ms of the clock`);
    await sleepUntil(Math.max(1, Math.ceil(newest + RACY_MS - Date.now()) + 1));
  }
}

/**
 * Commit the workspace, make a branch that changes `changed` memory files (spread over the listing,
 * one new line each), go back, let the index settle, then time `git checkout` of that branch and one
 * cold recall of the branch's word. The workspace is left on its first branch.
 */
export async function checkoutThenRecall(cli: string, root: string, changed: number): Promise<CheckoutRecall> {
  const id = ['-c', 'user.name=gitmem bench', '-c', 'user.email=bench@gitmem.invalid', '-c', 'commit.gpgsign=false'];
  const git = (...a: string[]) => {
    const r = call('git', [...id, ...a], root);
    if (!r.ok) throw new Error(`git ${a.join(' ')} failed: ${r.stderr.slice(0, 300)}`);
    return r;
  };
  const c0 = performance.now();
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '--no-verify', '-m', 'bench: the workspace');
  const commitMs = performance.now() - c0;
  const base = git('rev-parse', '--abbrev-ref', 'HEAD').stdout.trim();
  const files = git('ls-files', '-z', '--', 'memory')
    .stdout.split('\0')
    .filter((f) => f.endsWith('.md'));
  const n = Math.min(changed, files.length);
  const step = files.length / n;
  const word = `checkoutmark${Date.now().toString(36)}`;
  git('checkout', '-q', '-B', 'gitmem-bench-checkout');
  for (let i = 0; i < n; i++) appendFileSync(join(root, files[Math.floor(i * step)]!), `\n- ${word} on the branch\n`);
  git('commit', '-q', '-a', '--no-verify', '-m', `bench: ${n} memory files changed`);
  git('checkout', '-q', base);
  // Settle: the checkout back rewrote those files; index them, wait out the racy window, index again.
  coldRecall(cli, root, 'settle');
  await pastRacyWindow(root, files);
  coldRecall(cli, root, 'settle');
  const settledMs = coldRecall(cli, root, word, true).ms;
  const t0 = performance.now();
  git('checkout', '-q', 'gitmem-bench-checkout');
  const checkoutMs = performance.now() - t0;
  const r = coldRecall(cli, root, word, true);
  const counts = walkCounts(r.stderr);
  git('checkout', '-q', base);
  return {
    changed: n,
    checkoutMs,
    recallMs: r.ms,
    settledMs,
    listed: counts?.listed,
    read: counts?.read,
    found: resultPaths(r.stdout).length > 0,
    commitMs,
  };
}

/** What the fresh serving process reported (bench/serve-child.ts `serve`). */
export interface HybridServe {
  readonly chunks: number;
  readonly vectors: number;
  readonly buildMs: number | undefined;
  readonly loadMs: number;
  readonly peakRssMb: number;
  readonly recallP50: number;
  readonly recallP95: number;
  readonly vectorSearchP50: number;
  readonly vectorSearchP95: number;
  /** CPU ms of the same vector searches (process.cpuUsage, load-independent); absent from older children. */
  readonly vectorSearchCpuP50?: number;
  readonly vectorSearchCpuP95?: number;
  readonly queryEmbedP50: number;
}

/**
 * Index `root` with synthetic chunk vectors into `idx` (skipped when `idx` already holds an index:
 * a kept workspace), then serve `queries` hybrid and vector recalls from a fresh process.
 * @throws Error when a child fails.
 */
export function hybridServe(child: string, root: string, idx: string, modelDir: string, queries = 50): HybridServe {
  let buildMs: number | undefined;
  if (!existsSync(join(idx, 'manifest.json'))) {
    const b = call(process.execPath, [child, 'build', root, idx, modelDir], root);
    if (!b.ok) throw new Error(`serve-child build failed: ${b.stderr.slice(0, 400)}`);
    buildMs = b.ms;
  }
  const s = call(process.execPath, [child, 'serve', root, idx, modelDir, String(queries)], root);
  if (!s.ok) throw new Error(`serve-child serve failed: ${s.stderr.slice(0, 400)}`);
  const out = JSON.parse(s.stdout.trim().split('\n').pop()!) as Omit<HybridServe, 'buildMs'>;
  return { ...out, buildMs };
}

/** The model folder the hybrid rows need, or undefined when it is not installed. */
export function modelFolder(cwd: string): string | undefined {
  const dir = process.env.GITMEM_MODEL_DIR ?? join(cwd, 'models', 'all-MiniLM-L6-v2-q4');
  return existsSync(dir) ? dir : undefined;
}

/** One row of the goals table. */
export interface Goal {
  readonly figure: string;
  readonly measured: string;
  readonly goal: string;
  /** undefined: not measured in this run. */
  readonly met: boolean | undefined;
}

/** The goals table's lines (markdown). */
export function goalTable(goals: readonly Goal[]): string[] {
  const met = (m: boolean | undefined) => (m === undefined ? 'not measured' : m ? 'met' : '**not met**');
  return [
    '| figure | measured | goal | |',
    '| --- | --- | --- | --- |',
    ...goals.map((g) => `| ${g.figure} | ${g.measured} | ${g.goal} | ${met(g.met)} |`),
  ];
}

/** Goals of one edit-then-recall run against the cold no-edit P50 `noEditMs`. */
export function editGoal(label: string, e: EditRecall, noEditMs: number): Goal {
  const over = median(e.ms) - noEditMs;
  return {
    figure: `one edited file, then a one-shot recall that sees it (median of ${e.ms.length}, found ${e.found}/${e.ms.length}), ${label}`,
    measured: `${Math.round(median(e.ms))} ms, ${Math.round(over)} ms over no-edit P50 ${Math.round(noEditMs)} ms`,
    goal: '≤ 300 ms over no-edit',
    met: Number.isFinite(over) ? over <= 300 && e.found === e.ms.length : undefined,
  };
}

/** The goal of one checkout run: only the changed files re-read, and the change found. */
export function checkoutGoal(label: string, c: CheckoutRecall): Goal {
  return {
    figure: `\`git checkout\` of a branch changing ${c.changed.toLocaleString('en-US')} memory files, then a one-shot recall, ${label}`,
    measured:
      c.read === undefined
        ? 'no walk line printed'
        : `${c.read.toLocaleString('en-US')} of ${c.listed?.toLocaleString('en-US')} files re-read; checkout ${Math.round(c.checkoutMs)} ms, recall ${Math.round(c.recallMs)} ms (${Math.round(c.settledMs)} ms before the checkout)${c.found ? '' : ', change NOT found'}`,
    goal: `only those ${c.changed.toLocaleString('en-US')} re-read`,
    met: c.read === undefined ? undefined : c.read <= c.changed && c.found,
  };
}

/** Goals of the hybrid serving process. */
export function hybridGoals(h: HybridServe): Goal[] {
  const n = `${h.chunks.toLocaleString('en-US')} chunks (${h.vectors.toLocaleString('en-US')} vectors)`;
  return [
    {
      figure: `vector search P95 warm over ${n} (vector-mode recall less the query embedding; P50 ${h.vectorSearchP50} ms${h.vectorSearchCpuP95 === undefined ? '' : `, CPU P50 ${h.vectorSearchCpuP50} / P95 ${h.vectorSearchCpuP95} ms`}, query embedding P50 ${h.queryEmbedP50} ms, hybrid recall P95 ${h.recallP95} ms with it)`,
      measured: `${h.vectorSearchP95} ms`,
      goal: '≤ 50 ms',
      met: h.vectorSearchP95 <= 50,
    },
    {
      figure: `peak RSS serving ${n}, fresh process (index loaded in ${Math.round(h.loadMs)} ms)`,
      measured: `${Math.round(h.peakRssMb)} MB`,
      goal: '≤ 1,536 MB',
      met: h.peakRssMb <= 1536,
    },
  ];
}

/** Read a kept workspace's description (`.bench.json`), or undefined. */
export function readKept<T>(root: string): T | undefined {
  try {
    return JSON.parse(readFileSync(join(root, '.bench.json'), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The side-by-side figures of one workspace the goals are read from (bench/peers.ts Figures). */
export interface SideBySide {
  readonly buildMs: number;
  readonly buildRss: number | undefined;
  readonly p95: number;
}

/**
 * The goals of one workspace: cold build against qmd, peak RSS (≤ 1 GB, and ≤ 2× the 10,000-file
 * figure `rss10k` of the same generator), one-shot P95 cold and via a running host against qmd.
 */
export function sideBySideGoals(
  label: string,
  g: SideBySide,
  q: SideBySide | undefined,
  host: SideBySide | undefined,
  rss10k: number | undefined,
): Goal[] {
  const r = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : undefined;
  const x = (v: number | undefined) => (v === undefined ? '—' : `${v.toFixed(2)}×`);
  const build = r(g.buildMs, q?.buildMs);
  const cold = r(g.p95, q?.p95);
  const hosted = r(host?.p95, q?.p95);
  const flat = r(g.buildRss, rss10k);
  const mb = (v: number | undefined) => (v === undefined ? '—' : `${Math.round(v)} MB`);
  const le = (v: number | undefined, limit: number) => (v === undefined ? undefined : v <= limit);
  // The flat-memory goal is about sizes above 10,000 files (rss10k is given only for those).
  const flatGoal: Goal[] =
    rss10k === undefined
      ? []
      : [
          {
            figure: `peak RSS ÷ the 10,000-file figure of the same generator (${mb(rss10k)}), ${label}`,
            measured: x(flat),
            goal: '≤ 2×',
            met: le(flat, 2),
          },
        ];
  return [
    { figure: `cold keyword build ÷ qmd's, ${label}`, measured: x(build), goal: '≤ 0.5×', met: le(build, 0.5) },
    {
      figure: `peak RSS, cold keyword build, ${label}`,
      measured: mb(g.buildRss),
      goal: '≤ 1,024 MB',
      met: le(g.buildRss, 1024),
    },
    ...flatGoal,
    {
      figure: `one-shot keyword recall P95 cold ÷ qmd's, ${label}`,
      measured: x(cold),
      goal: '≤ 1.5×',
      met: le(cold, 1.5),
    },
    {
      figure: `one-shot keyword recall P95 answered by a running host ÷ qmd's, ${label}`,
      measured: x(hosted),
      goal: '≤ 0.5×',
      met: le(hosted, 0.5),
    },
  ];
}

/**
 * The edit-then-recall and checkout goals of one workspace (`noEditMs`: gitmem's cold no-edit P50 of
 * the same run); the checkout's branch changes `checkout` files, at most a tenth of the workspace.
 */
export async function editAndCheckoutGoals(w: {
  readonly cli: string;
  readonly root: string;
  readonly label: string;
  readonly files: number;
  readonly editable: string;
  readonly noEditMs: number;
  /** Files the checkout's branch changes (default 1,000), at most a tenth of the workspace. */
  readonly checkout?: number | undefined;
  readonly say: (s: string) => void;
}): Promise<Goal[]> {
  const goals = [editGoal(w.label, editThenRecall(w.cli, w.root, w.editable), w.noEditMs)];
  w.say(`  gitmem: ${goals[0]!.figure.split(',')[0]}: ${goals[0]!.measured}`);
  try {
    const c = await checkoutThenRecall(
      w.cli,
      w.root,
      Math.max(1, Math.min(w.checkout ?? 1000, Math.floor(w.files / 10))),
    );
    goals.push(checkoutGoal(w.label, c));
    w.say(
      `  gitmem: committed the workspace in ${Math.round(c.commitMs)} ms; ${goals[1]!.figure.split(',')[0]}: ${goals[1]!.measured}`,
    );
  } catch (e) {
    w.say(`  checkout figure: not measured — ${(e as Error).message}`);
  }
  return goals;
}
