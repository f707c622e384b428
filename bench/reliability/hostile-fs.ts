// Hostile file-system objects (issue 16 §7, bad input T07): a FIFO, a socket and devices named `.md`,
// symlinks to /dev/zero and /dev/urandom, a note that grows while it is read, a read-only tree and a
// read-only HOME. Each is put in one workspace and driven through real `node dist/cli.cjs` processes
// (index, recall, get, validate) and a `gitmem watch` that sees them appear and must then stop within
// a second of SIGTERM. A run that passes its time limit is a hang; peak RSS is recorded per run.
// The language server and the MCP server get the same objects in test/reliability/hostile-fs.test.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { CLI, makeWorkspace, mb, ms, printFigures, removeDir, tempDir } from './common.js';

/** A run longer than this is counted as a hang (the slowest normal run here takes ~2 s). */
const HANG_MS = 30_000;
/** Peak RSS above this fails the run. */
const RSS_LIMIT = 1024 * 1024 * 1024;

export interface HostileFsRun {
  readonly name: string;
  readonly ms: number;
  readonly rss: number | undefined;
  readonly ok: boolean;
  readonly problems: readonly string[];
}

export interface HostileFsFigures {
  readonly runs: readonly HostileFsRun[];
  readonly hangs: number;
  readonly crashes: number;
  readonly failures: number;
  readonly maxRss: number;
  /** Time from SIGTERM to exit of `gitmem watch` (ms). */
  readonly watchStopMs: number | undefined;
}

export interface HostileFsOptions {
  readonly log?: (line: string) => void;
}

/** Environment and, when running as root, the unprivileged user that makes "read-only" real. */
function runAs(): { uid: number; gid: number } | undefined {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
}

function rssProbe(dir: string): string {
  const p = join(dir, 'rss-probe.mjs');
  writeFileSync(
    p,
    "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { try { writeFileSync(process.env.GITMEM_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)); } catch {} });\n",
  );
  chmodSync(p, 0o644);
  return p;
}

