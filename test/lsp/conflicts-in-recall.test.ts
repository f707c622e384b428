// Issue 41's conflict scenarios through the language server as a process (`gitmem lsp --stdio`, a
// real protocol client over its stdio) on a copy of the real openclaw-crontinel corpus. V06: after
// gitmem/remember writes an entry that contradicts MEMORY.md:150, gitmem/recall puts the entry first
// and gives MEMORY.md:150 `conflictsWith: [<entry id>]`. V07: unrelated facts that only share a
// number get no possible_conflict from gitmem/remember and no label from gitmem/recall.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli } from '../support/fixtures.js';
import { initializeSpawned, spawnServer, type SpawnedServer } from '../support/lsp.js';
import {
  crontinelCopy,
  PRICE_LINE,
  PRICE_TASK,
  scenarioEnv,
  STRIPE_ENTRY,
  UNRELATED,
} from '../support/conflict-scenarios.js';

const roots: string[] = [];
const servers: SpawnedServer[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.kill();
    await s.exited();
  }
  for (const r of roots) rmSync(dirname(r), { recursive: true, force: true });
});

interface Hit {
  path: string;
  startLine: number;
  endLine: number;
  conflictsWith?: string[];
}

/**
 * gitmem/remember, then what the editor's file watcher does: tell the server the file was created,
 * and wait for the status that says the index has it.
 */
async function remember(s: SpawnedServer, root: string, params: object): Promise<any> {
  const res: any = await s.client.sendRequest('gitmem/remember', params);
  if (res.status !== 'created') return res;
  const mark = s.inbox.statuses.length;
  await s.client.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(join(root, res.path)).href, type: 1 }],
  });
  await s.inbox.until(() => s.inbox.statuses.slice(mark).some((x) => x.state === 'ready'), 'index updated', 60_000);
  return res;
}

async function server(): Promise<{ s: SpawnedServer; root: string }> {
  requireBuiltCli();
  const root = crontinelCopy();
  roots.push(root);
  const s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env: scenarioEnv(root) });
  servers.push(s);
  await initializeSpawned(s, root);
  await s.inbox.until(() => s.inbox.ready !== undefined, 'the first index is ready', 120_000);
  return { s, root };
}

describe('conflicts through the language server (stdio)', { timeout: 240_000 }, () => {
  it('V06: gitmem/recall puts the newer entry first and labels MEMORY.md:150 with its id', async () => {
    const { s, root } = await server();
    const made = await remember(s, root, {
      text: STRIPE_ENTRY,
      type: 'decision',
      tags: ['billing'],
    });
    expect(made.status).toBe('created');
    const res: any = await s.client.sendRequest('gitmem/recall', { query: PRICE_TASK, mode: 'keyword', limit: 10 });
    const hits = res.results as Hit[];
    const older = hits.findIndex((r) => r.path === 'MEMORY.md' && r.startLine <= PRICE_LINE && r.endLine >= PRICE_LINE);
    const newer = hits.findIndex((r) => r.path === made.path);
    expect(newer).toBeGreaterThanOrEqual(0);
    expect(older).toBeGreaterThan(newer);
    expect(hits[older]!.conflictsWith).toEqual([made.id]);
    expect(hits.filter((r) => r.conflictsWith)).toHaveLength(1);
  });

  it('V07: gitmem/remember answers no possible_conflict for facts that only share a number, gitmem/recall labels nothing', async () => {
    const { s, root } = await server();
    const paths: string[] = [];
    for (const [a, b] of UNRELATED) {
      paths.push((await remember(s, root, { text: a, type: 'learning', tags: ['releases'] })).path);
      const second = await remember(s, root, {
        text: b,
        type: 'learning',
        tags: ['releases'],
      });
      expect(second.status).toBe('created');
      expect(second.possible_conflict, `${a} | ${b}`).toBeUndefined();
      paths.push(second.path);
    }
    const found = new Set<string>();
    for (const query of ['release shipped to production', 'monitors free plan']) {
      const res: any = await s.client.sendRequest('gitmem/recall', { query, mode: 'keyword', limit: 10 });
      expect((res.results as Hit[]).length).toBeGreaterThan(1);
      expect((res.results as Hit[]).filter((r) => r.conflictsWith)).toEqual([]);
      for (const r of res.results as Hit[]) found.add(r.path);
    }
    // The four entries were recalled side by side: nothing labelled is a judgement, not a miss.
    expect(paths.filter((x) => found.has(x))).toEqual(paths);
  });
});
