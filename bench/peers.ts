// Side-by-side one-shot benchmark against qmd (npm @tobilu/qmd, SQLite FTS5 BM25), keyword vs keyword:
// qmd's vector and rerank models (GGUF from Hugging Face) cannot be downloaded here, so only its
// `search` (BM25) is compared. Every figure is a separate process, as an agent hook calls it; the
// tools alternate query by query so machine load hits them alike, and the ratios come from one run.
// Optional `baseline`: another gitmem CLI bundle (e.g. an older build) measured in the same run.
// Run with `npm run bench:peers` (scripts/bench-peers.mjs installs qmd with a Node 22 binary first).
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedBy, startWatchHost, type WatchHost } from './peers-host.js';
import { startupLine } from './peers-startup.js';
import { editAndCheckoutGoals, goalTable, readKept, sideBySideGoals, type Goal } from './peers-scale.js';
import { hybridRows } from './peers-hybrid.js';
import { rng } from './support/random.js';
import { makeWorkspace, type WorkspaceKind } from './workspace-kinds.js';

export interface PeerTools {
  readonly node: string;
  readonly qmd: string;
  readonly env: NodeJS.ProcessEnv;
}

interface Run {
  readonly ms: number;
  readonly rssMb: number | undefined;
  readonly stdout: string;
  readonly ok: boolean;
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Run a command, wall-clock timed; peak RSS from /usr/bin/time when it exists. */
function run(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Run {
  const rssFile = join(tmpdir(), `gitmem-peers-rss-${process.pid}`);
  const full = TIME ? [TIME, ['-f', '%M', '-o', rssFile, cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const r = spawnSync(full[0] as string, full[1] as string[], {
    env,
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    // A 100,000-file cold build took over 30 minutes on the loaded 2-core machine (and was killed by
    // the 30-minute limit this had); 4 hours still stops a hung call.
    timeout: 4 * 60 * 60_000,
  });
  const ms = performance.now() - t0;
  let rssMb: number | undefined;
  if (TIME && existsSync(rssFile)) {
    const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
    rssMb = Number.isFinite(kb) ? kb / 1024 : undefined;
    rmSync(rssFile, { force: true });
  }
  if (r.status !== 0)
    process.stderr.write(
      `  ! ${cmd} ${args.slice(0, 6).join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(0, 300)}\n`,
    );
  return { ms, rssMb, stdout: r.stdout ?? '', ok: r.status === 0 };
}

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
}

interface Tool {
  readonly name: string;
  build(): Run;
  update(): Run;
  search(q: string): Run;
  /** Results in one search answer (to report beside latency). */
  hits(r: Run): number;
}

/** `via`: `cold` forces the cold path (`--no-host`), `host` lets a running host answer, `any` passes neither (an older build). */
function gitmemTool(
  name: string,
  cli: string,
  root: string,
  via: 'cold' | 'host' | 'any' = 'any',
  node: string = process.execPath,
): Tool {
  const g = (...a: string[]) => run(node, [cli, '--dir', root, ...a], process.env);
  const noHost = via === 'cold' ? ['--no-host'] : [];
  return {
    name,
    build: () => g('index', '--rebuild', '--json'),
    update: () => g('index', '--json'),
    search: (q) => g('recall', '--mode', 'keyword', '--json', '--limit', '10', ...noHost, '--', ...q.split(' ')),
    hits: (r) => {
      try {
        return (JSON.parse(r.stdout) as { results: unknown[] }).results.length;
      } catch {
        return 0;
      }
    },
  };
}

function qmdTool(t: PeerTools, root: string, index: string): Tool {
  const q = (...a: string[]) => run(t.node, [t.qmd, '--index', index, ...a], t.env);
  return {
    name: 'qmd',
    build: () => {
      // A cold build: drop this index's files and collection first (`<index>.` only: bench1000's
      // build must not drop bench100000's config).
      const cache = join(String(t.env.XDG_CACHE_HOME), 'qmd');
      if (existsSync(cache))
        for (const f of readdirSync(cache)) if (f.startsWith(`${index}.`)) rmSync(join(cache, f), { force: true });
      const cfg = join(String(t.env.XDG_CONFIG_HOME), 'qmd');
      if (existsSync(cfg))
        for (const f of readdirSync(cfg)) if (f.startsWith(`${index}.`)) rmSync(join(cfg, f), { force: true });
      return q('collection', 'add', root, '--name', index);
    },
    update: () => q('update'),
    search: (s) => q('search', '--json', '-n', '10', '--', s),
    hits: (r) => {
      try {
        const j = JSON.parse(r.stdout) as unknown;
        return Array.isArray(j) ? j.length : 0;
      } catch {
        return 0;
      }
    },
  };
}

/** The name of the rows answered by a running `gitmem watch` (src/host/). */
const HOST = 'gitmem via watch host';
/** The cold path run by qmd's own Node binary: the same runtime start-up on both sides. */
const SAME_NODE = "gitmem on qmd's Node";

const STOP = new Set(
  'a an and are as at be by did do does for from had has have he her his how i in is it its of on or she that the their them they this to was what when where which who why will with would you your'.split(
    ' ',
  ),
);

interface Workspace {
  readonly label: string;
  readonly root: string;
  readonly files: number;
  readonly queries: readonly string[];
  /** A file to append one line to for the edit → update figure. */
  readonly editable: string;
  /** The generator of a generated workspace. */
  readonly kind?: WorkspaceKind;
}

/** LoCoMo's 10 conversations (272 daily notes) as one workspace; undefined when the shared data is missing. */
function locomoWorkspace(shared: string | undefined, tmp: string, n: number): Workspace | undefined {
  const bench = shared ? join(shared, 'bench', 'locomo') : undefined;
  if (!bench || !existsSync(join(bench, 'convert.mjs'))) return undefined;
  const out = join(tmp, 'locomo-out');
  spawnSync(process.execPath, [join(bench, 'convert.mjs'), '--out', out, '--marker', 'none'], { stdio: 'pipe' });
  const root = join(tmp, 'locomo');
  let files = 0;
  for (const ws of readdirSync(out).filter((d) => d.startsWith('conv-'))) {
    const from = join(out, ws, 'memory');
    if (!existsSync(from)) continue;
    cpSync(from, join(root, 'memory', ws), { recursive: true });
    files += readdirSync(from).filter((f) => f.endsWith('.md')).length;
  }
  const r = rng(5);
  const questions = readFileSync(join(out, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { question: string }).question);
  const queries: string[] = [];
  while (queries.length < n && questions.length) {
    const q = questions[Math.floor(r() * questions.length)]!;
    // Stop words removed: qmd ANDs every word, so questions as asked mostly find nothing there.
    const words = q
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]/gu, ' ')
      .split(/\s+/)
      .filter((w) => w && !STOP.has(w));
    if (words.length) queries.push(words.slice(0, 4).join(' '));
  }
  const first = readdirSync(join(root, 'memory')).sort()[0]!;
  const editable = join('memory', first, readdirSync(join(root, 'memory', first)).sort()[0]!);
  return { label: `LoCoMo (${files} notes)`, root, files, queries, editable };
}

/** A generated workspace (bench/workspace-kinds.ts) of `files` memory files. */
function generatedWorkspace(
  kind: WorkspaceKind,
  tmp: string,
  files: number,
  n: number,
  shared: string | undefined,
  corpora: string,
): Workspace {
  // A kept folder (--keep DIR) is reused when it holds this workspace's description.
  const root = join(tmp, `${kind}-${files}`);
  type Made = ReturnType<typeof makeWorkspace>;
  let ws = readKept<Made>(root);
  if (!ws || ws.files !== files || ws.queries.length < n) {
    rmSync(root, { recursive: true, force: true });
    ws = makeWorkspace(kind, root, files, { ...(shared ? { shared } : {}), corpora, queries: n });
    writeFileSync(join(root, '.bench.json'), JSON.stringify(ws));
  }
  ws = { ...ws, queries: ws.queries.slice(0, n) };
  const kb = (ws.bytes / ws.files / 1024).toFixed(1);
  return {
    label: `${files.toLocaleString('en-US')} files, ${kind} (${kb} KB a file)`,
    root,
    files,
    queries: ws.queries,
    editable: ws.editable,
    kind,
  };
}

/**
 * The flat-memory goal's base for `ws` (above 10,000 files): gitmem's cold-build peak RSS at 10,000
 * files of the same generator, from this run's 10,000-file workspace or else built once per generator
 * here (`seen` holds them). Undefined for other workspaces.
 */
function rssAt10k(
  ws: Workspace,
  g: { buildRss: number | undefined },
  seen: Map<string, number | undefined>,
  o: { cli: string; kept: string; cfg: string; shared?: string; corpora: string; say: (s: string) => void },
): number | undefined {
  if (!ws.kind) return undefined;
  if (ws.files === 10_000) seen.set(ws.kind, g.buildRss);
  if (ws.files <= 10_000) return undefined;
  if (!seen.has(ws.kind)) {
    const ref = generatedWorkspace(ws.kind, o.kept, 10_000, 1, o.shared, o.corpora);
    writeFileSync(join(ref.root, 'gitmem.config.json'), o.cfg);
    spawnSync('git', ['init', '-q'], { cwd: ref.root });
    seen.set(ws.kind, gitmemTool('gitmem', o.cli, ref.root).build().rssMb);
    o.say(
      `  gitmem: cold keyword build, 10,000 ${ws.kind} files (the flat-memory goal's base): peak RSS ${Math.round(seen.get(ws.kind) ?? NaN)} MB`,
    );
  }
  return seen.get(ws.kind);
}

/** Figures of one tool on one workspace. */
interface Figures {
  buildMs: number;
  buildRss: number | undefined;
  noopMs: number;
  editMs: number;
  p50: number;
  p95: number;
  hits: number;
}

function fmtMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms).toLocaleString('en-US')} ms`;
}

function ratio(a: number | undefined, b: number | undefined): string {
  return a !== undefined && b !== undefined && b > 0 && Number.isFinite(a) && Number.isFinite(b)
    ? `${(a / b).toFixed(2)}×`
    : '—';
}

export async function runPeers(options: {
  /** qmd and its Node; undefined: not installed, only gitmem's figures print. */
  tools?: PeerTools;
  /** The generated workspaces measured at each size (default both). */
  kinds?: readonly WorkspaceKind[];
  /** fixtures/corpora (the realistic generator's second source). */
  corpora: string;
  cli: string;
  baseline?: string;
  shared?: string;
  files: readonly number[];
  queries: number;
  out?: string;
  /** Generated workspaces are kept in (and reused from) this folder instead of a temporary one. */
  keep?: string;
  /** Memory files the checkout figure's branch changes (default 1,000; at most a tenth of the workspace). */
  checkout?: number;
  /** Files of the synthetic workspace the hybrid rows serve (about 5 chunks a file); 0: no hybrid rows. */
  hybridFiles?: number;
  /** The folder holding serve-child.mjs (bundled by scripts/bench-peers.mjs). */
  childDir?: string;
}): Promise<string> {
  const tmp = join(tmpdir(), `gitmem-peers-${process.pid}`);
  const kept = options.keep ?? tmp;
  mkdirSync(tmp, { recursive: true });
  const lines: string[] = [];
  const say = (s: string) => {
    lines.push(s);
    process.stdout.write(`${s}\n`);
    if (options.out) appendFileSync(options.out, `${s}\n`);
  };
  try {
    const workspaces: Workspace[] = [];
    const locomo = locomoWorkspace(options.shared, tmp, options.queries);
    if (locomo) workspaces.push(locomo);
    else
      say('LoCoMo: MISSING — the shared bench/locomo folder was not found (set GITMEM_SHARED); its rows are left out.');
    for (const n of options.files)
      for (const kind of options.kinds ?? ['realistic', 'synthetic'])
        workspaces.push(generatedWorkspace(kind, kept, n, options.queries, options.shared, options.corpora));
    if (!options.tools)
      say('qmd: NOT INSTALLED (node scripts/peer-tools.mjs install) — only gitmem figures print; ratios show —.');
    say(
      'keyword vs keyword: qmd `search` (SQLite FTS5 BM25) against `gitmem recall --mode keyword`; qmd `query`/`vsearch` need GGUF models that cannot be downloaded here.',
    );
    say(
      `every call is a new process; ${options.queries} queries per workspace, tools alternating query by query; gitmem workspaces have model.enabled false (keyword build only).`,
    );
    if (options.tools) say(startupLine(options.tools.node));
    if (options.tools)
      say(
        `"${SAME_NODE}": gitmem's cold path (\`--no-host\`) started by qmd's Node binary, in the same query rounds: the difference of runtimes taken out.`,
      );
    const table: string[] = [];
    const goals: Goal[] = [];
    /** Peak RSS of gitmem's cold build at 10,000 files, per generator (the flat-memory goal's base). */
    const rss10k = new Map<string, number | undefined>();
    for (const ws of workspaces) {
      // One copy per gitmem build (each keeps its own derived state in its .git); qmd reads the first.
      const cfg = JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } });
      const copies: { name: string; cli: string; root: string }[] = [
        { name: 'gitmem', cli: options.cli, root: ws.root },
      ];
      if (options.baseline) copies.push({ name: 'gitmem before', cli: options.baseline, root: `${ws.root}-before` });
      for (const c of copies) {
        if (c.root !== ws.root) cpSync(ws.root, c.root, { recursive: true });
        writeFileSync(join(c.root, 'gitmem.config.json'), cfg);
        spawnSync('git', ['init', '-q'], { cwd: c.root });
      }
      const tools: Tool[] = [
        ...copies.map((c) => gitmemTool(c.name, c.cli, c.root, c.cli === options.cli ? 'cold' : 'any')),
        ...(options.tools ? [qmdTool(options.tools, ws.root, `bench${ws.files}`)] : []),
      ];
      // Answered by a running `gitmem watch` over the host socket; it joins the query rounds only.
      const hostTool = gitmemTool(HOST, options.cli, ws.root, 'host');
      const fig = new Map<string, Figures>(
        tools.map((t) => [
          t.name,
          { buildMs: NaN, buildRss: undefined, noopMs: NaN, editMs: NaN, p50: NaN, p95: NaN, hits: 0 },
        ]),
      );
      say(`\n## ${ws.label}`);
      for (const t of tools) {
        const b = t.build();
        fig.get(t.name)!.buildMs = b.ms;
        fig.get(t.name)!.buildRss = b.rssMb;
        say(`  ${t.name}: cold keyword build ${fmtMs(b.ms)}${b.rssMb ? `, peak RSS ${Math.round(b.rssMb)} MB` : ''}`);
      }
      // Let the racy window pass, as it would between an agent's turns; then a no-op update.
      await new Promise((r) => setTimeout(r, 2500));
      for (const t of tools) t.update();
      for (const t of tools) fig.get(t.name)!.noopMs = t.update().ms;
      let host: WatchHost | undefined;
      try {
        host = await startWatchHost(options.cli, ws.root);
      } catch (e) {
        say(`  ${HOST}: not measured — ${(e as Error).message}`);
      }
      if (host?.refused) say(`  ${HOST}: gitmem watch does not answer one-shot calls: ${host.refused}`);
      // The same cold call on qmd's runtime joins the query rounds only (it shares gitmem's index).
      const sameNode = options.tools ? [gitmemTool(SAME_NODE, options.cli, ws.root, 'cold', options.tools.node)] : [];
      const rounds = host?.socket ? [...tools, ...sameNode, hostTool] : [...tools, ...sameNode];
      if (sameNode.length) fig.set(SAME_NODE, { ...fig.get('gitmem')!, p50: NaN, p95: NaN, hits: 0 });
      if (host?.socket) fig.set(HOST, { ...fig.get('gitmem')!, p50: NaN, p95: NaN, hits: 0 });
      const lat = new Map<string, number[]>(rounds.map((t) => [t.name, []]));
      const hits = new Map<string, number>(rounds.map((t) => [t.name, 0]));
      let hosted = 0;
      ws.queries.forEach((q, i) => {
        const order = rounds.map((_, k) => rounds[(k + i) % rounds.length]!);
        for (const t of order) {
          const r = t.search(q);
          lat.get(t.name)!.push(r.ms);
          hits.set(t.name, hits.get(t.name)! + t.hits(r));
          if (t === hostTool && servedBy(r.stdout) === 'watch') hosted++;
        }
      });
      await host?.stop();
      if (host?.socket)
        say(`  ${HOST}: ${hosted} of ${ws.queries.length} calls answered by the host (the rest ran cold)`);
      for (const t of rounds) {
        const f = fig.get(t.name)!;
        f.p50 = pct(lat.get(t.name)!, 0.5);
        f.p95 = pct(lat.get(t.name)!, 0.95);
        f.hits = hits.get(t.name)! / ws.queries.length;
      }
      // One file edited, then update.
      for (const c of [ws.root, ...copies.map((c) => c.root)].filter((v, i, a) => a.indexOf(v) === i)) {
        appendFileSync(join(c, ws.editable), '\n- edited once for the update figure: zebracrossing\n');
      }
      for (const t of tools) fig.get(t.name)!.editMs = t.update().ms;
      const g0 = fig.get('gitmem')!;
      const base = rssAt10k(ws, g0, rss10k, { ...options, kept, cfg, say });
      goals.push(...sideBySideGoals(ws.label, g0, fig.get('qmd'), fig.get(HOST), base));
      const at = { cli: options.cli, ...ws, noEditMs: g0.p50, checkout: options.checkout, say };
      goals.push(...(await editAndCheckoutGoals(at)));
      for (const name of [SAME_NODE, HOST]) {
        const f = fig.get(name);
        if (!f) continue;
        say(
          `  ${name}: one-shot keyword recall P50 ${fmtMs(f.p50)}, P95 ${fmtMs(f.p95)} (${f.hits.toFixed(1)} results/query)`,
        );
      }
      for (const t of tools) {
        const f = fig.get(t.name)!;
        say(
          `  ${t.name}: one-shot keyword recall P50 ${fmtMs(f.p50)}, P95 ${fmtMs(f.p95)} (${f.hits.toFixed(1)} results/query); no-op update ${fmtMs(f.noopMs)}; one file edited → update ${fmtMs(f.editMs)}`,
        );
      }
      const g = fig.get('gitmem')!;
      const none: Figures = {
        buildMs: NaN,
        buildRss: undefined,
        noopMs: NaN,
        editMs: NaN,
        p50: NaN,
        p95: NaN,
        hits: 0,
      };
      const q = fig.get('qmd') ?? none;
      const before = fig.get('gitmem before');
      const row = (label: string, get: (f: Figures) => number | undefined, fmt: (v: number | undefined) => string) =>
        table.push(
          `| ${label}, ${ws.label} | ${before ? `${fmt(get(before))} | ` : ''}${fmt(get(g))} | ${fmt(get(q))} | ${ratio(get(g), get(q))} |${before ? ` ${ratio(get(g), get(before))} |` : ''}`,
        );
      const ms = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '—' : fmtMs(v));
      const mb = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '—' : `${Math.round(v)} MB`);
      row('one-shot keyword recall P50', (f) => f.p50, ms);
      row('one-shot keyword recall P95', (f) => f.p95, ms);
      const extra = (f: Figures | undefined, how: string) => {
        if (f)
          for (const [label, v, peer] of [
            ['P50', f.p50, q.p50],
            ['P95', f.p95, q.p95],
          ] as const)
            table.push(
              `| one-shot keyword recall ${label}, ${ws.label}, ${how} | ${before ? '— | ' : ''}${ms(v)} | ${ms(peer)} | ${ratio(v, peer)} |${before ? ' — |' : ''}`,
            );
      };
      extra(fig.get(SAME_NODE), "cold, on qmd's Node (same runtime)");
      extra(fig.get(HOST), 'answered by a running `gitmem watch`');
      row('cold keyword build', (f) => f.buildMs, ms);
      row('peak RSS, cold build', (f) => f.buildRss, mb);
      row('no-op update', (f) => f.noopMs, ms);
      row('one file edited, update', (f) => f.editMs, ms);
      for (const c of copies) if (c.root !== ws.root) rmSync(c.root, { recursive: true, force: true });
    }
    const b = options.baseline !== undefined;
    say(
      '\n| figure | ' +
        (b ? 'gitmem before | ' : '') +
        'gitmem | qmd 2.8.3 | gitmem ÷ qmd |' +
        (b ? ' now ÷ before |' : ''),
    );
    say('| --- | ' + (b ? '--- | ' : '') + '--- | --- | --- |' + (b ? ' --- |' : ''));
    for (const t of table) say(t);
    sayGoals(goals, options, kept, say);
    return lines.join('\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The hybrid rows (when asked) and then the goals table of the whole run. */
function sayGoals(
  goals: Goal[],
  o: { hybridFiles?: number; childDir?: string },
  kept: string,
  say: (s: string) => void,
): void {
  if (o.hybridFiles && o.childDir) goals.push(...hybridRows(o.childDir, kept, o.hybridFiles, say));
  say('\n### Goals (issue 46)\n');
  for (const l of goalTable(goals)) say(l);
}

/** Size of a folder in bytes (for messages). */
export function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return n;
}
