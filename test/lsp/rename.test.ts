// Rename and move over the real language server process (gitmem lsp --stdio): prepareRename and
// rename of an entry id, a [[wikilink]] and a heading; willRenameFiles for a file and a folder. The
// returned edits are applied to the real files, the files moved on disk, and `gitmem validate`
// must then find no broken link. A taken id is refused (V05).
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, runCli } from '../support/fixtures.js';
import { spawnCliServer, CAPABILITIES, write, type SpawnedServer } from '../support/lsp.js';
import { applyWorkspaceEdit } from '../support/workspace-edit.js';

const DEPLOY = [
  '---',
  'id: deploy-days',
  'type: decision',
  'tags: [deploy]',
  'created: 2026-11-20',
  '---',
  '',
  '# Deploy days',
  '',
  'Deploy on Tuesdays. Identifiers: see [the tokenizer](tokenizer-splits-identifiers.md).',
  '',
  '## Rollback steps',
  '',
  'Revert the release tag, then redeploy.',
  '',
].join('\n');

const REF = [
  '---',
  'id: release-checklist',
  'type: learning',
  'tags: [deploy]',
  'compatible_with: [deploy-days]',
  '---',
  '',
  'Follow [[deploy-days]]; if it fails, [[deploy-days#Rollback steps]] or [the steps](deploy.md#rollback-steps).',
  '',
].join('\n');

let root: string;
let s: SpawnedServer;
const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');
const caps = { ...CAPABILITIES, workspace: { ...CAPABILITIES.workspace, fileOperations: { willRename: true } } };

beforeAll(async () => {
  root = copyFixture('default');
  write(root, 'memory/entries/deploy.md', DEPLOY);
  write(root, 'memory/entries/release-checklist.md', REF);
  write(
    root,
    'memory/MEMORY.md',
    `${read('memory/MEMORY.md')}\n## Deploys\n\n- [The deploy rule](entries/deploy.md) and [[deploy-days|its days]].\n`,
  );
  s = spawnCliServer(root);
  const init: any = await s.client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
    capabilities: caps,
  });
  expect(init.capabilities.renameProvider).toEqual({ prepareProvider: true });
  expect(init.capabilities.workspace.fileOperations.willRename.filters.length).toBeGreaterThan(0);
  await s.client.sendNotification('initialized', {});
  await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
});

afterAll(async () => {
  await s?.client.sendRequest('shutdown').catch(() => undefined);
  s?.kill();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

const versions = new Map<string, number>();
/**
 * Show the server the files as an editor would after applying an edit: open (or change) each
 * buffer. `gone` lists files that left their old name (the client's watcher reports them deleted).
 */
async function sync(rels: string[], gone: string[] = []) {
  if (gone.length) {
    for (const g of gone)
      if (versions.delete(g))
        await s.client.sendNotification('textDocument/didClose', { textDocument: { uri: uri(g) } });
    await s.client.sendNotification('workspace/didChangeWatchedFiles', {
      changes: gone.map((g) => ({ uri: uri(g), type: 3 })),
    });
  }
  for (const rel of rels) {
    const v = versions.get(rel);
    if (v === undefined)
      await s.client.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(rel), languageId: 'markdown', version: 1, text: read(rel) },
      });
    else
      await s.client.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(rel), version: v + 1 },
        contentChanges: [{ text: read(rel) }],
      });
    versions.set(rel, (v ?? 0) + 1);
  }
  // Notifications are handled in order: a request after them is answered after they were applied.
  await s.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uri('memory/MEMORY.md') } });
}

const rel = (files: string[]) => files.map((f) => f.slice(root.length + 1));

function brokenLinks(): string[] {
  const v = runCli(['validate', '--json', '--dir', root]);
  return v
    .json()
    .diagnostics.filter((d: any) => d.code === 'memory.link.unresolved')
    .map((d: any) => `${d.path}: ${d.message}`);
}

