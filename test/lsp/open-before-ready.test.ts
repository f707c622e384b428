// A buffer the editor opens while the server is still opening the workspace (E13): Neovim and VS
// Code send didOpen right after `initialized` (VS Code also restores unsaved buffers then). Its text,
// not the file on disk, must be what symbols, diagnostics and recall see once the server is ready.
// Real server process (gitmem lsp --stdio) over real stdio.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { copyFixture } from '../support/fixtures.js';
import { spawnCliServer, initializeSpawned, write, type SpawnedServer } from '../support/lsp.js';

const DISK = '---\ntype: learning\ntags: [early]\n---\n\n# Disk heading\n\nSee [[disk-missing]].\n';
const BUFFER = '---\ntype: learning\ntags: [early]\n---\n\n# Buffer heading\n\nSee [[buffer-missing]] quokkabuffer.\n';

let root: string;
let s: SpawnedServer;

afterAll(async () => {
  await s?.client.sendRequest('shutdown').catch(() => undefined);
  s?.kill();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

it('a buffer opened right after initialized is what the model and the index hold once ready', async () => {
  root = copyFixture('default');
  write(root, 'memory/entries/early.md', DISK);
  s = spawnCliServer(root);
  const uri = pathToFileURL(join(root, 'memory/entries/early.md')).href;
  await initializeSpawned(s, root);
  await s.client.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'markdown', version: 1, text: BUFFER },
  });
  await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
  const symbols: any = await s.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
  expect(symbols.map((x: any) => x.name)).toEqual(['Buffer heading']);
  await s.inbox.until(
    () => s.inbox.diagnosticsFor(uri).some((d) => String(d.message).includes('[[buffer-missing]]')),
    'diagnostics of the buffer text',
  );
  expect(s.inbox.diagnosticsFor(uri).map((d) => d.message)).toEqual([
    '[[buffer-missing]] matches no memory id or file name',
  ]);
  // The buffer reaches recall after the index update's quiet period (live text): ask again after each
  // `gitmem/status` (an index update ends with one).
  let paths: string[] = [];
  for (;;) {
    const seen = s.inbox.statuses.length;
    const r: any = await s.client.sendRequest('gitmem/recall', { query: 'quokkabuffer', mode: 'keyword', limit: 3 });
    paths = r.results.map((x: any) => x.path);
    if (paths.length) break;
    await s.inbox.until(() => s.inbox.statuses.length > seen, 'an index update with the buffer text', 20_000);
  }
  expect(paths).toEqual(['memory/entries/early.md']);
}, 60_000);
