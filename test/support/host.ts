// Test support for one-shot calls answered by a running host (src/host/): a git workspace in a temp
// folder, a real `gitmem watch --json` process (dist/cli.cjs; `npm run build` first), and the CLI
// calls the host tests compare. Callers kill what they start and remove what they make (`cleanup`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CLI, git, runCli } from './fixtures.js';
import { workspace } from './watch.js';

const started: ChildProcess[] = [];
const folders: string[] = [];

/** Kill every process started here (SIGKILL) and remove every workspace made here. */
export function cleanup(): void {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const f of folders.splice(0)) rmSync(join(f, '..'), { recursive: true, force: true });
}

/** Remember a process for {@link cleanup}. */
export function track(child: ChildProcess): ChildProcess {
  started.push(child);
  return child;
}

/** A git workspace (default layout, no model) with `files`, removed by {@link cleanup}. */
export function repo(files: Record<string, string>): string {
  const root = workspace(files);
  git(root, 'init', '-q');
  folders.push(root);
  return root;
}

/**
 * Start `gitmem watch --json` (with `args` added) and resolve once it is ready (with its `host`
 * field); `stderr()` is what it has written there so far.
 */
export function startWatch(
  root: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
): Promise<{ child: ChildProcess; ready: any; stderr: () => string }> {
  const child = track(
    spawn(process.execPath, [CLI, 'watch', '--dir', root, '--json', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...env },
    }),
  );
  let buf = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`watch not ready: ${buf} ${err}`)), 60_000);
    child.stdout!.on('data', (d) => {
      buf += d;
      for (const line of buf.split('\n')) {
        if (!line.startsWith('{')) continue;
        const j = JSON.parse(line);
        if (j.event === 'ready') {
          clearTimeout(timer);
          resolve({ child, ready: j, stderr: () => err });
        }
      }
    });
    child.on('exit', () => reject(new Error(`watch exited: ${err}`)));
  });
}

/** `gitmem recall <query> --json --mode keyword` in `root`; expects exit 0. */
export function recall(root: string, query: string, ...extra: string[]): any {
  return recallEnv(root, query, {}, ...extra);
}

/**
 * {@link recall} with extra environment variables. The connect bound is raised from 250 ms to 5 s
 * unless `env` sets it: on a loaded CI machine a busy host (re-indexing what the test just wrote) can
 * take longer to accept, and the call would then run cold and fail a `servedBy` check. A host that
 * is gone refuses the connection at once, so the tests of a fallback are not slowed.
 */
export function recallEnv(root: string, query: string, env: Record<string, string>, ...extra: string[]): any {
  const r = runCli(['recall', query, '--dir', root, '--json', '--mode', 'keyword', ...extra], {
    env: { GITMEM_HOST_CONNECT_MS: '5000', ...env },
  });
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

/** The entry the hosted-read tests get by id. */
const CACHE_ENTRY =
  '---\nid: cache-policy\ntype: decision\ntags: [cache]\n---\n\nCache webhook payloads for one hour.\n';

/** A workspace of the hosted-read tests, its cold answers, and its host running. */
export interface HostedReads {
  readonly root: string;
  /** `recall 'webhook retries' --no-host`. */
  readonly cold: any;
  /** `get cache-policy --no-host`. */
  readonly coldGet: any;
}

/**
 * A git workspace with `memory` as its index note and the `cache-policy` entry, its cold recall of
 * 'webhook retries' and cold get of cache-policy, then its `gitmem watch` started: what a copied CLI
 * answers through the host is compared with these ({@link expectHostedReads}).
 */
export async function hostedReads(memory: string): Promise<HostedReads> {
  const root = repo({ 'memory/MEMORY.md': memory, 'memory/entries/2026-01-02-cache.md': CACHE_ENTRY });
  const cold = recall(root, 'webhook retries', '--no-host');
  const coldGet = runCli(['get', 'cache-policy', '--dir', root, '--json', '--no-host']);
  expect(coldGet.code, coldGet.stderr).toBe(0);
  await startWatch(root);
  return { root, cold, coldGet: coldGet.json() };
}

/**
 * The copied `cli`'s recall of 'webhook retries' (keyword, --debug) and get of cache-policy over
 * `reads`, each checked to be answered by the watch host with the cold path's JSON.
 * @returns the recall's JSON and stderr, for the test's own checks.
 */
export function expectHostedReads(cli: string, reads: HostedReads): { answer: any; stderr: string } {
  const { root } = reads;
  const hosted = runCopiedCli(cli, [
    'recall',
    'webhook',
    'retries',
    '--dir',
    root,
    '--json',
    '--mode',
    'keyword',
    '--debug',
  ]);
  expect(hosted.code, hosted.stderr).toBe(0);
  const answer = JSON.parse(hosted.stdout);
  expect(answer.servedBy).toBe('watch');
  expect(shape(answer)).toEqual(shape(reads.cold));
  expect(hosted.stderr).toMatch(/recall answered by the watch host/);
  const got = runCopiedCli(cli, ['--dir', root, 'get', 'cache-policy', '--json']);
  expect(got.code, got.stderr).toBe(0);
  expect(JSON.parse(got.stdout)).toEqual(reads.coldGet);
  return { answer, stderr: hosted.stderr };
}

/** The result without the two fields that differ by path (timing, and which path answered). */
export const shape = ({ tookMs: _t, servedBy: _s, ...rest }: any) => rest;

/** The `host` section of `gitmem doctor --json`. */
export const doctorHost = (root: string, env: Record<string, string> = {}) =>
  runCli(['doctor', '--dir', root, '--json'], { env }).json().host;

/**
 * Run a dist/cli.cjs, mostly a test's altered copy of the build, as a one-shot process. A copy has
 * the real bundle's hash but other bytes, so the code cache is off: it must not meet the real bundle's.
 * @returns exit code, stdout and stderr as text.
 */
export function runCopiedCli(cli: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], {
    env: { ...process.env, NO_COLOR: '1', GITMEM_NO_CODE_CACHE: '1' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
