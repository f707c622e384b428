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

const REPORTED = 'memory/entries/2026-11-30-quokka-release-train.md';
const REPORTED_ENTRY = `---
id: 2026-11-30-quokka-release-train
type: decision
title: Releases ride the quokka train
tags: [release]
created: 2026-11-30T10:00:00Z
status: active
---

# Releases ride the quokka train

Every release leaves on the quokka release train, once a week.
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

/**
 * Recall for `query` until it finds `path`, asking again after each `gitmem/status` (every index
 * update ends with one). @returns the last answer's paths. @throws after 15 s without a status.
 */
async function untilFound(srv: SpawnedServer, query: string, path: string): Promise<string[]> {
  for (;;) {
    const seen = srv.inbox.statuses.length;
    const found = await paths(srv, query);
    if (found.includes(path)) return found;
    await srv.inbox.until(() => srv.inbox.statuses.length > seen, `an index update bringing in ${path}`, 15_000);
  }
}

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

    // Each index update ends with a `gitmem/status` notification: look again after each one (the
    // create and the delete may come as one update or two).
    let created: string[] = [];
    let deleted: string[] = [];
    let status: any;
    for (;;) {
      const seen = srv.inbox.statuses.length;
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
      await srv.inbox.until(() => srv.inbox.statuses.length > seen, 'a status after the change on disk', 15_000);
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

    // A disk change the client does not report stays unseen (no second, server-side source): the
    // entry is written first, then another one the client does report; once the reported one is in
    // the index, the unreported one (older, and in the same quiet period for any watcher) is not.
    writeFileSync(join(root!, CREATED), NEW_ENTRY);
    writeFileSync(join(root!, REPORTED), REPORTED_ENTRY);
    await srv.client.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(join(root!, REPORTED)).href, type: 1 }],
    });
    await untilFound(srv, 'quokka release train', REPORTED);
    expect(await paths(srv, 'zanzibar feature flags')).not.toContain(CREATED);
    // ...and the client's notification is what brings it in.
    await srv.client.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(join(root!, CREATED)).href, type: 1 }],
    });
    const found = await untilFound(srv, 'zanzibar feature flags', CREATED);
    expect(found).toContain(CREATED);
    const after: any = await srv.client.sendRequest('gitmem/getStatus', {});
    expect(after.freshness.watcher).toBe('client');
    expect(typeof after.freshness.lastEventAt).toBe('string');
  }, 90_000);
});