export async function runHostileFs(options: HostileFsOptions = {}): Promise<HostileFsFigures> {
  const log = options.log ?? (() => undefined);
  const root = makeWorkspace({ model: false, prefix: 'gitmem-hostile-fs-' });
  const tmp = tempDir('gitmem-hostile-fs-aux-');
  chmodSync(tmp, 0o777);
  const probe = rssProbe(tmp);
  const runs: HostileFsRun[] = [];
  let hangs = 0;
  let crashes = 0;
  let watchStopMs: number | undefined;
  const children: ChildProcess[] = [];
  let server: Server | undefined;
  const mem = (rel: string) => join(root, 'memory', rel);

  const cli = (
    name: string,
    args: readonly string[],
    check: (r: { code: number | null; stdout: string; stderr: string }) => string[],
    extra: { env?: Record<string, string>; user?: boolean } = {},
  ) => {
    const rssFile = join(tmp, `rss-${runs.length}`);
    const user = extra.user ? runAs() : undefined;
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', probe, CLI, ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', GITMEM_NO_PROGRESS: '1', GITMEM_RSS_FILE: rssFile, ...extra.env },
      timeout: HANG_MS,
      killSignal: 'SIGKILL',
      ...(user ?? {}),
    });
    const took = performance.now() - t0;
    const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : undefined;
    const problems: string[] = [];
    if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
      hangs++;
      problems.push(`hung (killed after ${HANG_MS} ms)`);
    } else {
      if (r.status === null || r.status >= 3) {
        crashes++;
        problems.push(`crashed: ${r.signal ?? r.status}: ${(r.stderr ?? '').slice(0, 300)}`);
      }
      problems.push(...check({ code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' }));
    }
    if (rss !== undefined && rss > RSS_LIMIT) problems.push(`peak RSS ${mb(rss)} over 1 GB`);
    runs.push({ name, ms: took, rss, ok: problems.length === 0, problems });
    for (const p of problems) log(`  ! ${name}: ${p}`);
    log(`  ${name}: ${ms(took)} (${mb(rss)})`);
  };

  try {
    writeFileSync(
      mem('entries/normal.md'),
      '---\nid: normal\ntype: learning\n---\nThe canary note zqcanaryx is always findable.\n',
    );
    spawnSync('mkfifo', [mem('fifo.md')]);
    server = createServer().listen(mem('socket.md'));
    await new Promise((r) => server!.once('listening', r));
    symlinkSync('/dev/zero', mem('zero.md'));
    symlinkSync('/dev/urandom', mem('urandom.md'));
    // A character device inside the tree (needs root; a symlink to one covers the rest).
    if (process.getuid?.() === 0) spawnSync('mknod', [mem('null-device.md'), 'c', '1', '3']);
    // A note that grows while it is read: a child appends to it for the whole run.
    const grower = spawn(
      process.execPath,
      [
        '-e',
        `const fs=require('fs');const p=${JSON.stringify(mem('growing.md'))};fs.writeFileSync(p,'# Growing\\n\\n');setInterval(()=>fs.appendFileSync(p,'- more zqgrowx lines '.repeat(200)+'\\n'),5);`,
      ],
      { stdio: 'ignore' },
    );
    children.push(grower);
    await new Promise((r) => setTimeout(r, 200));

    const found = (r: { stdout: string }) => {
      try {
        const j = JSON.parse(r.stdout);
        return (j.results ?? []).some((x: { path: string }) => x.path === 'memory/entries/normal.md');
      } catch {
        return false;
      }
    };
    cli('index', ['--json', 'index'], (r) =>
      r.code === 0 ? [] : [`index exited ${r.code}: ${r.stderr.slice(0, 200)}`],
    );
    cli('recall', ['--json', 'recall', 'zqcanaryx', '--mode', 'keyword'], (r) =>
      r.code === 0 && found(r) ? [] : [`recall exited ${r.code} or missed the canary`],
    );
    for (const f of [
      'fifo.md',
      'socket.md',
      'zero.md',
      'urandom.md',
      ...(existsSync(mem('null-device.md')) ? ['null-device.md'] : []),
    ]) {
      cli(`get memory/${f}`, ['get', `memory/${f}`], (r) =>
        r.code === 1 && /not a file|outside the workspace|socket|FIFO|device/i.test(r.stderr)
          ? []
          : [`expected a clear refusal (exit 1), got ${r.code}: ${r.stderr.slice(0, 200)}`],
      );
    }
    cli('validate', ['--json', 'validate'], (r) => (r.code === 0 || r.code === 1 ? [] : [`validate exited ${r.code}`]));
    // Read-only tree and read-only HOME: recall still answers from an in-memory index and says so.
    const ro = runAs();
    spawnSync('chmod', ['-R', 'a+rX', dirname(root)]);
    spawnSync('chmod', ['-R', 'a-w', root]);
    const roHome = join(tmp, 'home');
    mkdirSync(roHome);
    chmodSync(roHome, 0o555);
    if (ro) chownSync(roHome, 0, 0);
    cli(
      'recall in a read-only tree with a read-only HOME',
      ['--json', 'recall', 'zqcanaryx', '--mode', 'keyword'],
      (r) => {
        const p: string[] = [];
        if (r.code !== 0 || !found(r))
          p.push(`recall exited ${r.code} or missed the canary: ${r.stderr.slice(0, 200)}`);
        // Nothing changed since `index` saved the index, so there may be nothing to save; when there
        // is, the message must say it was not saved.
        if (/EACCES|EROFS/.test(r.stderr) && !/could not save/.test(r.stderr))
          p.push('a save failure without "could not save"');
        return p;
      },
      { env: { HOME: roHome }, user: true },
    );
    writeFileSync(
      mem('entries/fresh.md'),
      '---\nid: fresh\ntype: learning\n---\nA note zqfreshx written into the read-only tree.\n',
    );
    spawnSync('chmod', ['a-w', mem('entries/fresh.md')]);
    cli(
      'recall of a new note in a read-only tree',
      ['--json', 'recall', 'zqfreshx', '--mode', 'keyword'],
      (r) => {
        const p: string[] = [];
        let hit = false;
        try {
          hit = JSON.parse(r.stdout).results.some((x: { path: string }) => x.path === 'memory/entries/fresh.md');
        } catch {
          /* reported below */
        }
        if (r.code !== 0 || !hit) p.push(`recall exited ${r.code} or missed the new note: ${r.stderr.slice(0, 200)}`);
        if (ro && !/could not save/.test(r.stderr)) p.push('no "could not save" note');
        return p;
      },
      { env: { HOME: roHome }, user: true },
    );
    spawnSync('chmod', ['-R', 'u+w', root]);

    // The watcher: hostile objects appear while it runs; it keeps working, stays small, and stops
    // within a second of SIGTERM.
    const rssFile = join(tmp, 'rss-watch');
    const t0 = performance.now();
    const w = spawn(process.execPath, ['--import', probe, CLI, '--json', 'watch'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', GITMEM_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(w);
    let out = '';
    let err = '';
    w.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    w.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((r) => w.on('exit', (code) => r(code)));
    const until = async (test: () => boolean, limit: number) => {
      const end = Date.now() + limit;
      while (!test() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      return test();
    };
    const problems: string[] = [];
    if (!(await until(() => out.includes('"event":"ready"'), 20_000)))
      problems.push(`no ready event: ${err.slice(0, 200)}`);
    symlinkSync('/dev/zero', mem('zero-late.md'));
    spawnSync('mkfifo', [mem('fifo-late.md')]);
    writeFileSync(mem('entries/late.md'), '---\nid: late\ntype: learning\n---\nWritten while watching: zqlatex.\n');
    if (!(await until(() => out.includes('memory/entries/late.md'), 10_000)))
      problems.push('the note written while watching was not indexed');
    await new Promise((r) => setTimeout(r, 1000));
    const sig = performance.now();
    w.kill('SIGTERM');
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 5000)),
    ]);
    watchStopMs = performance.now() - sig;
    if (!stopped) {
      hangs++;
      problems.push('gitmem watch ignored SIGTERM for 5 s');
      w.kill('SIGKILL');
      await exited;
    }
    const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : undefined;
    if (rss !== undefined && rss > RSS_LIMIT) problems.push(`peak RSS ${mb(rss)} over 1 GB`);
    runs.push({
      name: 'watch with /dev/zero and a FIFO appearing, then SIGTERM',
      ms: performance.now() - t0,
      rss,
      ok: problems.length === 0,
      problems,
    });
    for (const p of problems) log(`  ! watch: ${p}`);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    server?.close();
    spawnSync('chmod', ['-R', 'u+w', dirname(root)]);
    removeDir(dirname(root));
    removeDir(tmp);
  }
  const failures = runs.filter((r) => !r.ok).length;
  const maxRss = Math.max(0, ...runs.map((r) => r.rss ?? 0));
  return { runs, hangs, crashes, failures, maxRss, watchStopMs };
}

export function printHostileFs(f: HostileFsFigures, log: (s: string) => void = console.log): void {
  printFigures(
    'Hostile file-system objects (FIFO, socket, devices, /dev/zero symlink, growing note, read-only tree and HOME)',
    [
      ...f.runs.map(
        (r) => [r.name, `${r.ok ? 'ok' : `FAIL (${r.problems.join('; ')})`} · ${ms(r.ms)} · ${mb(r.rss)}`] as const,
      ),
      [
        'watch: SIGTERM to exit (goal ≤ 1.5 s; over 5 s is a hang)',
        f.watchStopMs === undefined ? 'n/a' : ms(f.watchStopMs),
      ],
      ['hangs', f.hangs],
      ['crashes', f.crashes],
      ['peak RSS', mb(f.maxRss)],
    ],
    log,
  );
}
