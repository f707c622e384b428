// Bad input B64 (docs/bad-inputs.md): a revision asked of a repository with no commits yet. Before,
// `gitmem diff HEAD` in a fresh `git init` said `unknown revision "HEAD"` and pointed at `gitmem
// log`, which says there are no commits: nothing told the user why HEAD names nothing. Now the error
// says the repository has no commits yet and how to make the first. Real CLI, real git repository.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, noModelEnv, runCli, tempDir } from '../../support/fixtures.js';

describe('B64: a revision in a repository without commits', () => {
  it('diff and recall --as-of say there are no commits yet; after the first checkpoint HEAD resolves', () => {
    const root = join(tempDir(), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    writeFileSync(join(root, 'memory', 'MEMORY.md'), '# Memory\n\n- the harbour crane lifts forty tonnes\n');
    git(root, 'init', '-q');
    const env = noModelEnv(root);
    for (const args of [
      ['diff', 'HEAD'],
      ['recall', 'crane', '--as-of', 'HEAD'],
    ]) {
      const r = runCli([...args, '--dir', root, '--json'], { env });
      expect(r.code, r.stderr).toBe(1);
      const e = r.json().error;
      expect(e.code).toBe('git.bad-revision');
      expect(e.message).toBe('unknown revision "HEAD": this repository has no commits yet');
      expect(e.hint).toContain('gitmem checkpoint');
    }
    const c = runCli(['checkpoint', '-m', 'first', '--dir', root], {
      env: {
        ...env,
        GIT_AUTHOR_NAME: 'T',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 'T',
        GIT_COMMITTER_EMAIL: 't@example.com',
      },
    });
    expect(c.code, c.stderr).toBe(0);
    const d = runCli(['diff', 'HEAD', '--dir', root, '--json'], { env });
    expect(d.code, d.stderr).toBe(0);
    // An unknown name in a repository with commits keeps the plain message.
    const u = runCli(['diff', 'no-such-branch', '--dir', root, '--json'], { env });
    expect(u.json().error.message).toBe('unknown revision "no-such-branch"');
  });
});
