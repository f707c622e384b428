// The write path at scale (issue #44, `npm run bench -- --only write`; part of the full `npm run bench`):
// what one `remember` and one `observe` cost in a large workspace, against a recall in the same run.
//   - one-shot CLI: `gitmem remember` and `gitmem recall --mode keyword` alternating, fresh processes;
//   - warm MCP server (`gitmem mcp`, the SDK client over real stdio): `memory_remember` and
//     `memory_observe`, after a first call that loads the index.
// With GITMEM_BENCH_BEFORE=<an older build's dist/cli.cjs> the same rows are measured for that build in
// the same run, on its own copy of the workspace. Keyword only (`model.enabled: false`), so the figures
// are the index's and the files', not the embedding model's.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
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

/** Wall ms of one CLI call (exit status must be 0). */
function timed(cli: string, root: string, args: readonly string[]): number {
  const t = performance.now();
  execFileSync(process.execPath, [cli, '--dir', root, ...args], { env: ENV, stdio: 'pipe' });
  return performance.now() - t;
}

/** Figures of one build, ms medians. */
export interface WriteFigures {
  readonly remember: number;
  readonly recall: number;
  readonly mcpRemember: number;
  readonly mcpObserve: number;
}

async function measureBuild(cli: string, root: string, rounds: number, tag: string): Promise<WriteFigures> {
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
  );
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync(process.execPath, [cli, '--dir', root, 'index', '--rebuild', '--json'], { env: ENV, stdio: 'pipe' });
  const remember: number[] = [];
  const recall: number[] = [];
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
    const t = performance.now();
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
    return performance.now() - t;
  };
  try {
    await call('memory_recall', { query: 'retry window', mode: 'keyword' }); // loads the index
    const mcpRemember: number[] = [];
    const mcpObserve: number[] = [];
    for (let i = 0; i < rounds; i++) {
      mcpRemember.push(
        await call('memory_remember', {
          text: `bench ${tag} mcp note ${i}: queue depth alarm at ${i + 40} jobs`,
          type: 'learning',
        }),
      );
      mcpObserve.push(await call('memory_observe', { text: `bench ${tag} observation ${i}` }));
    }
    return {
      remember: median(remember),
      recall: median(recall),
      mcpRemember: median(mcpRemember),
      mcpObserve: median(mcpObserve),
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
  for (const [i, b] of builds.entries()) {
    const copy = `${root}-write-${i}`;
    cpSync(root, copy, { recursive: true });
    const f = await measureBuild(b.cli, copy, rounds, `b${i}`);
    const over = f.remember - f.recall;
    rows.push(
      `| ${b.name} | ${f.remember.toFixed(0)} ms | ${f.recall.toFixed(0)} ms | ${over.toFixed(0)} ms (goal ≤ 50) | ${f.mcpRemember.toFixed(1)} ms (goal ≤ 30) | ${f.mcpObserve.toFixed(1)} ms (goal ≤ 30) |`,
    );
  }
  say(`\nwrite path at ${files.toLocaleString('en-US')} files (keyword only; medians of ${rounds}; issue #44 goals)`);
  say(
    '| build | one-shot remember | one-shot keyword recall | remember − recall | warm MCP memory_remember | warm MCP memory_observe |',
  );
  say('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) say(r);
}
