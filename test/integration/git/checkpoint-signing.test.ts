// T17: a repository that signs its commits (commit.gpgsign) got unsigned checkpoints in silence:
// isomorphic-git writes commit objects without a signature, so every memory commit of a repository
// whose branch rules require signed commits failed verification later, and nothing said so. Now the
// checkpoint's commit object is made by `git commit-tree -S` when git says it signs, and a signing
// failure commits nothing. Real git with an SSH signing key made for the test; real CLI processes.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitFixture, noModelEnv, runCli, tempDir } from '../../support/fixtures.js';

describe('T17 checkpoint in a repository that signs its commits', () => {
  const keys = tempDir();
  const key = join(keys, 'signing');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'test', '-f', key]);
  writeFileSync(join(keys, 'allowed'), `test ${readFileSync(`${key}.pub`, 'utf8')}`);

  function signingRepo(): string {
    const root = gitFixture('demo');
    git(root, 'config', 'commit.gpgsign', 'true');
    git(root, 'config', 'gpg.format', 'ssh');
    git(root, 'config', 'user.signingkey', key);
    git(root, 'config', 'gpg.ssh.allowedSignersFile', join(keys, 'allowed'));
    return root;
  }
  const env = (root: string) => ({ ...noModelEnv(root), TZ: 'Asia/Kolkata' });

  it('signs the checkpoint commit with the configured key; the dates and message are gitmem’s', () => {
    const root = signingRepo();
    const r = runCli(['checkpoint', '-m', 'signed memory', '--dir', root, '--json'], { env: env(root) });
    expect(r.code, r.stderr).toBe(0);
    const verify = spawnSync('git', ['verify-commit', 'HEAD'], { cwd: root, encoding: 'utf8' });
    expect(verify.status, verify.stderr).toBe(0);
    const raw = git(root, 'cat-file', '-p', 'HEAD');
    expect(raw).toMatch(/^author .+ \d+ \+0530$/m);
    expect(git(root, 'log', '-1', '--format=%H').trim()).toBe(r.json().oid);
    expect(git(root, 'log', '-1', '--format=%B')).toMatch(/^signed memory\n\nMemory-Op: add\n/);
    expect(git(root, 'status', '--porcelain', '--', 'memory').trim()).toBe('');
  });

  it('commits nothing and says why when signing fails', () => {
    const root = signingRepo();
    expect(runCli(['checkpoint', '--dir', root], { env: env(root) }).code).toBe(0);
    const head = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'config', 'user.signingkey', join(keys, 'missing'));
    appendFileSync(join(root, 'memory', 'MEMORY.md'), '- one more fact\n');
    const r = runCli(['checkpoint', '--dir', root, '--json'], { env: env(root) });
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('git.failed');
    expect(r.json().error.message).toMatch(/signs its commits \(commit\.gpgsign\).*nothing was committed$/);
    expect(git(root, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(root, 'status', '--porcelain', '--', 'memory').trim()).toBe('M memory/MEMORY.md');
  });
});
