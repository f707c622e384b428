// Issue 41 items 1 and 6 through the language server (`gitmem lsp --stdio`, a real client over
// stdio): gitmem/recall results carry provenance (commit, author, date) and review state, and an
// agent's request (`forAgent`) is recorded by the retrieval audit, which `gitmem audit` reads; the
// editor's own search (no `forAgent`) is not. A real git repository with its own identity. Build first.
import { rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { okOutput, runCli, tempDir, write } from '../support/fixtures.js';
import { initializeSpawned, spawnCliServer } from '../support/lsp.js';

const ANA = {
  GIT_AUTHOR_NAME: 'Ana',
  GIT_AUTHOR_EMAIL: 'ana@example.com',
  GIT_COMMITTER_NAME: 'Ana',
  GIT_COMMITTER_EMAIL: 'ana@example.com',
  GIT_AUTHOR_DATE: '2026-11-02T10:00:00Z',
  GIT_COMMITTER_DATE: '2026-11-02T10:00:00Z',
};
const gitAs = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...ANA } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
};

describe('language server: provenance on gitmem/recall, agent requests audited', { timeout: 120_000 }, () => {
  it('gives commit, author, date and review state, and audits forAgent requests only', async () => {
    const root = join(tempDir('gitmem-lsp-trust-'), 'ws');
    write(root, 'gitmem.config.json', JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }));
    write(root, 'memory/MEMORY.md', '# Memory\n\n- The nightly export writes zqexportx files to cold storage.\n');
    gitAs(root, 'init', '-q', '-b', 'main');
    gitAs(root, 'add', '-A');
    gitAs(root, 'commit', '-q', '-m', 'export memory');
    const oid = gitAs(root, 'rev-parse', 'HEAD');
    const s = spawnCliServer(root);
    try {
      await initializeSpawned(s, root);
      await s.inbox.until(() => s.inbox.ready !== undefined, 'ready', 60_000);
      const mine: any = await s.client.sendRequest('gitmem/recall', { query: 'zqexportx', mode: 'keyword' });
      expect(mine.results[0].provenance).toEqual({
        commit: oid,
        short: oid.slice(0, 7),
        author: 'Ana',
        date: '2026-11-02T10:00:00.000Z',
        writer: 'person',
      });
      expect(mine.results[0].review).toBe('reviewed');
      const agent: any = await s.client.sendRequest('gitmem/recall', {
        query: 'zqexportx cold storage',
        mode: 'keyword',
        forAgent: true,
      });
      expect(agent.results[0].review).toBe('reviewed');
      const audit = okOutput(runCli(['audit', '--json', '--dir', root], { env: { GITMEM_NO_HOST: '1' } }));
      expect(audit.enabled).toBe(true);
      expect(audit.entries.map((e: any) => [e.channel, e.query])).toEqual([['lsp', 'zqexportx cold storage']]);
      expect(audit.entries[0].results[0]).toMatchObject({
        path: 'memory/MEMORY.md',
        commit: oid.slice(0, 7),
        review: 'reviewed',
      });
    } finally {
      s.kill();
      await s.exited();
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});
