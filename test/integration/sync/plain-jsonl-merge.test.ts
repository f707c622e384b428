// Bad input U31 (docs/bad-inputs.md): in the plain layout (a code repository whose memory is its
// CLAUDE.md and other markdown) `gitmem doctor --fix` and `init` wrote `/**/*.jsonl merge=union`, so
// every JSONL file of the repository, data and test fixtures as much as logs, was merged by keeping
// both sides' lines: a record edited two ways merged "cleanly" into two records. The rule is now
// written only under a memory folder. U32: the same for the repository's dated markdown (a blog post
// `_posts/2024-01-05-hello.md`), which the daily rule `/**/<date>*.md` put under union merges; only root
// daily notes (where `append` writes) are union-merged without a memory folder. Real CLI, the system
// git, two branches and a real merge.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';

/** The plain layout, chosen: detection picks it only for notes, not for a project's own markdown (R50). */
const PLAIN = JSON.stringify({ version: 1, layout: 'plain' });

describe("plain layout: no union merge for the repository's JSONL files (U31)", { timeout: 90_000 }, () => {
  it('a record edited on two branches is a conflict, not two records', () => {
    const dir = join(tempDir(), 'repo');
    mkdirSync(join(dir, 'data'), { recursive: true });
    git(tempDir(), 'init', '-q', '-b', 'main', dir);
    writeFileSync(join(dir, 'CLAUDE.md'), '# Project notes\n\n- Run the tests with npm test.\n');
    writeFileSync(join(dir, 'gitmem.config.json'), PLAIN); // a project repository is default unless told (R50)
    writeFileSync(join(dir, 'data', 'prices.jsonl'), '{"sku":"a","price":10}\n{"sku":"b","price":20}\n');
    const fix = runCli(['doctor', '--fix', '--dir', dir, '--json'], { env: { GITMEM_NO_HOST: '1' } });
    expect(fix.code, fix.stderr).toBeLessThanOrEqual(1);
    const attrs = readFileSync(join(dir, '.gitattributes'), 'utf8');
    expect(attrs).toContain('merge=gitmem');
    expect(attrs).not.toMatch(/jsonl/);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
    git(dir, 'checkout', '-q', '-b', 'other');
    writeFileSync(join(dir, 'data', 'prices.jsonl'), '{"sku":"a","price":11}\n{"sku":"b","price":20}\n');
    git(dir, 'commit', '-q', '-am', 'a costs 11');
    git(dir, 'checkout', '-q', 'main');
    writeFileSync(join(dir, 'data', 'prices.jsonl'), '{"sku":"a","price":12}\n{"sku":"b","price":20}\n');
    git(dir, 'commit', '-q', '-am', 'a costs 12');
    const merge = spawnSync('git', ['merge', '-q', '--no-edit', 'other'], { cwd: dir, encoding: 'utf8' });
    expect(merge.status).not.toBe(0);
    expect(git(dir, 'diff', '--name-only', '--diff-filter=U').trim()).toBe('data/prices.jsonl');
  });
});

describe('plain layout: dated markdown outside the root is not union-merged (U32)', { timeout: 90_000 }, () => {
  it('a blog post edited on two branches is a conflict; a root daily note still merges as a union', () => {
    const dir = join(tempDir(), 'site');
    mkdirSync(join(dir, '_posts'), { recursive: true });
    git(tempDir(), 'init', '-q', '-b', 'main', dir);
    writeFileSync(join(dir, 'CLAUDE.md'), '# Site notes\n\n- Build with jekyll build.\n');
    writeFileSync(join(dir, 'gitmem.config.json'), PLAIN);
    const post = join(dir, '_posts', '2024-01-05-hello.md');
    writeFileSync(post, '# Hello\n\nThe plan costs 10 dollars.\n');
    const fix = runCli(['doctor', '--fix', '--dir', dir, '--json'], { env: { GITMEM_NO_HOST: '1' } });
    expect(fix.code, fix.stderr).toBeLessThanOrEqual(1);
    expect(readFileSync(join(dir, '.gitattributes'), 'utf8')).toContain('merge=union');
    expect(git(dir, 'check-attr', 'merge', '2026-12-02.md').trim()).toBe('2026-12-02.md: merge: union');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
    git(dir, 'checkout', '-q', '-b', 'other');
    writeFileSync(post, '# Hello\n\nThe plan costs 11 dollars.\n');
    git(dir, 'commit', '-q', '-am', 'post says 11');
    git(dir, 'checkout', '-q', 'main');
    writeFileSync(post, '# Hello\n\nThe plan costs 12 dollars.\n');
    git(dir, 'commit', '-q', '-am', 'post says 12');
    const merge = spawnSync('git', ['merge', '-q', '--no-edit', 'other'], { cwd: dir, encoding: 'utf8' });
    expect(merge.status).not.toBe(0);
    expect(git(dir, 'diff', '--name-only', '--diff-filter=U').trim()).toBe('_posts/2024-01-05-hello.md');
  });
});
