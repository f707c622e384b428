// Bad input B41 (docs/bad-inputs.md): a recall sent while a long-lived process embeds a large update.
// The real language server as a process (`gitmem lsp --stdio`), the real ONNX model: 50 new entry
// files (300 chunks) arrive through workspace/didChangeWatchedFiles; once the server says the
// keyword index has them (a `ready` status with vectorsPending > 0), a hybrid gitmem/recall is sent.
// Checked by the order of events, not by a clock: the answer arrives before the status that says the
// vectors are done, finds the new files by keyword, and says vectors are pending. After the catch-up
// a recall equals one from a fresh copy of the workspace indexed from scratch. Then a second update
// is embedding when the server is killed (SIGKILL): the vectors finished before the kill are kept
// (the next `gitmem index` embeds fewer than were pending) and incremental == rebuild (paranoid).
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StatusParams } from '../../src/protocol/requests.js';
import { CLI, runCli, tempDir } from '../support/fixtures.js';
import { initializeSpawned, spawnServer, type SpawnedServer } from '../support/lsp.js';
import { BULK_QUERY, bulkEntry, rankedShape } from '../support/bulk-update.js';
import { modelEnv } from '../support/model.js';
import { workspace } from '../support/watch.js';

/** Write `count` new entry files from `from` and tell the server (as a client's watcher would). */
async function addFiles(s: SpawnedServer, root: string, from: number, count: number, topic?: string): Promise<void> {
  const changes = [];
  for (let i = from; i < from + count; i++) {
    const p = join(root, 'memory', 'entries', `bulk-${i}.md`);
    writeFileSync(p, bulkEntry(i, 6, topic));
    changes.push({ uri: pathToFileURL(p).href, type: 1 });
  }
  await s.client.sendNotification('workspace/didChangeWatchedFiles', { changes });
}

const statuses = (s: SpawnedServer, from: number): StatusParams[] => s.inbox.statuses.slice(from);
const caughtUp = (x: StatusParams) => x.state === 'ready' && x.vectorsPending === 0;
const behind = (x: StatusParams) => x.state === 'ready' && (x.vectorsPending ?? 0) > 0;

describe('B41: recall while the language server embeds a large update (real model)', { timeout: 400_000 }, () => {
  it('answers from the keyword index before the vectors are done, says so, and equals a rebuild after', async () => {
    const root = workspace(
      {
        'memory/MEMORY.md': '# Memory\n\n- The staging database is reset every night.\n',
        'memory/entries/bulk-0.md': bulkEntry(0, 1),
      },
      { model: { enabled: true } },
    );
    const env = modelEnv();
    const s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env });
    let killed = false;
    try {
      await initializeSpawned(s, root);
      await s.inbox.until(() => s.inbox.ready !== undefined && s.inbox.statuses.some(caughtUp), 'first ready', 120_000);

      // 1. A large update; the recall goes out once the keyword index has it.
      const mark = s.inbox.statuses.length;
      await addFiles(s, root, 1, 50);
      await s.inbox.until(() => statuses(s, mark).some(behind), 'keyword index published', 120_000);
      const res: any = await s.client.sendRequest('gitmem/recall', { query: BULK_QUERY, mode: 'hybrid', limit: 10 });
      const doneWhenAnswered = statuses(s, mark).some(caughtUp);
      expect(doneWhenAnswered, 'the recall waited for the embedding').toBe(false);
      expect(res.vectorsPending).toBeGreaterThan(0);
      expect(res.degraded).toMatch(/being embedded in the background/);
      expect(
        res.results.some(
          (r: any) => r.path.startsWith('memory/entries/bulk-') && r.path !== 'memory/entries/bulk-0.md',
        ),
      ).toBe(true);

      // 2. After the catch-up: no note, and the same answer as a copy indexed from scratch.
      await s.inbox.until(() => statuses(s, mark).some(caughtUp), 'vectors caught up', 300_000);
      const after: any = await s.client.sendRequest('gitmem/recall', { query: BULK_QUERY, mode: 'hybrid', limit: 10 });
      expect(after.degraded).toBeNull();
      expect(after.vectorsPending).toBeUndefined();
      const copy = join(tempDir('gitmem-b41-copy-'), 'ws');
      cpSync(root, copy, { recursive: true, filter: (p) => !p.includes('.gitmem') });
      try {
        expect(runCli(['index', '--json', '--dir', copy], { env }).code).toBe(0);
        const fresh = runCli(['recall', BULK_QUERY, '--json', '--mode', 'hybrid', '--limit', '10', '--dir', copy], {
          env,
        });
        expect(fresh.code, fresh.stderr).toBe(0);
        expect(rankedShape(after)).toEqual(rankedShape(fresh.json()));
      } finally {
        rmSync(dirname(copy), { recursive: true, force: true });
      }

      // 3. Killed during a catch-up: what was embedded before the kill is kept.
      const mark2 = s.inbox.statuses.length;
      await addFiles(s, root, 100, 50, 'the billing service batches invoices');
      await s.inbox.until(() => statuses(s, mark2).some(behind), 'second update published', 120_000);
      const at = statuses(s, mark2).findIndex(behind);
      const first = statuses(s, mark2)[at]!.vectorsPending!;
      // Two groups of 32 past the first count: a progress report comes after its group's checkpoint.
      await s.inbox.until(
        () => statuses(s, mark2 + at).some((x) => (x.vectorsPending ?? first) < first - 32),
        'one group embedded',
        120_000,
      );
      expect(statuses(s, mark2).some(caughtUp)).toBe(false);
      s.kill();
      killed = true;
      await s.exited();
      const next = runCli(['index', '--json', '--dir', root], { env });
      expect(next.code, next.stderr).toBe(0);
      const rep = next.json();
      expect(rep.vectors.embedded).toBeGreaterThan(0);
      expect(rep.vectors.embedded).toBeLessThan(first);
      expect(rep.vectors.missing).toBe(0);
      const paranoid = runCli(['index', '--paranoid', '--json', '--dir', root], { env });
      expect(paranoid.json().paranoid.differences).toEqual([]);
    } finally {
      if (!killed) s.kill();
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});
