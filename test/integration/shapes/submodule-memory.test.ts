// Bad input R82 (docs/bad-inputs.md): the memory folder is a git submodule. REAL git: a superproject
// with `git submodule add <memory repo> memory`. `gitmem remember` wrote a new entry into memory/entries/
// (inside the submodule); `gitmem checkpoint` in the superproject printed "Nothing to commit: memory
// matches HEAD" and exited 0, and `gitmem sync` said "Memory synced": the entry was in neither
// repository's history. Now checkpoint and sync refuse (git.nested-repository), naming the folder and
// the file; nothing is committed, the entry stays on disk. With nothing changed inside, they work.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const ENV = {
  GIT_AUTHOR_NAME: 'Sub Module',
  GIT_AUTHOR_EMAIL: 'submodule@example.com',
  GIT_COMMITTER_NAME: 'Sub Module',
  GIT_COMMITTER_EMAIL: 'submodule@example.com',
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

/** A superproject whose memory/ is a submodule (MEMORY.md, entries/e.md), and a bare remote for it. */
function superWithMemorySubmodule(): string {
  const base = tempDir('gitmem-submodule-');
  dirs.push(base);
  const mem = join(base, 'mem');
  mkdirSync(join(mem, 'entries'), { recursive: true });
  git(base, 'init', '-q', '-b', 'main', mem);
  writeFileSync(join(mem, 'MEMORY.md'), '# Memory\n\n- the API listens on port 8080\n');
  writeFileSync(join(mem, 'entries/e.md'), '# Ports\n\nThe API listens on port 8080.\n');
  git(mem, 'add', '-A');
  git(mem, 'commit', '-qm', 'memory');
  const sup = join(base, 'super');
  git(base, 'init', '-q', '-b', 'main', sup);
  writeFileSync(join(sup, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
  git(sup, 'add', '-A');
  git(sup, 'commit', '-qm', 'base');
  git(sup, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', mem, 'memory');
  git(sup, 'commit', '-qm', 'memory as a submodule');
  const remote = join(base, 'super.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  git(sup, 'remote', 'add', 'origin', remote);
  git(sup, 'push', '-q', '-u', 'origin', 'main');
  return sup;
}

describe('memory in a git submodule', { timeout: 120_000 }, () => {
  it('checkpoint and sync refuse to report success for an entry written inside the submodule', () => {
    const sup = superWithMemorySubmodule();
    const before = git(sup, 'rev-parse', 'HEAD').trim();
    const w = runCli(['remember', '--no-host', '--json', '--dir', sup, 'Timeouts are 30 seconds'], { env: ENV });
    expect(w.code, w.stderr).toBe(0);
    const path = w.json().path as string;
    expect(path.startsWith('memory/entries/')).toBe(true);
    for (const cmd of ['checkpoint', 'sync']) {
      const r = runCli([cmd, '--no-host', '--json', '--dir', sup], { env: ENV });
      expect(r.code, `${cmd}: ${r.stdout}`).not.toBe(0);
      const e = r.json().error;
      expect(e.code).toBe('git.nested-repository');
      expect(e.message).toContain('memory');
      expect(e.message).toContain(path);
    }
    expect(git(sup, 'rev-parse', 'HEAD').trim()).toBe(before);
    expect(existsSync(join(sup, path))).toBe(true);
  });

  it('with nothing changed inside the submodule, checkpoint says there is nothing to commit', () => {
    const sup = superWithMemorySubmodule();
    const r = runCli(['checkpoint', '--no-host', '--json', '--dir', sup], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
  });
});
