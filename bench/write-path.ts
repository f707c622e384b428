// The write path at scale (issue #44, `npm run bench -- --only write`; part of the full `npm run bench`):
// what one `remember` and one `observe` cost in a large workspace, against a recall in the same run.
//   - one-shot CLI: `gitmem remember` and `gitmem recall --mode keyword` alternating, fresh processes;
//   - warm MCP server (`gitmem mcp`, the SDK client over real stdio): `memory_remember` and
//     `memory_observe`, after a first call that loads the index.
// With GITMEM_BENCH_BEFORE=<an older build's dist/cli.cjs> the same rows are measured for that build in
// the same run, on its own copy of the workspace. Keyword only (`model.enabled: false`), so the figures
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

async function measureBuild(cli: string, root: string, rounds: number, tag: string): Promise<WriteFigures> {
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
  );
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync(process.execPath, [cli, '--dir', root, 'index', '--rebuild', '--json'], { env: ENV, stdio: 'pipe' });
  const remember: { wall: number; cpu: number }[] = [];
  const recall: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    remember.push(
      timed(cli, root, [
        'remember',
        `bench ${tag} cli note ${i}: the retry window is ${i + 3} minutes`,
        '--type',
        'learning',
        '--json',
      ]),
    );
    recall.push(timed(cli, root, ['recall', '--mode', 'keyword', '--json', '--no-host', '--', 'retry', 'window']));
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--dir', root],
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
  try {
    await call('memory_recall', { query: 'retry window', mode: 'keyword' }); // loads the index
    const mcpRemember: { wall: number; cpu: number; reads: number }[] = [];
    const mcpObserve: { wall: number; cpu: number; reads: number }[] = [];
    for (let i = 0; i < rounds; i++) {
      mcpRemember.push(
        await call('memory_remember', {
          text: `bench ${tag} mcp note ${i}: queue depth alarm at ${i + 40} jobs`,
          type: 'learning',
        }),
      );
      mcpObserve.push(await call('memory_observe', { text: `bench ${tag} observation ${i}` }));
    }
    const of = <T>(xs: readonly T[], k: keyof T) => median(xs.map((x) => x[k] as number));
    return {
      remember: of(remember, 'wall'),
      recall: of(recall, 'wall'),
      rememberCpu: of(remember, 'cpu'),
      recallCpu: of(recall, 'cpu'),
      mcpRemember: of(mcpRemember, 'wall'),
      mcpObserve: of(mcpObserve, 'wall'),
      mcpRememberCpu: of(mcpRemember, 'cpu'),
      mcpObserveCpu: of(mcpObserve, 'cpu'),
      mcpRememberReads: of(mcpRemember, 'reads'),
      mcpObserveReads: of(mcpObserve, 'reads'),
    };
  } finally {
    await client.close();
  }
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
  const builds: { name: string; cli: string }[] = [{ name: 'this build', cli }];
  if (before && existsSync(before)) builds.push({ name: 'before (GITMEM_BENCH_BEFORE)', cli: before });
  const rows: string[] = [];
  const cpuRows: string[] = [];
  for (const [i, b] of builds.entries()) {
    const copy = `${root}-write-${i}`;
    cpSync(root, copy, { recursive: true });
    const f = await measureBuild(b.cli, copy, rounds, `b${i}`);
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
