// The commit that last changed a chunk's lines (git/lineage.ts chunkLineage), in a real repository:
// the newest of the commits that introduced the chunk's lines (a chunk may start or end mid-line),
// undefined for text HEAD's version does not hold, and, past a merge, the commit on the merged side
// that wrote the lines, not the merge (R190, docs/bad-inputs.md).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, write } from '../../support/fixtures.js';
import { chunkLineage } from '../../../src/git/lineage.js';
import { openRepo } from '../../../src/git/repo.js';

const gitAt = (cwd: string, date: string, ...args: string[]) => {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
};
const commit = (root: string, date: string, message: string) => {
  gitAt(root, date, 'add', '-A');
  gitAt(root, date, 'commit', '-qm', message);
  return gitAt(root, date, 'rev-parse', 'HEAD');
};

describe('chunkLineage', () => {
  it('gives the newest commit that wrote the chunk, and the side commit past a merge', async () => {
    const root = join(tempDir('gitmem-chunk-lineage-'), 'ws');
    try {
      write(root, 'note.md', 'alpha one\nbeta two\ngamma three\n');
      gitAt(root, '2026-11-01T10:00:00Z', 'init', '-q', '-b', 'main');
      const first = commit(root, '2026-11-01T10:00:00Z', 'first');
      write(root, 'note.md', 'alpha one\nBETA two\ngamma three\ndelta four\n');
      const second = commit(root, '2026-11-02T10:00:00Z', 'second');
      gitAt(root, '2026-11-03T10:00:00Z', 'checkout', '-q', '-b', 'side');
      write(root, 'note.md', 'alpha one\nBETA two\ngamma three\ndelta four\nside five\n');
      const side = commit(root, '2026-11-03T10:00:00Z', 'side');
      gitAt(root, '2026-11-04T10:00:00Z', 'checkout', '-q', 'main');
      write(root, 'other.md', 'x\n');
      commit(root, '2026-11-04T10:00:00Z', 'other');
      gitAt(root, '2026-11-05T10:00:00Z', 'merge', '-q', '--no-ff', '-m', 'merge side', 'side');
      const repo = openRepo({ workTree: root });

      expect((await chunkLineage(repo, 'note.md', 'alpha one'))?.commit).toBe(first);
      expect((await chunkLineage(repo, 'note.md', 'one\nBETA'))?.commit).toBe(second);
      expect((await chunkLineage(repo, 'note.md', 'gamma three\ndelta four'))?.commit).toBe(second);
      // Written on the merged side: that commit, not the merge (before: the merge).
      expect((await chunkLineage(repo, 'note.md', 'side five'))?.commit).toBe(side);
      expect((await chunkLineage(repo, 'note.md', 'delta four\nside'))?.commit).toBe(side);
      expect(await chunkLineage(repo, 'note.md', 'not written')).toBeUndefined();
      expect(await chunkLineage(repo, 'missing.md', 'alpha one')).toBeUndefined();
    } finally {
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});
