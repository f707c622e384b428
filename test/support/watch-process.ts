// Test support: a real `gitmem watch --json` process (dist/cli.cjs; `npm run build` first) whose JSON
// lines are collected as they come, with a wait for the next line that matches. The caller kills it.
import { spawn, type ChildProcess } from 'node:child_process';
import { Arrivals } from './arrivals.js';
import { CLI } from './fixtures.js';

/** A running `gitmem watch --json`: its process, every JSON line so far, and its exit. */
export interface WatchProc {
  readonly child: ChildProcess;
  readonly lines: any[];
  /** Resolve with the first JSON line (from now) that satisfies `accept`. */
  next(accept: (l: any) => boolean, timeoutMs?: number): Promise<any>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start `gitmem watch --dir root --json` with `env` added to this process's environment. */
export function startWatchJson(root: string, env: Record<string, string> = {}): WatchProc {
  const child = spawn(process.execPath, [CLI, 'watch', '--dir', root, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  const lines = new Arrivals<any>();
  let buf = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => {
    buf += d;
    let i: number;
    const got: any[] = [];
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.trim()) got.push(JSON.parse(line));
    }
    lines.push(...got);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  const next = (accept: (l: any) => boolean, timeoutMs = 30_000) =>
    lines.next(
      accept,
      timeoutMs,
      () => `watch: no matching line in ${timeoutMs} ms; lines ${JSON.stringify(lines.items)}; stderr ${stderr}`,
      { promise: exited, message: () => `watch exited; lines ${JSON.stringify(lines.items)}; stderr ${stderr}` },
    );
  return { child, lines: lines.items, next, exited };
}
