// The write path at scale (issue #44, `npm run bench -- --only write`; part of the full `npm run bench`):
// what one `remember` and one `observe` cost in a large workspace, against a recall in the same run.
//   - one-shot CLI: `gitmem remember` and `gitmem recall --mode keyword` alternating, fresh processes;
//   - warm MCP server (`gitmem mcp`, the SDK client over real stdio): `memory_remember` and
//     `memory_observe`, after a first call that loads the index.
// With GITMEM_BENCH_BEFORE=<an older build's dist/cli.cjs> the same rows are measured for that build in
// the same run, on its own copy of the workspace, the two builds' calls alternating round by round
// (the order flipping each round), so the machine's load falls on both alike. Keyword only (`model.enabled: false`), so the figures
// are the index's and the files', not the embedding model's.
// Wall times depend on the machine's load; each row also gives load-independent figures: CPU time of
// the call (a one-shot process's user + system time through /usr/bin/time; the MCP server's threads'
// run time from /proc/<pid>/task/*/schedstat plus its exited children's) and, for the MCP server, the
// read system calls it made (/proc/<pid>/io syscr). Linux only; `n/a` elsewhere.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Median of `xs` (ms). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!;
}

const ENV = {
  ...(process.env as Record<string, string>),
  NO_COLOR: '1',
  GITMEM_HOST_AUTOSTART: '',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

const TIME = '/usr/bin/time';

/** Wall ms and CPU ms (user + system, NaN without /usr/bin/time) of one CLI call (exit status must be 0). */
function timed(cli: string, root: string, args: readonly string[]): { wall: number; cpu: number } {
  const argv = [process.execPath, cli, '--dir', root, ...args];
  const t = performance.now();
  if (!existsSync(TIME)) {
    execFileSync(argv[0]!, argv.slice(1), { env: ENV, stdio: 'pipe' });
    return { wall: performance.now() - t, cpu: NaN };
  }
  // GNU time writes its line last on stderr.
  const r = spawnSync(TIME, ['-f', 'cpu %U %S', ...argv], { env: ENV, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args[0]} failed (${r.status}): ${r.stderr?.toString()}`);
  const m = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr.toString());
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN };
}

/** CPU ms used so far by process `pid` (every thread) and its exited children, and its read syscalls. */
function processCost(pid: number | null): { cpu: number; reads: number } {
  if (!pid || !existsSync(`/proc/${pid}/task`)) return { cpu: NaN, reads: NaN };
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* the thread ended meanwhile */
    }
  }
  // Fields 16 and 17 of /proc/<pid>/stat (after the command in parentheses): children's user and system ticks.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = (Number(f[13]) + Number(f[14])) * 10; // USER_HZ is 100 on Linux
  const io = /syscr: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return { cpu: ns / 1e6 + children, reads: io ? Number(io[1]) : NaN };
}

/** Figures of one build, ms medians (CPU ms and read syscalls per call: load-independent). */
export interface WriteFigures {
  readonly remember: number;
  readonly recall: number;
  readonly rememberCpu: number;
  readonly recallCpu: number;
  readonly mcpRemember: number;
  readonly mcpObserve: number;
  readonly mcpRememberCpu: number;
  readonly mcpObserveCpu: number;
  readonly mcpRememberReads: number;
  readonly mcpObserveReads: number;
}

/** One build under measurement: its CLI, its own copy of the workspace, and the calls measured so far. */
interface Build {
  readonly name: string;
  readonly cli: string;
  readonly root: string;
  readonly tag: string;
  readonly remember: { wall: number; cpu: number }[];
  readonly recall: { wall: number; cpu: number }[];
  readonly mcpRemember: { wall: number; cpu: number; reads: number }[];
  readonly mcpObserve: { wall: number; cpu: number; reads: number }[];
}

/** Keyword-only config, a git repository and a fresh index in `b.root`. */
function prepare(b: Build): void {
  writeFileSync(
    join(b.root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
  );
  execFileSync('git', ['init', '-q'], { cwd: b.root });
  execFileSync(process.execPath, [b.cli, '--dir', b.root, 'index', '--rebuild', '--json'], { env: ENV, stdio: 'pipe' });
}

/** One round of one-shot CLI calls of `b`: a remember, then a keyword recall. */
function cliRound(b: Build, i: number): void {
  b.remember.push(
    timed(b.cli, b.root, [
      'remember',
      `bench ${b.tag} cli note ${i}: the retry window is ${i + 3} minutes`,
      '--type',
      'learning',
      '--json',
    ]),
  );
  b.recall.push(timed(b.cli, b.root, ['recall', '--mode', 'keyword', '--json', '--no-host', '--', 'retry', 'window']));
}

/** `gitmem mcp` of `b` over stdio, and a call that measures wall, CPU and read system calls. */
async function connect(b: Build) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [b.cli, 'mcp', '--dir', b.root],
    stderr: 'pipe',
    env: ENV,
  });
  const client = new Client({ name: 'gitmem-bench', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const before = processCost(transport.pid);
    const t = performance.now();
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
    const wall = performance.now() - t;
    const after = processCost(transport.pid);
    return { wall, cpu: after.cpu - before.cpu, reads: after.reads - before.reads };
  };
  return { client, call };
}

/** Medians of `b`'s calls. */
function figuresOf(b: Build): WriteFigures {
  const of = <T>(xs: readonly T[], k: keyof T) => median(xs.map((x) => x[k] as number));
  return {
    remember: of(b.remember, 'wall'),
    recall: of(b.recall, 'wall'),
    rememberCpu: of(b.remember, 'cpu'),
    recallCpu: of(b.recall, 'cpu'),
    mcpRemember: of(b.mcpRemember, 'wall'),
    mcpObserve: of(b.mcpObserve, 'wall'),
    mcpRememberCpu: of(b.mcpRemember, 'cpu'),
    mcpObserveCpu: of(b.mcpObserve, 'cpu'),
    mcpRememberReads: of(b.mcpRemember, 'reads'),
    mcpObserveReads: of(b.mcpObserve, 'reads'),
  };
}

/**
 * Measure every build in the same rounds: each round makes each build's calls in turn (the order
 * flips every round), so a change in the machine's load falls on all builds alike. One-shot CLI
 * rounds first, then the MCP servers (all running), after a first call that loads each index.
 */
async function measureBuilds(builds: readonly Build[], rounds: number): Promise<WriteFigures[]> {
  for (const b of builds) prepare(b);
  const turn = (i: number) => (i % 2 ? [...builds].reverse() : builds);
  for (let i = 0; i < rounds; i++) for (const b of turn(i)) cliRound(b, i);
  const servers = [];
  try {
    for (const b of builds) servers.push({ b, ...(await connect(b)) });
    for (const s of servers) await s.call('memory_recall', { query: 'retry window', mode: 'keyword' }); // loads the index
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? [...servers].reverse() : servers;
      for (const s of order)
        s.b.mcpRemember.push(
          await s.call('memory_remember', {
            text: `bench ${s.b.tag} mcp note ${i}: queue depth alarm at ${i + 40} jobs`,
            type: 'learning',
          }),
        );
      for (const s of order)
        s.b.mcpObserve.push(await s.call('memory_observe', { text: `bench ${s.b.tag} observation ${i}` }));
    }
  } finally {
    for (const s of servers) await s.client.close();
  }
  return builds.map(figuresOf);
}

/**
 * Measure the write path on `root` (a generated workspace, copied per build) and print a table:
 * this build, and GITMEM_BENCH_BEFORE's when set. @param cli this build's dist/cli.cjs.
 */
export async function writePathFigures(
  root: string,
  files: number,
  cli: string,
  say: (s: string) => void,
  rounds = 5,
): Promise<void> {
  if (!existsSync(cli)) {
    say(`write path: skipped (no ${cli}; run npm run build)`);
    return;
  }
  const before = process.env.GITMEM_BENCH_BEFORE;
  const named: { name: string; cli: string }[] = [{ name: 'this build', cli }];
  if (before && existsSync(before)) named.push({ name: 'before (GITMEM_BENCH_BEFORE)', cli: before });
  const builds: Build[] = named.map((b, i) => {
    const copy = `${root}-write-${i}`;
    cpSync(root, copy, { recursive: true });
    return { ...b, root: copy, tag: `b${i}`, remember: [], recall: [], mcpRemember: [], mcpObserve: [] };
  });
  const figures = await measureBuilds(builds, rounds);
  const rows: string[] = [];
  const cpuRows: string[] = [];
  for (const [i, b] of builds.entries()) {
    const f = figures[i]!;
    const over = f.remember - f.recall;
    const ms = (x: number, d = 0) => `${x.toFixed(d)} ms`;
    rows.push(
      `| ${b.name} | ${ms(f.remember)} | ${ms(f.recall)} | ${ms(over)} (goal ≤ 50) | ${ms(f.mcpRemember, 1)} (goal ≤ 30) | ${ms(f.mcpObserve, 1)} (goal ≤ 30) |`,
    );
    cpuRows.push(
      `| ${b.name} | ${ms(f.rememberCpu)} | ${ms(f.recallCpu)} | ${ms(f.rememberCpu - f.recallCpu)} | ${ms(f.mcpRememberCpu, 1)}, ${f.mcpRememberReads} reads | ${ms(f.mcpObserveCpu, 1)}, ${f.mcpObserveReads} reads |`,
    );
  }
  say(`\nwrite path at ${files.toLocaleString('en-US')} files (keyword only; medians of ${rounds}; issue #44 goals)`);
  const head =
    '| build | one-shot remember | one-shot keyword recall | remember − recall | warm MCP memory_remember | warm MCP memory_observe |';
  say(head);
  say('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) say(r);
  say("\nthe same calls, load-independent: CPU time per call (and the MCP server's read system calls per call)");
  say(head);
  say('| --- | --- | --- | --- | --- | --- |');
  for (const r of cpuRows) say(r);
}
