// The language server in-process over a stream pair, on a real workspace copy: the gitmem/* requests
// (recall, checkpoint, memoryDiff, remember, documents, snapshot) and the working-state diagnostics.
// Real files, real index storage, real git; no sleeps: tests wait for notifications.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git } from '../../support/fixtures.js';
import { createLspPair, write, type LspPair } from '../../support/lsp.js';
import { startFeatureSession } from '../../support/lsp-features.js';

let p: LspPair;
let root: string;

beforeAll(async () => {
  ({ p, root } = await startFeatureSession());
});

afterAll(async () => {
  await p?.close();
});

describe('gitmem/* requests', () => {
  it('gitmem/recall returns the CLI recall JSON with filters', async () => {
    const r: any = await p.client.sendRequest('gitmem/recall', {
      query: 'keyword recall lunr',
      limit: 3,
      types: ['decision'],
    });
    expect(Object.keys(r).sort()).toEqual(['degraded', 'mode', 'query', 'results', 'tookMs']);
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results[0]).toMatchObject({
      path: 'memory/entries/use-lunr.md',
      startLine: expect.any(Number),
      endLine: expect.any(Number),
      kind: 'entry',
      entry: { id: 'use-lunr', type: 'decision' },
    });
    expect(r.results.every((x: any) => x.entry?.type === 'decision')).toBe(true);
    await expect(p.client.sendRequest('gitmem/recall', { nope: 1 })).rejects.toMatchObject({ code: -32602 });
  });

  it('unsaved text is what recall sees (after an index update) until the document closes', async () => {
    const rel = 'memory/entries/tokenizer-splits-identifiers.md';
    const uri = p.uri(rel);
    const disk = readFileSync(join(root, rel), 'utf8');
    await p.open(rel, disk);
    await p.change(rel, 2, disk.replace('are indexed as their parts', 'are indexed as zebracorn parts'));
    await p.client.sendRequest('gitmem/reindex', {});
    const during: any = await p.client.sendRequest('gitmem/recall', { query: 'zebracorn', mode: 'keyword' });
    expect(during.results.map((x: any) => x.path)).toEqual([rel]);
    await p.client.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await p.client.sendRequest('gitmem/reindex', {});
    const after: any = await p.client.sendRequest('gitmem/recall', { query: 'zebracorn', mode: 'keyword' });
    expect(after.results).toEqual([]);
  });

  it('gitmem/checkpoint commits memory; gitmem/memoryDiff reports it; nothing-to-commit after', async () => {
    write(root, 'memory/entries/new-one.md', '---\nid: new-one\ntype: learning\n---\nA fresh memory.\n');
    const diff: any = await p.client.sendRequest('gitmem/memoryDiff', { from: 'HEAD' });
    expect(diff.from.rev).toBe('HEAD');
    expect(diff.changes.find((c: any) => c.path === 'memory/entries/new-one.md')).toMatchObject({
      change: 'added',
      id: 'new-one',
    });
    const c: any = await p.client.sendRequest('gitmem/checkpoint', { message: 'lsp checkpoint' });
    expect(c).toMatchObject({ kind: 'committed', branch: 'main', oid: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(c.changes.added).toContain('memory/entries/new-one.md');
    expect(git(root, 'log', '-1', '--format=%s').trim()).toBe('lsp checkpoint');
    const again: any = await p.client.sendRequest('gitmem/checkpoint', {});
    expect(again.kind).toBe('nothing-to-commit');
    await expect(p.client.sendRequest('gitmem/memoryDiff', { from: 'no-such-rev' })).rejects.toMatchObject({
      data: { code: 'git.bad-revision' },
    });
  });

  it('gitmem/remember writes an entry; gitmem/documents lists memory by kind; gitmem/snapshot answers', async () => {
    const r: any = await p.client.sendRequest('gitmem/remember', {
      text: 'Editor selections become typed entries.',
      type: 'learning',
      tags: ['editor'],
    });
    expect(r).toMatchObject({ status: 'created', path: expect.stringMatching(/^memory\/entries\/.+\.md$/) });
    const dup: any = await p.client.sendRequest('gitmem/remember', {
      text: 'Editor selections become typed entries.',
      type: 'learning',
    });
    expect(dup.status).toBe('duplicate');
    const docs: any = await p.client.sendRequest('gitmem/documents', {});
    expect(docs.documents.find((d: any) => d.path === r.path)).toMatchObject({
      kind: 'entry',
      id: r.id,
      type: 'learning',
    });
    expect(docs.documents.find((d: any) => d.path === 'memory/entries/emoji.md')).toMatchObject({ errors: 1 });
    const snap: any = await p.client.sendRequest('gitmem/snapshot', {});
    expect(typeof snap.active).toBe('boolean');
  });
});

describe('working state (CURRENT_STATE.md)', () => {
  it('stale or malformed state is diagnosed; gitmem/snapshot follows the unsaved buffer', async () => {
    const ws = copyFixture('default');
    const old = [
      '# Current State',
      '',
      '> Last updated: 2020-01-01T00:00:00Z',
      '',
      '## Objective',
      '',
      'Ship the language server.',
      '',
      '## Next Action',
      '',
      'Write the tests.',
      '',
    ].join('\n');
    write(ws, 'memory/CURRENT_STATE.md', old);
    const q = createLspPair(ws);
    await q.start();
    const uri = q.uri('memory/CURRENT_STATE.md');
    const stateCodes = q.inbox.diagnosticsFor(uri).map((d) => String(d.code));
    expect(stateCodes.some((c) => c.startsWith('memory.state.'))).toBe(true);
    expect(stateCodes).toContain('memory.state.stale');
    const before: any = await q.client.sendRequest('gitmem/snapshot', {});
    expect(before).toMatchObject({ path: 'memory/CURRENT_STATE.md', freshness: 'stale' });
    const fresh = old
      .replace('2020-01-01T00:00:00Z', new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'))
      .replace('Ship the language server.', 'Ship the VS Code extension.');
    await q.open('memory/CURRENT_STATE.md', fresh);
    await q.inbox.until(
      () => !q.inbox.diagnosticsFor(uri).some((d) => d.code === 'memory.state.stale'),
      'stale diagnostic cleared',
    );
    const after: any = await q.client.sendRequest('gitmem/snapshot', {});
    expect(after).toMatchObject({ active: true, freshness: 'fresh' });
    expect(after.text).toContain('Ship the VS Code extension.');
    await q.close();
  });
});
