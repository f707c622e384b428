// Shared helpers of the reliability harnesses (issue 10, docs/DESIGN.md §10): temp git workspaces, real
// `node dist/cli.cjs` processes (with an optional SIGKILL and a peak-RSS probe), the benches' seeded RNG
// (bench/support/random.ts) and figure printing. Node built-ins only; no src/ imports, so each harness
// stays self-contained.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export { rng } from '../support/random.js';

/** Repository root (works from bench/reliability/*.ts and from a bundle under .cache/). */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src', 'cli', 'main.ts'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

/**
 * The CLI the harnesses run: this checkout's dist/cli.cjs, or GITMEM_BENCH_CLI (another build's
 * cli.cjs, to compare two builds in one session).
 */
export const CLI = process.env.GITMEM_BENCH_CLI
  ? resolve(process.env.GITMEM_BENCH_CLI)
  : join(repoRoot(), 'dist', 'cli.cjs');

const WORDS =
  'amber basalt cobalt delta ember fjord garnet harbor indigo jasper kelp lagoon meadow nectar onyx prairie quartz russet saffron tundra umber violet willow xenon yarrow zephyr'.split(
    ' ',
  );

/** A few random words (distinct texts never look like duplicates to `remember`). */
export function words(rand: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]!).join(' ');
}

/** A unique, tokenizer-friendly marker word (`zq…x`), findable by keyword recall. */
export function marker(rand: () => number, prefix = 'zq'): string {
  return `${prefix}${Math.floor(rand() * 36 ** 6).toString(36)}${Date.now().toString(36).slice(-3)}x`;
}

/** A fresh temp folder (realpath). */
export function tempDir(prefix = 'gitmem-rel-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Reliability',
  GIT_AUTHOR_EMAIL: 'rel@localhost',
  GIT_COMMITTER_NAME: 'Reliability',
  GIT_COMMITTER_EMAIL: 'rel@localhost',
};

