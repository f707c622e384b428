// Bad input R81 (docs/bad-inputs.md): `gitmem log` in a shallow clone. REAL git: three commits, cloned
// with `--depth 2`. The oldest commit in the clone has its parent cut off; log compared it with an
// empty tree and reported it as adding every memory file, though it changed one line of one file.
// Now that commit is marked as the history cut (`historyCut: true`, no files; "history cut" in the
// text output), and after `git fetch --deepen` it shows what it really changed.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const ENV = {
  GIT_AUTHOR_NAME: 'Shallow Log',
  GIT_AUTHOR_EMAIL: 'shallow-log@example.com',
  GIT_COMMITTER_NAME: 'Shallow Log',
  GIT_COMMITTER_EMAIL: 'shallow-log@example.com',
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

interface Commit {
  summary: string;
  files: { path: string; change: string }[];
  historyCut?: boolean;
}

describe('gitmem log in a shallow clone', { timeout: 120_000 }, () => {
  it('marks the commit whose parent is cut off instead of reporting every file as added', () => {
    const base = tempDir('gitmem-shallow-log-');
    dirs.push(base);
    const full = join(base, 'full');
    mkdirSync(join(full, 'memory/entries'), { recursive: true });
    git(base, 'init', '-q', '-b', 'main', full);
    writeFileSync(join(full, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
    writeFileSync(join(full, 'memory/MEMORY.md'), '# Memory\n\n- first\n');
    for (const n of [1, 2, 3]) writeFileSync(join(full, `memory/entries/e${n}.md`), `# E${n}\n\nEntry ${n}.\n`);
    git(full, 'add', '-A');
    git(full, 'commit', '-qm', 'all memory');
    writeFileSync(join(full, 'memory/MEMORY.md'), '# Memory\n\n- first\n- second\n');
    git(full, 'commit', '-qam', 'second line');
    writeFileSync(join(full, 'memory/entries/e1.md'), '# E1\n\nEntry 1, revised.\n');
    git(full, 'commit', '-qam', 'revise e1');
    const shallow = join(base, 'shallow');
    git(base, 'clone', '-q', '--depth', '2', `file://${full}`, shallow);

    const r = runCli(['log', '--json', '--no-host', '--dir', shallow], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    const commits = r.json().commits as Commit[];
    expect(commits.map((c) => c.summary)).toEqual(['revise e1', 'second line']);
    expect(commits[0]!.files).toEqual([{ path: 'memory/entries/e1.md', change: 'modified' }]);
    expect(commits[1]!.historyCut).toBe(true);
    expect(commits[1]!.files).toEqual([]);
    const t = runCli(['log', '--no-host', '--dir', shallow], { env: ENV });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain('history cut');
    expect(t.stdout).not.toContain('+ memory/entries/e2.md');

    git(shallow, 'fetch', '-q', '--deepen=1');
    const d = runCli(['log', '--json', '--no-host', '--dir', shallow], { env: ENV });
    const after = d.json().commits as Commit[];
    expect(after[1]!.files).toEqual([{ path: 'memory/MEMORY.md', change: 'modified' }]);
    expect(after[1]!.historyCut).toBeUndefined();
  });
});
