// Bad input R57 (docs/bad-inputs.md): the merge driver (`gitmem merge-file %O %A %B`, run by `git
// merge` and `gitmem sync`) decoded the three versions of a memory file as UTF-8, so bytes that are
// not valid UTF-8 (a Latin-1 "é", 0xE9) came out of every merge as U+FFFD (EF BF BD). Now such a file
// is merged byte for byte, with the same bullet rules (MEMORY.md is merged by the driver; daily
// notes by git's union merge, which keeps bytes). REAL git merge, the built dist/cli.cjs as driver.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const NOTE = Buffer.concat([Buffer.from('# Memory\n\n- Met Ren'), Buffer.from([0xe9]), Buffer.from('\n')]);

function onBranch(dir: string, name: string, line: string): void {
  git(dir, 'switch', '-q', '-c', name, 'main');
  appendFileSync(join(dir, 'memory/MEMORY.md'), line);
  git(dir, 'commit', '-qam', name);
  git(dir, 'switch', '-q', 'main');
}

describe('merge driver on a file that is not valid UTF-8 (R57)', { timeout: 120_000 }, () => {
  it('both branches add a bullet: a clean merge that keeps the 0xE9 byte and both bullets', () => {
    const dir = join(tempDir('gitmem-merge-'), 'repo');
    dirs.push(dirname(dir));
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    const init = runCli(['init', '--merge-driver', '--dir', dir, '--json']);
    expect(init.code, init.stderr).toBe(0);
    writeFileSync(join(dir, 'memory/MEMORY.md'), NOTE);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'initial');
    onBranch(dir, 'a', '- Deploys run on Tuesdays.\n');
    onBranch(dir, 'b', '- The cache TTL is 300 s.\n');
    git(dir, 'merge', '-q', '--no-edit', 'a');
    const r = spawnSync('git', ['merge', '-q', '--no-edit', 'b'], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'T',
        GIT_AUTHOR_EMAIL: 't@x',
        GIT_COMMITTER_NAME: 'T',
        GIT_COMMITTER_EMAIL: 't@x',
      },
    });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    const merged = readFileSync(join(dir, 'memory/MEMORY.md'));
    expect(
      merged.equals(Buffer.concat([NOTE, Buffer.from('- Deploys run on Tuesdays.\n- The cache TTL is 300 s.\n')])),
    ).toBe(true);
  });
});
