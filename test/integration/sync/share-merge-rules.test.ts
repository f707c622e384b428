// Bad input U02 (docs/bad-inputs.md): merge rules that never leave the first clone. REAL git: a bare
// remote and two clones. Plain `gitmem init` + `gitmem sync` commits the `.gitattributes` block init
// wrote, so a fresh clone merges concurrent daily-note appends without `doctor --fix`; an edit of the
// user's own in `.gitattributes` (or any other unreviewed file) is never swept into the sync commit.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, runCli, tempDir, okOutput } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function clone(base: string, remote: string, name: string, who: string): string {
  const dir = join(base, name);
  git(base, 'clone', '-q', remote, dir);
  git(dir, 'config', 'user.name', who);
  git(dir, 'config', 'user.email', `${who.toLowerCase()}@example.com`);
  return dir;
}

describe('init + sync share the merge rules', { timeout: 240_000 }, () => {
  it('a second clone gets .gitattributes from the remote and merges both daily-note appends', () => {
    const base = tempDir('gitmem-share-');
    dirs.push(base);
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);
    const a = clone(base, remote, 'a', 'Ann');
    okOutput(runCli(['init', '--dir', a]));
    okOutput(runCli(['remember', 'Billing cron runs at 02:00 zqcronx', '--dir', a]));
    const first = okOutput(runCli(['sync', '--json', '--dir', a]));
    expect(first.pushed).toBe(true);
    // The block and the config init wrote are in the commit (U07), and init's empty .gitkeep files (U30).
    const committed = git(a, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean);
    expect(committed).toContain('.gitattributes');
    expect(committed).toContain('gitmem.config.json');
    expect(
      committed.every((p) => p === '.gitattributes' || p === 'gitmem.config.json' || p.startsWith('memory/')),
    ).toBe(true);
    expect(committed.filter((p) => p.endsWith('.gitkeep')).sort()).toEqual([
      'memory/entries/.gitkeep',
      'memory/playbook/.gitkeep',
    ]);

    const b = clone(base, remote, 'b', 'Ben');
    expect(JSON.parse(readFileSync(join(b, 'gitmem.config.json'), 'utf8')).layout).toBe('default');
    const doctor = okOutput(runCli(['doctor', '--json', '--dir', b]));
    expect(doctor.merges.attributes).toBe(true);
    okOutput(runCli(['append', 'ben was here', '--date', '2026-11-20', '--dir', b]));
    okOutput(runCli(['append', 'ann was here', '--date', '2026-11-20', '--dir', a]));
    okOutput(runCli(['sync', '--dir', a]));
    okOutput(runCli(['sync', '--dir', b]));
    const note = readFileSync(join(b, 'memory/2026-11-20.md'), 'utf8');
    expect(note).toContain('ben was here');
    expect(note).toContain('ann was here');
  });

  it("the user's own .gitattributes lines and other files are not swept into a sync commit", () => {
    const base = tempDir('gitmem-share-');
    dirs.push(base);
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);
    const a = clone(base, remote, 'a', 'Ann');
    // The user had a .gitattributes of their own, committed; init adds gitmem's block under it.
    writeFileSync(join(a, '.gitattributes'), '*.png binary\n');
    git(a, 'add', '.gitattributes');
    git(a, 'commit', '-qm', 'attributes');
    okOutput(runCli(['init', '--dir', a]));
    okOutput(runCli(['sync', '--dir', a]));
    expect(git(a, 'show', 'HEAD:.gitattributes')).toContain('# >>> gitmem merge rules');
    expect(git(a, 'show', 'HEAD:.gitattributes').startsWith('*.png binary\n')).toBe(true);
    // Now an unreviewed edit of the user's in the same file, plus a code file: neither is committed.
    appendFileSync(join(a, '.gitattributes'), '*.jpg binary\n');
    mkdirSync(join(a, 'src'));
    writeFileSync(join(a, 'src/app.js'), 'export const v = 1;\n');
    okOutput(runCli(['remember', 'Cache TTL is 60 s zqttlx', '--dir', a]));
    okOutput(runCli(['sync', '--dir', a]));
    const committed = git(a, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean);
    expect(committed).toEqual([expect.stringMatching(/^memory\/entries\/.*cache-ttl.*\.md$/)]);
    const status = git(a, 'status', '--porcelain');
    expect(status).toMatch(/^ M \.gitattributes$/m);
    expect(status).toMatch(/^\?\? src\/$/m);
  });

  it("a config the user wrote or edited is left for review; init's own config is shared (U07)", () => {
    const base = tempDir('gitmem-share-');
    dirs.push(base);
    const remote = join(base, 'remote.git');
    git(base, 'init', '-q', '--bare', '-b', 'main', remote);
    const a = clone(base, remote, 'a', 'Ann');
    // A config of the user's own (not what init writes): never swept into a sync commit.
    writeFileSync(join(a, 'gitmem.config.json'), '{ "version": 1, "layout": "default", "recall": { "limit": 5 } }\n');
    okOutput(runCli(['init', '--dir', a]));
    okOutput(runCli(['remember', 'Queue depth alarm at 500 zqdepthx', '--dir', a]));
    okOutput(runCli(['sync', '--dir', a]));
    let committed = git(a, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean);
    expect(committed).not.toContain('gitmem.config.json');
    expect(git(a, 'status', '--porcelain')).toMatch(/^\?\? gitmem\.config\.json$/m);
    // Once committed by the user, a later edit of theirs stays unstaged too.
    git(a, 'add', 'gitmem.config.json');
    git(a, 'commit', '-qm', 'config');
    writeFileSync(join(a, 'gitmem.config.json'), '{ "version": 1, "layout": "default" }\n');
    okOutput(runCli(['remember', 'Retry budget is 3 zqbudgetx', '--dir', a]));
    okOutput(runCli(['sync', '--dir', a]));
    committed = git(a, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean);
    expect(committed).not.toContain('gitmem.config.json');
    expect(git(a, 'status', '--porcelain')).toMatch(/^ M gitmem\.config\.json$/m);
  });
});
