// Line attribution (git/lineage.ts attributeLines) and its cache per blob (service/trust/provenance.ts)
// in a real repository with three commits by two authors: each line is attributed to the commit
// that introduced it, an uncommitted line to none; a second recall of the same blob reads the
// cache in derived state and no git history (the history is removed from under it and the answer
// stays). The retrieval audit's generations: past the size of one, the log rotates and keeps the
// newest entries first.
import { rmSync, writeFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { okOutput, runCli, tempDir, write } from '../../support/fixtures.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { appendAudit, readAudit } from '../../../src/service/recall/audit.js';

const as = (name: string, date: string) => ({
  GIT_AUTHOR_NAME: name,
  GIT_AUTHOR_EMAIL: `${name.toLowerCase()}@example.com`,
  GIT_COMMITTER_NAME: name,
  GIT_COMMITTER_EMAIL: `${name.toLowerCase()}@example.com`,
  GIT_AUTHOR_DATE: date,
  GIT_COMMITTER_DATE: date,
});
const gitAs = (cwd: string, env: Record<string, string>, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
};

describe('line attribution, cached per blob', () => {
  it('attributes each line to the commit that introduced it, and answers again from the cache alone', () => {
    const root = join(tempDir('gitmem-attr-'), 'ws');
    const env = { GITMEM_NO_HOST: '1' };
    try {
      write(root, 'gitmem.config.json', JSON.stringify({ version: 1, model: { enabled: false } }));
      const ana = as('Ana', '2026-11-01T10:00:00Z');
      const bo = as('Bo', '2026-11-05T10:00:00Z');
      const text = (two: string, three = '') =>
        `# Memory\n\n## One\n\n- zqonex first fact.\n\n## Two\n\n- zqtwox ${two}.\n${three ? `\n## Three\n\n- ${three}\n` : ''}`;
      write(root, 'memory/MEMORY.md', text('second fact'));
      gitAs(root, ana, 'init', '-q', '-b', 'main');
      gitAs(root, ana, 'add', '-A');
      gitAs(root, ana, 'commit', '-q', '-m', 'one');
      const first = gitAs(root, ana, 'rev-parse', 'HEAD');
      write(root, 'memory/MEMORY.md', text('second fact, revised'));
      gitAs(root, bo, 'commit', '-q', '-am', 'two');
      const second = gitAs(root, bo, 'rev-parse', 'HEAD');
      writeFileSync(join(root, 'memory/MEMORY.md'), text('second fact, revised', 'zqthreex not committed.'));
      const recall = (q: string) =>
        okOutput(runCli(['recall', q, '--json', '--mode', 'keyword', '--limit', '1', '--dir', root], { env }))
          .results[0];
      const one = recall('zqonex');
      expect([one.startLine, one.endLine]).toEqual([5, 5]);
      expect(one.provenance).toMatchObject({ commit: first, author: 'Ana' });
      expect(recall('zqtwox').provenance).toMatchObject({ commit: second, author: 'Bo' });
      expect(recall('zqthreex').provenance).toEqual({ commit: 'uncommitted', writer: 'person' });
      // The cache answers for this blob at this HEAD: with the objects gone, the same answer.
      const objects = join(root, '.git', 'objects');
      rmSync(objects, { recursive: true, force: true });
      expect(recall('zqonex').provenance).toMatchObject({ commit: first, author: 'Ana' });
    } finally {
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});

describe('retrieval audit generations', () => {
  it('rotates past a generation, keeps at most ten files, newest first', async () => {
    const dir = join(tempDir('gitmem-audit-'), 'index');
    try {
      const storage = createIndexStorage(dir);
      const pad = 'x'.repeat(20_000);
      for (let i = 0; i < 600; i++)
        await appendAudit(storage, {
          time: `t${i}`,
          query: `${i} ${pad}`,
          mode: 'keyword',
          degraded: null,
          results: [],
          bytes: 0,
        });
      const files = readdirSync(dir).filter((f) => f.startsWith('audit'));
      expect(files.length).toBeGreaterThan(1);
      expect(files.length).toBeLessThanOrEqual(10);
      const recent = await readAudit(storage, 120);
      expect(recent.map((e) => e.time)).toEqual(Array.from({ length: 120 }, (_, k) => `t${599 - k}`));
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });
});