describe('textDocument/rename', () => {
  it('prepareRename names the id under a [[wikilink]] and refuses plain text', async () => {
    const line = REF.split('\n').findIndex((l) => l.startsWith('Follow'));
    const prep: any = await s.client.sendRequest('textDocument/prepareRename', {
      textDocument: { uri: uri('memory/entries/release-checklist.md') },
      position: { line, character: 10 },
    });
    expect(prep).toEqual({
      range: { start: { line, character: 9 }, end: { line, character: 20 } },
      placeholder: 'deploy-days',
    });
    await expect(
      s.client.sendRequest('textDocument/prepareRename', {
        textDocument: { uri: uri('memory/entries/release-checklist.md') },
        position: { line, character: 2 },
      }),
    ).rejects.toThrow(/renames an entry id/);
  });

  it('renaming an entry id updates its id:, every [[link]] and compatible_with across the workspace', async () => {
    const line = REF.split('\n').findIndex((l) => l.startsWith('Follow'));
    const edit: any = await s.client.sendRequest('textDocument/rename', {
      textDocument: { uri: uri('memory/entries/release-checklist.md') },
      position: { line, character: 12 },
      newName: 'release-days',
    });
    const files = rel(applyWorkspaceEdit(edit)).sort();
    expect(files).toEqual(['memory/MEMORY.md', 'memory/entries/deploy.md', 'memory/entries/release-checklist.md']);
    expect(read('memory/entries/deploy.md')).toMatch(/^id: release-days$/m);
    expect(read('memory/entries/release-checklist.md')).toContain('compatible_with: [release-days]');
    expect(read('memory/entries/release-checklist.md')).toContain(
      'Follow [[release-days]]; if it fails, [[release-days#Rollback steps]]',
    );
    expect(read('memory/MEMORY.md')).toContain('[[release-days|its days]]');
    expect(read('memory/entries/deploy.md')).toContain('# Deploy days'); // body text untouched
    await sync(files);
    expect(brokenLinks()).toEqual([]);
    // A taken id is refused with a clear error.
    await expect(
      s.client.sendRequest('textDocument/rename', {
        textDocument: { uri: uri('memory/entries/deploy.md') },
        position: { line: 1, character: 5 },
        newName: 'use-lunr',
      }),
    ).rejects.toThrow(/already used/);
  });

  it('renaming a heading updates [[id#Heading]] and [text](file.md#anchor) links', async () => {
    const line = DEPLOY.split('\n').indexOf('## Rollback steps');
    const prep: any = await s.client.sendRequest('textDocument/prepareRename', {
      textDocument: { uri: uri('memory/entries/deploy.md') },
      position: { line, character: 5 },
    });
    expect(prep.placeholder).toBe('Rollback steps');
    const edit: any = await s.client.sendRequest('textDocument/rename', {
      textDocument: { uri: uri('memory/entries/deploy.md') },
      position: { line, character: 5 },
      newName: 'Rolling back',
    });
    const files = applyWorkspaceEdit(edit);
    expect(read('memory/entries/deploy.md')).toContain('\n## Rolling back\n');
    expect(read('memory/entries/release-checklist.md')).toContain(
      '[[release-days#Rolling back]] or [the steps](deploy.md#rolling-back)',
    );
    await sync(rel(files));
  });
});

describe('workspace/willRenameFiles', () => {
  it('a moved file: links to it and links inside it follow', async () => {
    const edit: any = await s.client.sendRequest('workspace/willRenameFiles', {
      files: [{ oldUri: uri('memory/entries/deploy.md'), newUri: uri('memory/entries/ops/deploy-rules.md') }],
    });
    const files = rel(applyWorkspaceEdit(edit)).filter((f) => f !== 'memory/entries/deploy.md');
    mkdirSync(join(root, 'memory/entries/ops'), { recursive: true });
    renameSync(join(root, 'memory/entries/deploy.md'), join(root, 'memory/entries/ops/deploy-rules.md'));
    expect(read('memory/MEMORY.md')).toContain('[The deploy rule](entries/ops/deploy-rules.md)');
    expect(read('memory/entries/release-checklist.md')).toContain('[the steps](ops/deploy-rules.md#rolling-back)');
    expect(read('memory/entries/ops/deploy-rules.md')).toContain('[the tokenizer](../tokenizer-splits-identifiers.md)');
    await sync([...files, 'memory/entries/ops/deploy-rules.md'], ['memory/entries/deploy.md']);
    expect(brokenLinks()).toEqual([]);
  });

  it('a renamed folder: every link into it follows; [[file-name]] links follow a file whose name is its id', async () => {
    write(
      root,
      'memory/entries/ops/on-call.md',
      '---\ntype: learning\ntags: [ops]\n---\n\nPage the on-call person; see [[release-days]].\n',
    );
    write(
      root,
      'memory/2026-11-29.md',
      '# 2026-11-29\n\n- 09:00 Read [[on-call]] and [rules](entries/ops/deploy-rules.md).\n',
    );
    await sync(['memory/entries/ops/on-call.md', 'memory/2026-11-29.md']);
    const edit: any = await s.client.sendRequest('workspace/willRenameFiles', {
      files: [{ oldUri: uri('memory/entries/ops'), newUri: uri('memory/entries/operations') }],
    });
    const files = rel(applyWorkspaceEdit(edit)).filter((f) => !f.startsWith('memory/entries/ops/'));
    renameSync(join(root, 'memory/entries/ops'), join(root, 'memory/entries/operations'));
    await sync(
      [...files, 'memory/entries/operations/on-call.md', 'memory/entries/operations/deploy-rules.md'],
      ['memory/entries/ops/on-call.md', 'memory/entries/ops/deploy-rules.md'],
    );
    expect(read('memory/2026-11-29.md')).toContain('[rules](entries/operations/deploy-rules.md)');
    expect(read('memory/2026-11-29.md')).toContain('[[on-call]]'); // the file name did not change
    expect(brokenLinks()).toEqual([]);

    // A file whose name is its id: renaming the file renames the id, so [[on-call]] follows.
    const renamed: any = await s.client.sendRequest('workspace/willRenameFiles', {
      files: [
        { oldUri: uri('memory/entries/operations/on-call.md'), newUri: uri('memory/entries/operations/pager-duty.md') },
      ],
    });
    const more = rel(applyWorkspaceEdit(renamed)).filter((f) => !f.endsWith('/on-call.md'));
    renameSync(
      join(root, 'memory/entries/operations/on-call.md'),
      join(root, 'memory/entries/operations/pager-duty.md'),
    );
    expect(read('memory/2026-11-29.md')).toContain('Read [[pager-duty]] and');
    await sync([...more, 'memory/entries/operations/pager-duty.md'], ['memory/entries/operations/on-call.md']);
    expect(brokenLinks()).toEqual([]);
  });
});
