// Bad input B43 (docs/bad-inputs.md): gitmem/reindex after a large change the server was not told
// about. The real language server as a process (`gitmem lsp --stdio`), the real ONNX model: 50 new
// entry files (300 chunks) are written without a file event, then gitmem/reindex is sent. Checked by
// the order of events, not by a clock: the reindex answers with a `ready` status whose vectors are
// still pending, before any status says they are done, and a hybrid recall sent then finds the new
// files by keyword and says vectors are pending; after the catch-up's status the recall has no note.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StatusParams } from '../../src/protocol/requests.js';
import { CLI } from '../support/fixtures.js';
import { initializeSpawned, spawnServer } from '../support/lsp.js';
import { modelEnv } from '../support/model.js';
import { workspace } from '../support/watch.js';

const QUERY = 'webhook retries tenant cache rollback';

function entry(i: number): string {
  const para = (k: number) =>
    `Paragraph ${k} of note ${i}: the deploy pipeline retries webhooks with exponential back-off, and the cache keys include the tenant id ${i * 10 + k} so that a rollback never serves stale data.`;
  return `---\nid: bulk-${i}\ntype: learning\ntitle: bulk note ${i}\n---\n\n${Array.from({ length: 6 }, (_, k) => para(k)).join('\n\n')}\n`;
}

const caughtUp = (x: StatusParams) => x.state === 'ready' && x.vectorsPending === 0;

describe('B43: gitmem/reindex of a large change (real model)', { timeout: 400_000 }, () => {
  it('is ready with the keyword index before the vectors, which follow in the background', async () => {
    const root = workspace(
      {
        'memory/MEMORY.md': '# Memory\n\n- The staging database is reset every night.\n',
        'memory/entries/bulk-0.md': entry(0),
      },
      { model: { enabled: true } },
    );
    const env = modelEnv();
    const s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env });
    try {
      await initializeSpawned(s, root);
      await s.inbox.until(() => s.inbox.ready !== undefined && s.inbox.statuses.some(caughtUp), 'first ready', 120_000);

      for (let i = 1; i <= 50; i++) writeFileSync(join(root, 'memory', 'entries', `bulk-${i}.md`), entry(i));
      const mark = s.inbox.statuses.length;
      const st: StatusParams = await s.client.sendRequest('gitmem/reindex', {});
      expect(s.inbox.statuses.slice(mark).some(caughtUp), 'the reindex waited for the embedding').toBe(false);
      expect(st.state).toBe('ready');
      expect(st.vectorsPending).toBeGreaterThan(0);
      const res: any = await s.client.sendRequest('gitmem/recall', { query: QUERY, mode: 'hybrid', limit: 10 });
      expect(res.vectorsPending).toBeGreaterThan(0);
      expect(res.degraded).toMatch(/being embedded in the background/);
      expect(res.results.some((r: any) => /^memory\/entries\/bulk-([1-9]|[1-5]\d)\.md$/.test(r.path))).toBe(true);

      await s.inbox.until(() => s.inbox.statuses.slice(mark).some(caughtUp), 'vectors caught up', 300_000);
      const after: any = await s.client.sendRequest('gitmem/recall', { query: QUERY, mode: 'hybrid', limit: 10 });
      expect(after.degraded).toBeNull();
      expect(after.vectorsPending).toBeUndefined();
    } finally {
      s.kill();
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});
