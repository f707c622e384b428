// Bad input R51 (docs/bad-inputs.md): `echo "from stdin" | gitmem append -` reported success and wrote
// the bullet "- 12:21 -": append took its text only as arguments. Now `-` reads standard input through
// the helper `remember -` uses (cli/stdin-text.ts): bounded, empty input a usage error (exit 2) with
// nothing written, and the guards of the argument form. Real CLI from dist/, real git repo.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS } from '../../../src/core/write-limits.js';
import { git, gitFixture, noModelEnv, runCli } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(): { root: string; env: Record<string, string> } {
  const root = gitFixture('demo');
  dirs.push(dirname(root));
  return { root, env: noModelEnv(root) };
}

describe('gitmem append - (R51)', { timeout: 120_000 }, () => {
  it('appends the piped text, every line of it, to the daily note', () => {
    const { root, env } = repo();
    const r = runCli(['append', '-', '--date', '2026-12-01', '--json', '--dir', root], {
      env,
      input: 'from stdin zqpipe\nsecond line\n',
    });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    const note = readFileSync(join(root, res.path), 'utf8');
    expect(note).toMatch(/^- \d\d:\d\d from stdin zqpipe$/m);
    expect(note).toContain('second line');
    expect(note).not.toMatch(/^- \d\d:\d\d -$/m);
  });

  it('empty input, a secret and text over the cap are refused, nothing written', () => {
    const { root, env } = repo();
    const before = git(root, 'status', '--porcelain', '--untracked-files=all');
    const empty = runCli(['append', '-', '--dir', root], { env, input: ' \n\n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('append -: nothing to append: standard input was empty');
    const secret = runCli(['append', '-', '--dir', root], {
      env,
      input: `the deploy token is ghp_${'A1b2C3d4E5'.repeat(4)}\n`,
    });
    expect(secret.code).not.toBe(0);
    expect(secret.stderr).toMatch(/secret/i);
    const big = runCli(['append', '-', '--dir', root], { env, input: 'a'.repeat(MAX_TEXT_CHARS + 1) });
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('100,001 characters');
    expect(git(root, 'status', '--porcelain', '--untracked-files=all')).toBe(before);
  });
});
