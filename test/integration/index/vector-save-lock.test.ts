// Bad input B40 (docs/bad-inputs.md): vector saves take the index folder's writer lock, the one the
// keyword index takes (engine/live/live-index-writer.ts). Real processes: a `gitmem watch` holding the
// lock and a one-shot `gitmem index` that embeds what the watcher has not; two one-shot `index`
// runs at once. The shipped model, a real git repository.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, copyFixture, git, runCli, tempDir, requireBuiltCli } from '../../support/fixtures.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** A fresh demo repository whose recalls and watcher start embed nothing inline (`gitmem index` does). */
function setup(): { root: string; env: Record<string, string>; indexDir: string } {
  requireBuiltCli();
  const root = copyFixture('demo');
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', recall: { inlineEmbedLimit: 0 } }),
  );
  git(root, 'init', '-q');
  const indexDir = join(tempDir(), 'index');
  cleanup.push(() => {
    rmSync(dirname(root), { recursive: true, force: true });
    rmSync(dirname(indexDir), { recursive: true, force: true });
  });
  return { root, indexDir, env: { GITMEM_INDEX_DIR: indexDir, NO_COLOR: '1' } };
}

/** Start the CLI as a child process; resolves once `ready` appears in its output. */
function start(
  args: string[],
  env: Record<string, string>,
  ready?: RegExp,
): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let text = '';
  cleanup.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      text += d.toString();
      if (ready?.test(text)) resolve({ child, out: () => text });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) =>
      ready ? reject(new Error(`exited ${code} before ready:\n${text}`)) : resolve({ child, out: () => text }),
    );
  });
}

const exited = (c: ChildProcess) =>
  new Promise<number | null>((resolve) => (c.exitCode !== null ? resolve(c.exitCode) : c.on('exit', resolve)));

describe('vector saves take the index writer lock (B40)', () => {
  it('a one-shot index while gitmem watch holds the lock leaves the vector files alone and says so', async () => {
    const { root, indexDir, env } = setup();
    // The watcher runs without the model (an empty model folder), so it holds the writer lock but
    // never embeds in the background (a watch session catches up vectors an earlier run left
    // behind): the vector files can then only come from the one-shot run under test.
    const noModel = join(dirname(indexDir), 'no-model');
    const watch = await start(['watch', '--dir', root], { ...env, GITMEM_MODEL_DIR: noModel }, /press Ctrl-C to stop/);
    expect(JSON.parse(readFileSync(join(indexDir, 'write.lock'), 'utf8'))).toMatchObject({ pid: watch.child.pid });
    expect(existsSync(join(indexDir, 'vectors-manifest.json'))).toBe(false);

    const r = runCli(['index', '--dir', root], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/21 new/);
    expect(r.stderr).toMatch(/gitmem: warning: vectors not saved: another gitmem process writes the index/);
    expect(existsSync(join(indexDir, 'vectors-manifest.json'))).toBe(false);

    watch.child.kill('SIGINT');
    expect(await exited(watch.child)).toBe(0);
    const alone = runCli(['index', '--dir', root], { env });
    expect(alone.stderr).not.toMatch(/vectors not saved/);
    expect(statSync(join(indexDir, 'vectors-manifest.json')).isFile()).toBe(true);
    expect(runCli(['index', '--dir', root], { env }).stdout).toMatch(/21 embedded chunks \(0 new\)/);
  });

  it('two one-shot index runs at once leave one whole vector set that the next run loads', async () => {
    const { root, env } = setup();
    const [a, b] = await Promise.all([start(['index', '--dir', root], env), start(['index', '--dir', root], env)]);
    expect(await exited(a.child)).toBe(0);
    expect(await exited(b.child)).toBe(0);
    const next = runCli(['index', '--dir', root], { env });
    expect(next.stderr).not.toMatch(/unreadable|corrupt/);
    expect(next.stdout).toMatch(/21 embedded chunks \(0 new\)/);
    const recall = runCli(['recall', 'webhook', '--mode', 'vector', '--json', '--dir', root], { env });
    expect(recall.json()).toMatchObject({ mode: 'vector', degraded: null });
  });
});
