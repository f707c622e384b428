// Bad input R33 (docs/bad-inputs.md): the merge driver registered with absolute Node and install
// paths. REAL git, the built CLI. `init --merge-driver` wrote `'<node>' '<dist/cli.cjs>' merge-file
// %O %A %B`; after a Node upgrade (that node gone) or a reinstall elsewhere (that dist/ gone) git
// could not start the driver and every merge of a memory file failed. The driver now runs gitmem from
// PATH when it is there, else the bundled script with the `node` on PATH; doctor says when it cannot
// run, names a driver an earlier version registered, and `doctor --fix` registers the portable form.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** PATH without any folder that holds a `gitmem` (the machine may have one installed), node's folder kept. */
function pathWithoutGitmem(): string {
  const kept = (process.env.PATH ?? '').split(delimiter).filter((d) => d && !existsSync(join(d, 'gitmem')));
  return [...kept, dirname(process.execPath)].join(delimiter);
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Ann',
  GIT_AUTHOR_EMAIL: 'ann@example.com',
  GIT_COMMITTER_NAME: 'Ann',
  GIT_COMMITTER_EMAIL: 'ann@example.com',
};

/** Run git with its own identity and `path` as PATH. @returns the run. */
function gitRun(cwd: string, path: string, ...args: string[]) {
  return spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...IDENTITY, PATH: path } });
}

function gitOk(cwd: string, ...args: string[]): string {
  const r = gitRun(cwd, pathWithoutGitmem(), ...args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** A repository with a gitmem workspace, `init --merge-driver` run by `node` on `script`; one commit on main. */
function workspace(node: string, script: string): { base: string; ws: string } {
  const base = tempDir('gitmem-portable-');
  dirs.push(base);
  const ws = join(base, 'ws');
  gitOk(base, 'init', '-q', '-b', 'main', ws);
  const r = spawnSync(node, [script, 'init', '--merge-driver', '--dir', ws], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', PATH: pathWithoutGitmem() },
  });
  expect(r.status, r.stderr).toBe(0);
  gitOk(ws, 'add', '-A');
  gitOk(ws, 'commit', '-qm', 'init');
  return { base, ws };
}

/** Both sides append a MEMORY.md bullet; git merges them under `path`. @returns the merge's status and MEMORY.md. */
function mergeBothSides(ws: string, path: string): { status: number | null; stderr: string; merged: string } {
  gitOk(ws, 'switch', '-q', '-c', 'other');
  appendFileSync(join(ws, 'memory/MEMORY.md'), '- Other side fact zqother\n');
  gitOk(ws, 'commit', '-qam', 'other');
  gitOk(ws, 'switch', '-q', 'main');
  appendFileSync(join(ws, 'memory/MEMORY.md'), '- Main side fact zqmain\n');
  gitOk(ws, 'commit', '-qam', 'main');
  const r = gitRun(ws, path, 'merge', '--no-edit', 'other');
  return { status: r.status, stderr: r.stderr, merged: gitOk(ws, 'show', 'HEAD:memory/MEMORY.md') };
}

/** A folder with a `gitmem` command that runs the built CLI (a global install found on PATH). */
function gitmemOnPath(base: string): string {
  const bin = join(base, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'gitmem'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(join(bin, 'gitmem'), 0o755);
  return bin;
}

describe('a merge driver that survives Node and gitmem moving', { timeout: 180_000 }, () => {
  it('after a Node upgrade (the node that registered it is gone) the driver still keeps both sides', () => {
    const holder = tempDir('gitmem-old-node-');
    dirs.push(holder);
    const oldNode = join(holder, 'node');
    try {
      linkSync(process.execPath, oldNode);
    } catch {
      copyFileSync(process.execPath, oldNode);
      chmodSync(oldNode, 0o755);
    }
    const { ws } = workspace(oldNode, CLI);
    rmSync(holder, { recursive: true, force: true });
    const { status, stderr, merged } = mergeBothSides(ws, pathWithoutGitmem());
    expect(status, stderr).toBe(0);
    expect(merged).toContain('zqmain');
    expect(merged).toContain('zqother');
  });

  it('after a reinstall elsewhere (the install that registered it is gone) it runs gitmem from PATH', () => {
    const holder = tempDir('gitmem-old-install-');
    dirs.push(holder);
    mkdirSync(join(holder, 'dist'));
    for (const f of ['cli.cjs', 'cli-bundle.cjs', 'cli-read.cjs', 'cli-host.cjs', 'cli-merge.cjs'])
      copyFileSync(join(dirname(CLI), f), join(holder, 'dist', f));
    const oldScript = join(holder, 'dist', 'cli.cjs');
    const { base, ws } = workspace(process.execPath, oldScript);
    rmSync(holder, { recursive: true, force: true });
    // Without gitmem on PATH and with the script gone nothing can run it: doctor says so.
    const stale = runCli(['doctor', '--dir', ws, '--json'], { env: { PATH: pathWithoutGitmem() } }).json();
    expect(stale.merges.driver.stale).toBe(`gitmem is not on PATH and ${oldScript} is missing`);
    const path = [gitmemOnPath(base), pathWithoutGitmem()].join(delimiter);
    const ok = runCli(['doctor', '--dir', ws, '--json'], { env: { PATH: path } }).json();
    expect(ok.merges.driver.registered).toBe(true);
    expect(ok.merges.driver.stale).toBeUndefined();
    const { status, stderr, merged } = mergeBothSides(ws, path);
    expect(status, stderr).toBe(0);
    expect(merged).toContain('zqmain');
    expect(merged).toContain('zqother');
  });

  it('a driver an earlier version registered still merges; doctor names it and --fix registers the portable form', () => {
    const { ws } = workspace(process.execPath, CLI);
    const earlier = `'${process.execPath}' '${CLI}' merge-file %O %A %B`;
    gitOk(ws, 'config', '--local', 'merge.gitmem.driver', earlier);
    const env = { PATH: pathWithoutGitmem() };
    const text = runCli(['doctor', '--dir', ws], { env });
    expect(text.stdout).toContain('driver registered with absolute paths');
    expect(text.stdout).toMatch(/absolute paths .* — gitmem doctor --fix/);
    const json = runCli(['doctor', '--dir', ws, '--json'], { env }).json();
    expect(json.merges.driver.stale).toBeUndefined();
    expect(json.merges.driver.outdated).toContain(process.execPath);
    const { status, stderr, merged } = mergeBothSides(ws, pathWithoutGitmem());
    expect(status, stderr).toBe(0);
    expect(merged).toContain('zqmain');
    expect(merged).toContain('zqother');
    const fixed = runCli(['doctor', '--fix', '--dir', ws, '--json'], { env }).json();
    expect(fixed.merges.fixed.driverRegistered).toMatch(/^if command -v gitmem /);
    expect(fixed.merges.driver.outdated).toBeUndefined();
    expect(gitOk(ws, 'config', '--get', 'merge.gitmem.driver')).not.toContain(process.execPath);
  });
});
