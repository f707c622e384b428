// Test support: `gitmem lsp --stdio` (the built CLI) on a copy of fixtures/workspaces/default with
// extra memory files, one of them opened in the client, for a whole test file. Registers the file's
// beforeAll/afterAll: the server is ready (`gitmem/ready`) once beforeAll ran; it is shut down and
// the copy removed after. Used by the hover tests that look at what a linked memory shows.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { copyFixture, requireBuiltCli } from './fixtures.js';
import { initializeSpawned, spawnCliServer, write, type SpawnedServer } from './lsp.js';

export interface SpawnedWorkspace {
  /** The running server (after beforeAll). */
  readonly server: SpawnedServer;
  /** The file URI of a workspace-relative path. */
  uri(rel: string): string;
}

/**
 * Serve `files` (workspace-relative path → text) over a copy of the default fixture, with `open`
 * (one of them) opened in the client.
 */
export function spawnedWorkspace(files: Readonly<Record<string, string>>, open: string): SpawnedWorkspace {
  let root = '';
  let s: SpawnedServer | undefined;
  const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
  beforeAll(async () => {
    requireBuiltCli();
    root = copyFixture('default');
    for (const [rel, text] of Object.entries(files)) write(root, rel, text);
    const server = spawnCliServer(root);
    s = server;
    await initializeSpawned(server, root);
    await server.inbox.until(() => server.inbox.ready !== undefined, 'gitmem/ready', 120_000);
    await server.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uri(open), languageId: 'markdown', version: 1, text: files[open] },
    });
  });
  afterAll(async () => {
    if (s) {
      await s.client.sendRequest('shutdown').catch(() => undefined);
      s.kill();
      await s.exited();
    }
    if (root) rmSync(dirname(root), { recursive: true, force: true });
  });
  return {
    get server() {
      if (!s) throw new Error('spawnedWorkspace: the server is not started yet (used outside a test?)');
      return s;
    },
    uri,
  };
}
