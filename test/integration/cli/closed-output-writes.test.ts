// Bad input R21 (docs/bad-inputs.md): a writing command whose stdout and stderr are a pipe nobody
// reads any more (`gitmem remember … 2>&1 | head -1`) still makes its write, and its exit status
// says whether it did. Real CLI processes, real pipes: each run is spawned with stdout and stderr
// pipes whose reading ends this test closes at once, so the first line the command prints (here the
// workspace's warning about its refused `index.dir`, printed before any write) meets EPIPE. Before,
// that ended the process with status 0 before the write. Every writing command, RUNS runs each
// (GITMEM_CLOSED_PIPE_RUNS, default 20 for the suite; the issue asks for 100: GITMEM_CLOSED_PIPE_RUNS=100); each run is checked on disk and by its exit status.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, git, initRepoOnMain, requireBuiltCli, tempDir, write } from '../../support/fixtures.js';

const RUNS = Number(process.env.GITMEM_CLOSED_PIPE_RUNS ?? 20);
/** Processes at a time (the machine's cores are shared). */
const PARALLEL = 3;

let root: string;
let ws: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  requireBuiltCli();
  root = tempDir('gitmem-closed-pipe-');
  ws = join(root, 'ws');
  // `index.dir` inside the work tree is refused with a warning on stderr at every open: the command
  // prints before it writes.
  write(ws, 'gitmem.config.json', JSON.stringify({ version: 1, layout: 'default', index: { dir: 'memory' } }));
  write(ws, 'memory/MEMORY.md', '# Memory\n\n- the first fact\n');
  for (let i = 0; i < RUNS; i++) write(ws, `memory/notes/n${i}.md`, `# Note ${i}\n\nSee [[n${(i + 1) % RUNS}]].\n`);
  initRepoOnMain(ws);
  env = {
    ...process.env,
    NO_COLOR: '1',
    GITMEM_NO_HOST: '1',
    GITMEM_MODEL_DIR: join(root, 'no-model'),
    GIT_AUTHOR_NAME: 'Pipe Test',
    GIT_AUTHOR_EMAIL: 'pipe@example.com',
    GIT_COMMITTER_NAME: 'Pipe Test',
    GIT_COMMITTER_EMAIL: 'pipe@example.com',
  };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Run `gitmem --dir <dir> …args` with stdout and stderr pipes closed by the reader before the
 * command prints anything. @returns its exit status (a signal counts as -1).
 */
function intoClosedPipes(args: readonly string[], dir = ws): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--dir', dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    child.stdout.destroy();
    child.stderr.destroy();
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

/** Run `run(i)` for i in 0..RUNS-1, `parallel` at a time. */
async function runAll(parallel: number, run: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < RUNS) await run(next++);
  };
  await Promise.all(Array.from({ length: parallel }, lane));
}

/**
 * The text of every memory file under `dir` (recursive). Dot-prefixed names are skipped: they are the
 * lock and temp files of runs still in flight (`.<name>.lock.<pid>.<hex>.tmp`), which vanish between
 * the listing and the read.
 */
function allText(dir: string): string {
  const texts: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(join(d, e.name));
      else texts.push(readFileSync(join(d, e.name), 'utf8'));
    }
  };
  walk(dir);
  return texts.join('\n');
}

/** A token no other run's text holds (so dedupe sees unrelated entries). */
const token = (kind: string, i: number) => `${kind}${i}q${(i * 7919) % 1000}`;

