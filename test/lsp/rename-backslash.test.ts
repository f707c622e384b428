// Bad input U69 (docs/bad-inputs.md): workspace/willRenameFiles to a new name holding a backslash.
// On Linux and macOS a backslash is a character of a file name, but the language server read it as a
// folder separator, so renaming memory/entries/deploy.md to `ops\deploy.md` in the editor got link
// edits to `entries/ops/deploy.md`, a file that never exists: every link to the note broke. `gitmem mv`
// refuses such a name (U63); the server now refuses it the same way (the client renames the file
// anyway, LSP has no veto, but no link is rewritten to a wrong place). Real server over stdio.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../support/fixtures.js';
import { spawnCliServer, initializeSpawned, CAPABILITIES, write, type SpawnedServer } from '../support/lsp.js';

let root: string;
let s: SpawnedServer;
const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
const caps = { ...CAPABILITIES, workspace: { ...CAPABILITIES.workspace, fileOperations: { willRename: true } } };

beforeAll(async () => {
  root = copyFixture('default');
  write(root, 'memory/entries/deploy.md', '---\nid: deploy-days\ntype: decision\n---\n\nDeploy on Tuesdays.\n');
  write(
    root,
    'memory/MEMORY.md',
    `${readFileSync(join(root, 'memory/MEMORY.md'), 'utf8')}\n- [The deploy rule](entries/deploy.md)\n`,
  );
  s = spawnCliServer(root);
  await initializeSpawned(s, root, caps);
  await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
});

afterAll(async () => {
  await s?.client.sendRequest('shutdown').catch(() => undefined);
  s?.kill();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

const willRename = (from: string, to: string) =>
  s.client.sendRequest('workspace/willRenameFiles', { files: [{ oldUri: uri(from), newUri: uri(to) }] }).then(
    (edit) => ({ edit, error: undefined }),
    (error: Error & { code: number }) => ({ edit: undefined, error }),
  );

describe('U69: willRenameFiles refuses a new name with a backslash, as gitmem mv does', () => {
  it.skipIf(process.platform === 'win32')('a file renamed to ops\\deploy.md: refused, no link edits', async () => {
    const r = await willRename('memory/entries/deploy.md', 'memory/entries/ops\\deploy.md');
    expect(r.edit).toBeUndefined();
    expect(r.error?.message).toBe(
      'the new name memory/entries/ops\\deploy.md holds a backslash; gitmem cannot keep the links to it whole (rename it without one)',
    );
  });

  it.skipIf(process.platform === 'win32')('a folder renamed to a name with a backslash: refused too', async () => {
    const r = await willRename('memory/entries', 'memory/ent\\ries');
    expect(r.error?.message).toContain('the new name memory/ent\\ries holds a backslash');
  });

  it('a plain new name still gets its link edits', async () => {
    const r = await willRename('memory/entries/deploy.md', 'memory/entries/ops/deploy.md');
    expect(r.error).toBeUndefined();
    expect(JSON.stringify(r.edit)).toContain('entries/ops/deploy.md');
  });
});
