// Bad input R42 (docs/bad-inputs.md): `gitmem remember` took its text only as arguments, so a
// commit message or a tool's output could not be piped in (`… | gitmem remember -` remembered the
// text "-"). Now `-` reads standard input, as `state absorb -` and `complete-task --input -` do, with
// the same size cap, secret scan and dedupe as the argument form. Real CLI from dist/, real git repo.
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
  return {
    root,
    env: {
      ...noModelEnv(root),
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  };
}

describe('gitmem remember - (R42)', { timeout: 120_000 }, () => {
  it('writes the entry from standard input; the same text piped again is a duplicate', () => {
    const { root, env } = repo();
    const text = 'Release builds are signed on the CI runner zqsignx\nwith the key kept in the vault.\n';
    const r = runCli(['remember', '-', '--type', 'decision', '--json', '--dir', root], { env, input: text });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res.status).not.toBe('duplicate');
    const body = readFileSync(join(root, res.path), 'utf8');
    expect(body).toContain('Release builds are signed on the CI runner zqsignx');
    expect(body).toContain('with the key kept in the vault.');
    expect(body).not.toMatch(/^-$/m);
    const again = runCli(['remember', '-', '--type', 'decision', '--json', '--dir', root], { env, input: text });
    expect(again.json().status).toBe('duplicate');
  });

  it('the guards of the argument form: empty input, a secret, text over the cap are refused, nothing written', () => {
    const { root, env } = repo();
    const before = git(root, 'status', '--porcelain');
    const empty = runCli(['remember', '-', '--dir', root], { env, input: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('standard input was empty');
    const secret = runCli(['remember', '-', '--dir', root], {
      env,
      input: `the deploy token is ghp_${'A1b2C3d4E5'.repeat(4)}\n`,
    });
    expect(secret.code).not.toBe(0);
    expect(secret.stderr).toMatch(/secret/i);
    const big = runCli(['remember', '-', '--dir', root], { env, input: 'a'.repeat(MAX_TEXT_CHARS + 1) });
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('text is 100,001 characters');
    expect(git(root, 'status', '--porcelain')).toBe(before);
  });
});
