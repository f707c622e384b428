// Bad inputs R03 and R04 (docs/bad-inputs.md): folders that are not gitmem workspaces. A folder outside
// any git work tree with no gitmem marker was opened as a `plain` workspace: run from the system temp
// folder, recall read every markdown file below it and wrote the derived state there. Now `recall`,
// `index` and `doctor` say "not a gitmem workspace (… run `gitmem init`)" as `hook prompt` does, and
// write nothing; the home folder and `/` are refused even with --dir or inside a git work tree until
// `gitmem init` sets them up. A bare repository is named as one ("bare repository, no work tree").
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((p) => relative(dir, join(dir, String(p))))
    .sort();
}

/** A folder of other programs' markdown: no git, no gitmem marker. */
function strangersFolder(): string {
  const base = tempDir('gitmem-nows-');
  dirs.push(base);
  const dir = join(base, 'tmp');
  mkdirSync(join(dir, 'some-tool/cache'), { recursive: true });
  writeFileSync(join(dir, 'some-tool/cache/readme.md'), '# Cache\n\nwebhook retries of some other program\n');
  writeFileSync(join(dir, 'notes.md'), '# Notes\n\nwebhook retries\n');
  return dir;
}

const ENV = {
  GIT_AUTHOR_NAME: 'W',
  GIT_AUTHOR_EMAIL: 'w@example.com',
  GIT_COMMITTER_NAME: 'W',
  GIT_COMMITTER_EMAIL: 'w@example.com',
};

describe('folders that are not gitmem workspaces', { timeout: 120_000 }, () => {
  it('recall, index and doctor refuse a folder outside git with no marker, as hook prompt does, and write nothing', () => {
    const dir = strangersFolder();
    const before = tree(dir);
    const hook = runCli(['hook', 'prompt', '--prompt', 'webhook retries'], { cwd: dir });
    expect(hook.code).toBe(0);
    const said = /note: no memories recalled for the prompt: (.*)/.exec(hook.stderr)![1]!;
    expect(said).toContain(`${dir} is not a gitmem workspace (`);
    for (const args of [['recall', 'webhook retries'], ['index'], ['doctor']]) {
      const fromInside = runCli([...args, '--json'], { cwd: dir });
      expect(fromInside.code, args.join(' ')).toBe(1);
      const e = fromInside.json().error;
      expect(e.code).toBe('workspace.not-a-workspace');
      expect(e.message).toBe(said);
      const named = runCli([...args, '--json', '--dir', dir], { env: ENV });
      expect(named.json().error.code).toBe('workspace.not-a-workspace');
    }
    expect(tree(dir)).toEqual(before);
    // `gitmem init` makes it one.
    expect(runCli(['init', '--dir', dir]).code).toBe(0);
    expect(runCli(['recall', 'webhook', '--json', '--dir', dir]).code).toBe(0);
  });

  it('the home folder is refused even with --dir and inside a git work tree, until gitmem init runs there', () => {
    const base = tempDir('gitmem-homews-');
    dirs.push(base);
    const home = join(base, 'home');
    mkdirSync(join(home, 'memory'), { recursive: true });
    writeFileSync(join(home, 'memory/MEMORY.md'), '# Memory\n\n- a dotfile fact\n');
    git(home, 'init', '-q');
    const env = { HOME: home, ...ENV };
    const before = tree(home);
    const r = runCli(['recall', 'dotfile', '--json', '--dir', home], { env });
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('workspace.not-a-workspace');
    expect(r.json().error.message).toContain('is the home folder and not a gitmem workspace');
    const inside = runCli(['index', '--json'], { env, cwd: home });
    expect(inside.json().error.code).toBe('workspace.not-a-workspace');
    expect(tree(home)).toEqual(before);
    expect(runCli(['init', '--dir', home], { env }).code).toBe(0);
    expect(runCli(['recall', 'dotfile', '--json', '--dir', home], { env }).code).toBe(0);
  });

  it('/ is refused with --dir before anything is read', () => {
    const r = runCli(['doctor', '--json', '--dir', '/']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('workspace.not-a-workspace');
    expect(r.json().error.message).toContain('/ is the file system root');
  });

  it('a bare repository is "bare repository, no work tree" and gets no .gitmem', () => {
    const base = tempDir('gitmem-bare-');
    dirs.push(base);
    const bare = join(base, 'r.git');
    git(base, 'init', '-q', '--bare', bare);
    const before = tree(bare);
    for (const args of [['recall', 'anything'], ['index'], ['doctor'], ['remember', 'a fact']]) {
      for (const where of [{ cwd: bare }, { cwd: base, dir: bare }, { cwd: join(bare, 'refs') }]) {
        const r = runCli([...args, '--json', ...(where.dir ? ['--dir', where.dir] : [])], { cwd: where.cwd, env: ENV });
        expect(r.code, `${args[0]} in ${where.cwd}`).toBe(1);
        expect(r.json().error.code).toBe('git.bare-repository');
        expect(r.json().error.message).toBe(`${bare} is a bare repository, no work tree`);
      }
    }
    expect(tree(bare)).toEqual(before);
  });
});