describe('a writing command whose output pipe is closed still writes, and says so by its status (R21)', () => {
  const timeout = 60_000 + RUNS * 10_000;

  it('remember', { timeout }, async () => {
    const statuses: number[] = [];
    await runAll(PARALLEL, async (i) => {
      const t = token('rem', i);
      statuses.push(await intoClosedPipes(['remember', `${t} ${t}b ${t}c ${t}d`, '--tag', `t${i}`]));
      expect(allText(join(ws, 'memory', 'entries')), `remember run ${i}`).toContain(t);
    });
    expect(statuses.filter((s) => s !== 0)).toEqual([]);
  });

  it('append', { timeout }, async () => {
    const statuses: number[] = [];
    await runAll(PARALLEL, async (i) => {
      const t = token('app', i);
      statuses.push(await intoClosedPipes(['append', `appended ${t}`, '--date', '2024-03-01']));
      expect(readFileSync(join(ws, 'memory', '2024-03-01.md'), 'utf8'), `append run ${i}`).toContain(t);
    });
    expect(statuses.filter((s) => s !== 0)).toEqual([]);
  });

  it('state set', { timeout }, async () => {
    const statuses: number[] = [];
    await runAll(1, async (i) => {
      const t = token('step', i);
      statuses.push(await intoClosedPipes(['state', 'set', '--step', `step ${t}`]));
      expect(readFileSync(join(ws, 'memory', 'CURRENT_STATE.md'), 'utf8'), `state set run ${i}`).toContain(t);
    });
    expect(statuses.filter((s) => s !== 0)).toEqual([]);
  });

  it('mv', { timeout }, async () => {
    const statuses: number[] = [];
    await runAll(1, async (i) => {
      statuses.push(await intoClosedPipes(['mv', `memory/notes/n${i}.md`, `memory/moved/n${i}.md`]));
      expect(existsSync(join(ws, 'memory', 'moved', `n${i}.md`)), `mv run ${i}`).toBe(true);
      expect(existsSync(join(ws, 'memory', 'notes', `n${i}.md`)), `mv run ${i}`).toBe(false);
    });
    expect(statuses.filter((s) => s !== 0)).toEqual([]);
  });

  it('complete-task', { timeout }, async () => {
    const statuses: number[] = [];
    const tasks = join(root, 'tasks');
    mkdirSync(tasks, { recursive: true });
    await runAll(1, async (i) => {
      const t = token('task', i);
      const file = join(tasks, `t${i}.json`);
      writeFileSync(file, JSON.stringify({ goal: `goal ${t}`, result: `${t} ${t}r ${t}s done`, tool_usage: [] }));
      statuses.push(await intoClosedPipes(['complete-task', '--input', file]));
      expect(allText(join(ws, 'memory', 'entries')), `complete-task run ${i}`).toContain(`${t}r`);
      expect(git(ws, 'grep', '-l', `${t}r`, 'HEAD', '--', 'memory'), `complete-task run ${i} committed`).not.toBe('');
    });
    expect(statuses.filter((s) => s !== 0)).toEqual([]);
  });

  it('checkpoint', { timeout }, async () => {
    const statuses: number[] = [];
    await runAll(1, async (i) => {
      const t = token('cp', i);
      appendFileSync(join(ws, 'memory', 'MEMORY.md'), `- checkpointed ${t}\n`);
      statuses.push(await intoClosedPipes(['checkpoint']));
      expect(git(ws, 'show', 'HEAD:memory/MEMORY.md'), `checkpoint run ${i}`).toContain(t);
    });
    expect(statuses.filter((s) => s !== 0)).toEqual([]);
  });

  it('init', { timeout }, async () => {
    const statuses: number[] = [];
    await runAll(PARALLEL, async (i) => {
      const dir = join(root, 'inits', `w${i}`);
      mkdirSync(dir, { recursive: true });
      statuses.push(await intoClosedPipes(['init'], dir));
      for (const f of ['MEMORY.md', 'DREAMS.md', 'CURRENT_STATE.md'])
        expect(existsSync(join(dir, 'memory', f)), `init run ${i}: memory/${f}`).toBe(true);
      expect(existsSync(join(dir, 'gitmem.config.json')), `init run ${i}`).toBe(true);
    });
    expect(statuses.filter((s) => s !== 0)).toEqual([]);
  });

  it('a write that fails still exits non-zero with its pipes closed', async () => {
    // The note exists, so a hash that says "none" is a conflict: nothing written, status 1.
    const before = readFileSync(join(ws, 'memory', '2024-03-01.md'), 'utf8');
    const status = await intoClosedPipes(['append', 'never written', '--date', '2024-03-01', '--expect-hash', 'none']);
    expect(status).toBe(1);
    expect(readFileSync(join(ws, 'memory', '2024-03-01.md'), 'utf8')).toBe(before);
  });
});
