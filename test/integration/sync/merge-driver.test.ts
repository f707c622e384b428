// Bad inputs G01, G02 (docs/bad-inputs.md). Merge-friendly memory files with REAL git merges: `init --merge-driver` / `doctor --fix` write the
// .gitattributes rules and register `gitmem merge-file` (the built dist/cli.cjs) as the driver; two
// branches that each add bullets, daily-note lines, playbook supporting ids or working-state
// decisions merge cleanly, and the same bullet edited two ways is a conflict with markers.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { git, runCli, tempDir, write } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const read = (root: string, rel: string) => readFileSync(join(root, rel), 'utf8');

/** A repository with a gitmem workspace, the merge rules and the driver, one commit on main. */
function makeRepo(): string {
  const dir = join(tempDir('gitmem-merge-'), 'repo');
  dirs.push(dirname(dir));
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  const r = runCli(['init', '--merge-driver', '--dir', dir, '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.json().merges.driverRegistered).toMatch(/merge-file %O %A %B; fi$/);
  write(dir, 'memory/2026-11-30.md', '# 2026-11-30\n\n- 09:00 started\n');
  write(
    dir,
    'memory/playbook/retry.md',
    '---\nid: pb-retry\ncategory: patterns\nactive: true\nsupporting:\n  - m-1\n---\nRetry webhooks with backoff.\n',
  );
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'initial');
  return dir;
}

/** Run `fn` on a new branch `name` from main, commit, and go back to main. */
function onBranch(dir: string, name: string, fn: () => void): void {
  git(dir, 'switch', '-q', '-c', name, 'main');
  fn();
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', name);
  git(dir, 'switch', '-q', 'main');
}

function gitMerge(dir: string, branch: string): { code: number; out: string } {
  const r = spawnSync('git', ['merge', '--no-edit', '-q', branch], {
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
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

const addBullet = (dir: string, bullet: string) => {
  const p = 'memory/MEMORY.md';
  write(
    dir,
    p,
    read(dir, p)
      .replace('## Decisions\n', `## Decisions\n\n- ${bullet}\n`)
      .replace(/\n\n\n/g, '\n\n'),
  );
};

describe('merge rules written by init and doctor --fix', { timeout: 180_000 }, () => {
  it('init writes union rules for daily notes and logs and the gitmem driver for the rest', () => {
    const dir = makeRepo();
    const attrs = read(dir, '.gitattributes');
    expect(attrs).toContain('memory/**/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*.md merge=union');
    expect(attrs).toContain('memory/**/*.jsonl merge=union');
    expect(attrs).toContain('memory/MEMORY.md merge=gitmem');
    expect(attrs).toContain('memory/entries/**/*.md merge=gitmem');
    // git agrees about which rule applies, entries named by date included.
    expect(
      git(dir, 'check-attr', 'merge', 'memory/2026-11-30.md', 'memory/entries/2026-11-30-x.md', 'memory/MEMORY.md'),
    ).toBe(
      'memory/2026-11-30.md: merge: union\nmemory/entries/2026-11-30-x.md: merge: gitmem\nmemory/MEMORY.md: merge: gitmem\n',
    );
  });

  it("doctor --fix adds the block to an existing .gitattributes, keeps the user's lines, and is idempotent", () => {
    const dir = join(tempDir('gitmem-merge-'), 'repo');
    dirs.push(dirname(dir));
    mkdirSync(join(dir, 'memory'), { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    write(dir, 'memory/MEMORY.md', '# Memory\n');
    write(dir, '.gitattributes', '*.png binary\n');
    const before = runCli(['doctor', '--dir', dir, '--json']).json();
    expect(before.merges.attributes).toBe(false);
    expect(before.merges.driver.registered).toBe(false);
    const fixed = runCli(['doctor', '--fix', '--dir', dir, '--json']).json();
    expect(fixed.merges.fixed.attributesWritten).toBe(true);
    expect(fixed.merges.attributes).toBe(true);
    expect(fixed.merges.driver.registered).toBe(true);
    expect(read(dir, '.gitattributes').startsWith('*.png binary\n\n# >>> gitmem merge rules')).toBe(true);
    const again = runCli(['doctor', '--fix', '--dir', dir, '--json']).json();
    expect(again.merges.fixed).toEqual({ attributesWritten: false, driverRegistered: null });
    // A driver whose script is gone (gitmem moved or removed) is stale, not "registered"; --fix replaces it.
    const gone = join(dirname(dir), 'gone', 'cli.js');
    git(dir, 'config', '--local', 'merge.gitmem.driver', `'${process.execPath}' '${gone}' merge-file %O %A %B`);
    const stale = runCli(['doctor', '--dir', dir]);
    expect(stale.stdout).toContain(`driver registered but stale (${gone} is missing)`);
    expect(stale.stdout).toMatch(/stale \(.*\) — gitmem doctor --fix/);
    const refixed = runCli(['doctor', '--fix', '--dir', dir, '--json']).json();
    expect(refixed.merges.fixed.driverRegistered).toMatch(/merge-file %O %A %B; fi$/);
    expect(refixed.merges.driver.stale).toBeUndefined();
  });
});

describe('git merge with the gitmem driver', { timeout: 180_000 }, () => {
  it("keeps both branches' new MEMORY.md bullets once each", () => {
    const dir = makeRepo();
    onBranch(dir, 'a', () => addBullet(dir, 'Use PostgreSQL for shipments'));
    onBranch(dir, 'b', () => {
      addBullet(dir, 'Jobs run on BullMQ');
      addBullet(dir, 'Use PostgreSQL for shipments'); // the same fact learned on both sides
    });
    expect(gitMerge(dir, 'a').code).toBe(0);
    const m = gitMerge(dir, 'b');
    expect(m.code, m.out).toBe(0);
    const text = read(dir, 'memory/MEMORY.md');
    expect(text.match(/Use PostgreSQL for shipments/g)).toHaveLength(1);
    expect(text).toContain('- Jobs run on BullMQ');
    expect(text).not.toMatch(/<<<<<<<|>>>>>>>/);
    const v = runCli(['validate', '--dir', dir]);
    expect(v.code, v.stdout).toBe(0);
  });

  it('reports the same bullet edited two ways as a conflict with markers and a non-zero exit', () => {
    const dir = makeRepo();
    onBranch(dir, 'base', () => addBullet(dir, 'Retries: 3'));
    gitMerge(dir, 'base');
    onBranch(dir, 'a', () =>
      write(dir, 'memory/MEMORY.md', read(dir, 'memory/MEMORY.md').replace('- Retries: 3', '- Retries: 5')),
    );
    onBranch(dir, 'b', () =>
      write(dir, 'memory/MEMORY.md', read(dir, 'memory/MEMORY.md').replace('- Retries: 3', '- Retries: 10')),
    );
    expect(gitMerge(dir, 'a').code).toBe(0);
    const m = gitMerge(dir, 'b');
    expect(m.code).not.toBe(0);
    expect(git(dir, 'diff', '--name-only', '--diff-filter=U')).toBe('memory/MEMORY.md\n');
    const text = read(dir, 'memory/MEMORY.md');
    expect(text).toMatch(/<<<<<<< ours\n- Retries: 5\n=======\n- Retries: 10\n>>>>>>> theirs/);
    git(dir, 'merge', '--abort');
    expect(read(dir, 'memory/MEMORY.md')).toContain('- Retries: 5');
  });

  it('union-merges a daily note both branches appended to, and one both created', () => {
    const dir = makeRepo();
    onBranch(dir, 'a', () => {
      write(dir, 'memory/2026-11-30.md', `${read(dir, 'memory/2026-11-30.md')}- 10:00 from a\n`);
      write(dir, 'memory/2026-12-01.md', '# 2026-12-01\n\n- 08:00 new day on a\n');
    });
    onBranch(dir, 'b', () => {
      write(dir, 'memory/2026-11-30.md', `${read(dir, 'memory/2026-11-30.md')}- 10:01 from b\n`);
      write(dir, 'memory/2026-12-01.md', '# 2026-12-01\n\n- 08:05 new day on b\n');
    });
    gitMerge(dir, 'a');
    const m = gitMerge(dir, 'b');
    expect(m.code, m.out).toBe(0);
    expect(read(dir, 'memory/2026-11-30.md')).toBe('# 2026-11-30\n\n- 09:00 started\n- 10:00 from a\n- 10:01 from b\n');
    expect(read(dir, 'memory/2026-12-01.md')).toBe('# 2026-12-01\n\n- 08:00 new day on a\n- 08:05 new day on b\n');
  });

  it('merges playbook front-matter by key: supporting ids from both sides, a one-sided active change', () => {
    const dir = makeRepo();
    const p = 'memory/playbook/retry.md';
    onBranch(dir, 'a', () => write(dir, p, read(dir, p).replace('  - m-1\n', '  - m-1\n  - m-2\n')));
    onBranch(dir, 'b', () =>
      write(dir, p, read(dir, p).replace('  - m-1\n', '  - m-1\n  - m-3\n').replace('active: true', 'active: false')),
    );
    gitMerge(dir, 'a');
    const m = gitMerge(dir, 'b');
    expect(m.code, m.out).toBe(0);
    expect(read(dir, p)).toBe(
      '---\nid: pb-retry\ncategory: patterns\nactive: false\nsupporting:\n  - m-1\n  - m-2\n  - m-3\n---\nRetry webhooks with backoff.\n',
    );
  });

  it('merges working-state decisions set on two branches; the last-updated stamp takes the latest time', () => {
    const dir = makeRepo();
    const set = (text: string) => {
      const r = runCli(['state', 'set', '--decision', text, '--dir', dir]);
      expect(r.code, r.stderr).toBe(0);
    };
    onBranch(dir, 'a', () => set('queue retries in redis'));
    onBranch(dir, 'b', () => set('keep webhooks idempotent'));
    const stamps = ['a', 'b'].map(
      (b) => /> Last updated: (.*)/.exec(git(dir, 'show', `${b}:memory/CURRENT_STATE.md`))![1]!,
    );
    gitMerge(dir, 'a');
    const m = gitMerge(dir, 'b');
    expect(m.code, m.out).toBe(0);
    const text = read(dir, 'memory/CURRENT_STATE.md');
    expect(text).toContain('- queue retries in redis');
    expect(text).toContain('- keep webhooks idempotent');
    expect(text).toContain(`> Last updated: ${stamps.sort().at(-1)}`);
    expect(runCli(['state', 'validate', '--dir', dir]).code).toBe(0);
  });

  it('merge-file run by hand exits 1 and writes markers into %A on a true conflict', () => {
    const d = tempDir('gitmem-mf-');
    dirs.push(d);
    write(d, 'O', '# M\n\n- x\n');
    write(d, 'A', '# M\n\n- x one\n');
    write(d, 'B', '# M\n\n- x two\n');
    const r = runCli(['merge-file', join(d, 'O'), join(d, 'A'), join(d, 'B')]);
    expect(r.code).toBe(1);
    expect(read(d, 'A')).toBe('# M\n\n<<<<<<< ours\n- x one\n=======\n- x two\n>>>>>>> theirs\n');
    write(d, 'B', '# M\n\n- x\n- y\n');
    write(d, 'A', '# M\n\n- x\n- z\n');
    expect(runCli(['merge-file', join(d, 'O'), join(d, 'A'), join(d, 'B')]).code).toBe(0);
    expect(read(d, 'A')).toBe('# M\n\n- x\n- z\n- y\n');
  });
});
