// Issue 16 item 12: a client that registers no file watcher (Neovim 0.7) still gets a fresh
// `gitmem/recall`: the server runs its own watcher (the one `gitmem watch` uses) and says so in
// `gitmem/getStatus`. A client that offers a watcher keeps being the one source of file events.
// Real server process over stdio, real files changed from outside, real fs events.
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientCapabilities } from 'vscode-languageserver-protocol';
import { CLI, gitFixture } from '../support/fixtures.js';
import { CAPABILITIES, spawnServer, type SpawnedServer } from '../support/lsp.js';

const ENV = { GITMEM_MODEL_DIR: '/nonexistent-model' };
const DELETED = 'memory/entries/2026-11-20-postgres-connection-pool.md';
const CREATED = 'memory/entries/2026-11-30-zanzibar-feature-flags.md';
const NEW_ENTRY = `---
id: 2026-11-30-zanzibar-feature-flags
type: decision
title: Feature flags live in the zanzibar service
tags: [flags]
created: 2026-11-30T09:00:00Z
status: active
---

# Feature flags live in the zanzibar service

Every feature flag is read from the zanzibar service, never from environment variables.
`;

/** Neovim 0.7's workspace capabilities: no didChangeWatchedFiles at all. */
const NO_WATCHER: ClientCapabilities = {
  workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } },
  textDocument: { publishDiagnostics: { versionSupport: true } },
  window: { workDoneProgress: false },
};

let s: SpawnedServer | undefined;
let root: string | undefined;
afterEach(() => {
  s?.kill();
  s = undefined;
  if (root) rmSync(dirname(root), { recursive: true, force: true });
  root = undefined;
});

async function start(capabilities: ClientCapabilities): Promise<SpawnedServer> {
  root = gitFixture('demo');
  s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env: ENV });
  await s.client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
    capabilities,
  });
  await s.client.sendNotification('initialized', {});
  await s.inbox.until(() => s!.inbox.ready !== undefined, 'gitmem/ready', 40_000);
  return s;
}

const paths = async (srv: SpawnedServer, query: string): Promise<string[]> => {
  const r: any = await srv.client.sendRequest('gitmem/recall', { query, mode: 'keyword', limit: 20 });
  return r.results.map((x: { path: string }) => x.path);
};

describe('LSP freshness without a client file watcher', () => {
  it('a client that registers no watcher sees a file created and one deleted on disk; getStatus says the server watches', async () => {
    const srv = await start(NO_WATCHER);
    expect(srv.inbox.registrations).toEqual([]);
    expect(await paths(srv, 'postgres pool connections')).toContain(DELETED);
    expect(await paths(srv, 'zanzibar feature flags')).not.toContain(CREATED);
    // The server's watcher reports itself in the log once its initial scan is done.
    await srv.inbox.until(
      () => srv.inbox.logs.some((l) => l.includes('watching the workspace')),
      'the server watcher to be ready',
      15_000,
    );

    // From outside the editor: a new entry (as a CLI `remember` writes it) and a delete.
    writeFileSync(join(root!, CREATED), NEW_ENTRY);
    unlinkSync(join(root!, DELETED));

    const deadline = Date.now() + 15_000;
    let created: string[] = [];
    let deleted: string[] = [];
    let status: any;
    for (;;) {
      created = await paths(srv, 'zanzibar feature flags');
      deleted = await paths(srv, 'postgres pool connections');
      // Recall can answer from the new state a moment before the update finishes saving; the
      // status settles to ready with nothing pending once it has.
      status = await srv.client.sendRequest('gitmem/getStatus', {});
      if (
        created.includes(CREATED) &&
        !deleted.includes(DELETED) &&
        status.state === 'ready' &&
        status.freshness.pending === 0
      )
        break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(created).toContain(CREATED);
    expect(deleted).not.toContain(DELETED);
    expect(status.state).toBe('ready');
    expect(status.freshness.watcher).toBe('server');
    expect(status.freshness.pending).toBe(0);
    expect(typeof status.freshness.lastEventAt).toBe('string');
    expect(Date.parse(status.freshness.lastUpdateAt)).toBeGreaterThanOrEqual(Date.parse(status.freshness.lastEventAt));
  }, 90_000);

  it('a client that offers a watcher is the one source: the server registers it and starts none of its own', async () => {
    const srv = await start(CAPABILITIES);
    await srv.inbox.until(() => srv.inbox.registrations.length > 0, 'the watcher registration', 10_000);
    const reg = JSON.stringify(srv.inbox.registrations);
    expect(reg).toContain('workspace/didChangeWatchedFiles');
    const status: any = await srv.client.sendRequest('gitmem/getStatus', {});
    expect(status.freshness).toMatchObject({ watcher: 'client', lastEventAt: null, pending: 0 });
    expect(srv.inbox.logs.some((l) => l.includes('watching the workspace'))).toBe(false);

    // A disk change the client does not report stays unseen (no second, server-side source)...
    writeFileSync(join(root!, CREATED), NEW_ENTRY);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await paths(srv, 'zanzibar feature flags')).not.toContain(CREATED);
    // ...and the client's notification is what brings it in.
    await srv.client.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(join(root!, CREATED)).href, type: 1 }],
    });
    const deadline = Date.now() + 15_000;
    let found: string[] = [];
    while (Date.now() < deadline) {
      found = await paths(srv, 'zanzibar feature flags');
      if (found.includes(CREATED)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(found).toContain(CREATED);
    const after: any = await srv.client.sendRequest('gitmem/getStatus', {});
    expect(after.freshness.watcher).toBe('client');
    expect(typeof after.freshness.lastEventAt).toBe('string');
  }, 90_000);
});