export function git(cwd: string, ...args: string[]): { code: number; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/**
 * A temp git repository with a scaffolded gitmem workspace (default layout) and one commit.
 * `model: false` turns embeddings off (gitmem.config.json) for harnesses that only need keywords.
 */
export function makeWorkspace(options: { model?: boolean; prefix?: string } = {}): string {
  const root = join(tempDir(options.prefix), 'ws');
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q');
  git(root, 'config', 'user.name', 'Reliability');
  git(root, 'config', 'user.email', 'rel@localhost');
  const r = runCliSync(root, ['init']);
  if (r.code !== 0) throw new Error(`gitmem init failed: ${r.stderr}`);
  if (options.model === false)
    writeFileSync(join(root, 'gitmem.config.json'), `${JSON.stringify({ model: { enabled: false } }, null, 2)}\n`);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
  return root;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** Parsed stdout when it is one JSON value. */
  readonly json: any;
  /** True when the harness killed the process before it exited. */
  readonly killed: boolean;
  /** Peak resident set size in bytes (when `rss` was asked for). */
  readonly peakRss?: number;
  /** CPU time (ms, user + system) of the process and of the children it waited for (when `cpu` was asked for, on Linux). */
  readonly cpuMs?: { readonly self: number; readonly children: number };
}

function parseJson(s: string): any {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** Preload module that records the child's peak RSS (bytes) in $GITMEM_RSS_FILE at exit. */
let rssProbe: string | undefined;
function rssProbePath(): string {
  if (rssProbe && existsSync(rssProbe)) return rssProbe;
  rssProbe = join(tempDir('gitmem-rss-'), 'rss-probe.mjs');
  writeFileSync(
    rssProbe,
    "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { try { writeFileSync(process.env.GITMEM_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)); } catch {} });\n",
  );
  return rssProbe;
}

/**
 * Preload module that records the child's CPU time at exit in $GITMEM_CPU_FILE: its own user and
 * system time plus that of the children it waited for (git, merge drivers), from /proc/self/stat
 * (Linux; clock ticks of 10 ms), as `self_ms children_ms`.
 */
let cpuProbe: string | undefined;
function cpuProbePath(): string {
  if (cpuProbe && existsSync(cpuProbe)) return cpuProbe;
  cpuProbe = join(tempDir('gitmem-cpu-'), 'cpu-probe.cjs');
  writeFileSync(
    cpuProbe,
    [
      "const { readFileSync, writeFileSync } = require('node:fs');",
      "process.on('exit', () => { try {",
      "  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');",
      '  const own = process.cpuUsage();',
      '  const children = (Number(f[13]) + Number(f[14])) * 10;',
      '  writeFileSync(process.env.GITMEM_CPU_FILE, `${(own.user + own.system) / 1000} ${children}`);',
      '} catch {} });',
      '',
    ].join('\n'),
  );
  return cpuProbe;
}

const baseEnv = () => ({ ...process.env, ...GIT_ENV, NO_COLOR: '1', GITMEM_NO_PROGRESS: '1' });

export function runCliSync(
  cwd: string,
  args: readonly string[],
  options: { rss?: boolean; timeoutMs?: number } = {},
): CliResult {
  const t0 = performance.now();
  const rssFile = options.rss
    ? join(dirname(rssProbePath()), `rss-${process.pid}-${Math.random().toString(36).slice(2)}`)
    : undefined;
  const nodeArgs = rssFile ? ['--import', rssProbePath(), CLI, ...args] : [CLI, ...args];
  const r = spawnSync(process.execPath, nodeArgs, {
    cwd,
    encoding: 'utf8',
    env: { ...baseEnv(), ...(rssFile ? { GITMEM_RSS_FILE: rssFile } : {}) },
    timeout: options.timeoutMs ?? 300_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  let peakRss: number | undefined;
  if (rssFile && existsSync(rssFile)) peakRss = Number(readFileSync(rssFile, 'utf8'));
  return {
    code: r.status,
    signal: r.signal,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    ms: performance.now() - t0,
    json: parseJson(r.stdout ?? ''),
    killed: false,
    ...(peakRss !== undefined ? { peakRss } : {}),
  };
}

function readCpu(file: string | undefined): CliResult['cpuMs'] {
  if (!file || !existsSync(file)) return undefined;
  const [self, children] = readFileSync(file, 'utf8').split(' ').map(Number);
  rmSync(file, { force: true });
  return Number.isFinite(self) && Number.isFinite(children) ? { self: self!, children: children! } : undefined;
}

/**
 * Start the CLI; when `killAfterMs` is given, SIGKILL it then (if it is still running); `cpu`: record
 * its CPU time (CliResult.cpuMs).
 */
export function runCli(
  cwd: string,
  args: readonly string[],
  options: { killAfterMs?: number; cpu?: boolean } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const cpuFile =
      options.cpu && process.platform === 'linux'
        ? join(dirname(cpuProbePath()), `cpu-${process.pid}-${Math.random().toString(36).slice(2)}`)
        : undefined;
    const child = spawn(process.execPath, cpuFile ? ['--require', cpuProbePath(), CLI, ...args] : [CLI, ...args], {
      cwd,
      env: { ...baseEnv(), ...(cpuFile ? { GITMEM_CPU_FILE: cpuFile } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let exited = false;
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let timer: NodeJS.Timeout | undefined;
    if (options.killAfterMs !== undefined) {
      timer = setTimeout(() => {
        if (!exited) {
          killed = true;
          child.kill('SIGKILL');
        }
      }, options.killAfterMs);
    }
    child.on('error', reject);
    child.on('exit', () => {
      exited = true;
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolvePromise({
        code,
        signal,
        stdout,
        stderr,
        ms: performance.now() - t0,
        json: parseJson(stdout),
        killed: killed && signal === 'SIGKILL',
        ...(cpuFile ? { cpuMs: readCpu(cpuFile) } : {}),
      });
    });
  });
}

/** Every file under `root` (relative POSIX paths), skipping `.git`. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(root, p).split('\\').join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** Contents of every `*.md` file under `root`. */
export function snapshotMarkdown(root: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of listFiles(root)) if (/\.md$/i.test(f)) m.set(f, readFileSync(join(root, f), 'utf8'));
  return m;
}

export function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    /* best effort */
  }
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export const mb = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Print a titled two-column table of figures. */
export function printFigures(
  title: string,
  rows: ReadonlyArray<readonly [string, string | number]>,
  log: (s: string) => void = console.log,
): void {
  log(`\n${title}`);
  const w = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) log(`  ${k.padEnd(w)}  ${v}`);
}

export function fileSize(path: string): number {
  return statSync(path).size;
}

export { resolve };
