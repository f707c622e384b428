// Test support: temp copies of fixtures and corpora, and running the built CLI as a real process.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expect } from 'vitest';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const CLI = join(REPO, 'dist', 'cli.cjs');

/** A fresh temp folder (realpath, so symlinked /tmp does not confuse path checks). */
export function tempDir(prefix = 'gitmem-test-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * A bare workspace: a fresh temp `root` holding `ws/` with the default config (`config` added to it)
 * and an empty `memory/<folder>` (entries unless told; '' for `memory/` alone); the test writes its
 * files into it and removes `root`.
 */
export function bareWorkspace(folder = 'entries', config: Record<string, unknown> = {}): { root: string; ws: string } {
  const root = tempDir();
  const ws = join(root, 'ws');
  mkdirSync(join(ws, 'memory', folder), { recursive: true });
  writeFileSync(join(ws, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'default', ...config }));
  return { root, ws };
}

/** Copy `fixtures/workspaces/<name>` into a temp folder; returns the copy's path. */
export function copyFixture(name: string): string {
  const dir = join(tempDir(), name);
  cpSync(join(REPO, 'fixtures', 'workspaces', name), dir, { recursive: true });
  return dir;
}

/** `copyFixture(name)` made a git repository, nothing committed. */
export function gitFixture(name: string): string {
  const root = copyFixture(name);
  git(root, 'init', '-q');
  return root;
}

/** `copyFixture(name)` made a git repository with everything committed as "initial memory". */
export function committedFixture(name: string): string {
  const root = gitFixture(name);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial memory');
  return root;
}

/** Write `text` to `root/rel`, making its folders. */
export function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** Copy any folder into a temp folder; returns the copy's path. */
export function copyDir(src: string, name = 'ws'): string {
  const dir = join(tempDir(), name);
  cpSync(src, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json: () => any;
}

/** Fails with the fix when dist/cli.cjs is missing: a test that runs the built CLI calls it first. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli.cjs is missing: run `npm run build` first (npm test does)');
}

/**
 * The env of a CLI run over a workspace copied into a temp folder: no model (a folder beside `root`
 * that does not exist, so no installed model is found) and no running host.
 */
export function noModelEnv(root: string): Record<string, string> {
  return { GITMEM_MODEL_DIR: join(dirname(root), 'no-model'), GITMEM_NO_HOST: '1' };
}

/** Run `node dist/cli.cjs …args` (built by `npm run build`, which `npm test` runs first). */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    encoding: 'utf8',
    input: options.input,
    timeout: 120_000,
  });
  if (r.error) throw r.error;
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout),
  };
}

/**
 * What a CLI run printed, once it is known to have exited 0 (else its stderr and stdout fail the
 * test): its JSON when stdout is a JSON object, else the text.
 */
export function okOutput(r: CliRun): any {
  expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
  return r.stdout.startsWith('{') ? r.json() : r.stdout;
}

/** Make `dir` a git repository on branch main with everything in it committed as `message`. */
export function initRepoOnMain(dir: string, message = 'initial'): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** Run git in `cwd` with a pinned identity; throws on failure. */
export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_AUTHOR_DATE: '2026-11-29T12:00:00Z',
      GIT_COMMITTER_DATE: '2026-11-29T12:00:00Z',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}
