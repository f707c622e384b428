// The language server in-process over a stream pair: every feature against a real workspace copy
// (real files, real index storage, real git). No sleeps: tests wait for notifications.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../src/core/diagnostics.js';
import { createIndexStorage } from '../../src/platform/index-storage.js';
import { createNodeFs } from '../../src/platform/node-fs.js';
import { createMemory } from '../../src/service/memory.js';
import { copyFixture, git, tempDir, initRepoOnMain } from '../support/fixtures.js';
import { createLspPair, write, type LspPair } from '../support/lsp.js';

const EMOJI = [
  '---',
  'id: emoji-note',
  'type: decison',
  'tags: [search, editor]',
  '---',
  '',
  '- 🚀 see [[no-such-entry]] now',
  '- 日本語のメモ [[missing-two]]',
  '',
].join('\n');

const DUP = [
  '---',
  'id: lunr-again',
  'type: decision',
  'title: Lunr for keyword recall again',
  'tags: [search]',
  'created: 2026-11-29',
  '---',
  '',
  'lunr gives BM25 ranking with no server and no native code. See [[tokenizer-splits-identifiers]].',
  '',
].join('\n');

const CRLF = [
  '---',
  'id: crlf-entry',
  'type: learnin',
  'tags: [search]',
  '---',
  '',
  'Windows line ends stay whole.',
  '',
].join('\r\n');

let p: LspPair;
let root: string;

beforeAll(async () => {
  root = copyFixture('default');
  write(root, 'memory/entries/emoji.md', EMOJI);
  write(root, 'memory/entries/lunr-again.md', DUP);
  write(root, 'memory/entries/crlf.md', CRLF);
  write(root, 'src/indexes/lexical.ts', 'export {};\n');
  write(root, 'src/cli/main.ts', 'export {};\n');
  initRepoOnMain(root, 'seed');
  p = createLspPair(root);
  await p.start();
});

afterAll(async () => {
  await p?.close();
});

const pos = (line: number, character: number) => ({ line, character });
const codes = (uri: string) => p.inbox.diagnosticsFor(uri).map((d) => d.code);

describe('lifecycle', () => {
  it('initialize answers with the capabilities; status goes starting → indexing → ready; gitmem/ready carries counts', async () => {
    const q = createLspPair(root);
    const { result } = await q.start();
    expect(result.capabilities).toMatchObject({
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      completionProvider: { triggerCharacters: expect.arrayContaining(['[', ':']) },
      textDocumentSync: { openClose: true, change: 2 },
    });
    expect(result.serverInfo.name).toBe('gitmem');
    const states = q.inbox.statuses.map((s) => s.state);
    expect(states[0]).toBe('starting');
    expect(states).toContain('indexing');
    expect(states[states.length - 1]).toBe('ready');
    expect(q.inbox.ready).toMatchObject({
      files: 9,
      chunks: expect.any(Number),
      source: expect.stringMatching(/built|loaded/),
    });
    // B30: the server asks the client to watch files (one source of events), and starts no watcher of its own.
    expect(JSON.stringify(q.inbox.registrations)).toContain('workspace/didChangeWatchedFiles');
    expect(await q.client.sendRequest('gitmem/getStatus', {})).toMatchObject({ state: 'ready', files: 9 });
    await q.close();
  });
});

describe('diagnostics', () => {
  it('publishes every validation rule, the same findings as Memory.validate (the CLI)', async () => {
    const broken = copyFixture('broken');
    const q = createLspPair(broken);
    await q.start();
    const mem = await createMemory({
      fs: createNodeFs(broken),
      openStorage: () => createIndexStorage(join(tempDir(), 'i')),
    });
    const expected = await mem.validate();
    const byUri = new Map<string, string[]>();
    for (const d of expected) {
      const key = q.uri(d.path);
      byUri.set(key, [
        ...(byUri.get(key) ?? []),
        `${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
      ]);
    }
    for (const [uri, want] of byUri) {
      const got = q.inbox
        .diagnosticsFor(uri)
        .map(
          (d) =>
            `${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
        );
      expect(got.sort(), uri).toEqual(want.sort());
    }
    const all = new Set([...q.inbox.diagnostics.values()].flatMap((x) => x.diagnostics.map((d) => d.code)));
    for (const c of [
      DiagnosticCode.invalidYaml,
      DiagnosticCode.unsupportedLanguage,
      DiagnosticCode.unclosedFrontMatter,
      DiagnosticCode.invalidValue,
      DiagnosticCode.unknownField,
      DiagnosticCode.invalidDate,
      DiagnosticCode.duplicateId,
      DiagnosticCode.unresolvedLink,
      DiagnosticCode.binaryFile,
    ]) {
      expect(all, c).toContain(c);
    }
    const d = q.inbox.diagnosticsFor(q.uri('memory/entries/wrong-type.md'))[0]!;
    expect(d).toMatchObject({ source: 'gitmem', severity: 1 });
    await mem.dispose();
    await q.close();
  });

  it('UTF-16 columns: a link after an emoji and after CJK text', () => {
    const ds = p.inbox
      .diagnosticsFor(p.uri('memory/entries/emoji.md'))
      .filter((d) => d.code === DiagnosticCode.unresolvedLink);
    // '- 🚀 see ' is 9 UTF-16 units (the emoji is 2; 11 UTF-8 bytes), '- 日本語のメモ ' is 9 (21 bytes).
    expect(ds.map((d) => d.range)).toEqual([
      { start: pos(6, 9), end: pos(6, 26) },
      { start: pos(7, 9), end: pos(7, 24) },
    ]);
  });

  it('didChange re-validates the unsaved text at once; close goes back to the disk', async () => {
    const uri = p.uri('memory/entries/emoji.md');
    await p.open('memory/entries/emoji.md');
    await p.change(
      'memory/entries/emoji.md',
      2,
      EMOJI.replace('type: decison', 'type: decision').replace('[[no-such-entry]]', '[[use-lunr]]'),
    );
    await p.inbox.until(() => p.inbox.diagnostics.get(uri)?.version === 2, 'diagnostics for version 2');
    expect(codes(uri)).toEqual([DiagnosticCode.unresolvedLink]);
    expect(p.inbox.diagnostics.get(uri)!.diagnostics[0]!.range.start).toEqual(pos(7, 9));
    await p.client.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await p.inbox.until(() => codes(uri).includes(DiagnosticCode.invalidValue), 'disk diagnostics after close');
    expect(codes(uri).filter((c) => c === DiagnosticCode.unresolvedLink)).toHaveLength(2);
  });

  it('an id that appears twice in unsaved text marks both files; fixing it clears the other file too', async () => {
    const rel = 'memory/entries/lunr-again.md';
    const other = p.uri('memory/entries/use-lunr.md');
    await p.open(rel, DUP);
    await p.change(rel, 2, DUP.replace('id: lunr-again', 'id: use-lunr'));
    await p.inbox.until(() => codes(other).includes(DiagnosticCode.duplicateId), 'duplicate id on the other file');
    await p.change(rel, 3, DUP);
    await p.inbox.until(() => !codes(other).includes(DiagnosticCode.duplicateId), 'duplicate id cleared');
    await p.client.sendNotification('textDocument/didClose', { textDocument: { uri: p.uri(rel) } });
  });

  it('near-duplicate of an open entry, with a "mark as duplicate" fix that edits the front-matter', async () => {
    const rel = 'memory/entries/lunr-again.md';
    const uri = p.uri(rel);
    await p.open(rel, DUP);
    await p.inbox.until(() => codes(uri).includes(DiagnosticCode.nearDuplicate), 'near-duplicate diagnostic');
    const d = p.inbox.diagnosticsFor(uri).find((x) => x.code === DiagnosticCode.nearDuplicate)!;
    expect(d.data).toMatchObject({ duplicateOf: 'use-lunr', otherPath: 'memory/entries/use-lunr.md' });
    const actions: any[] = await p.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    });
    const mark = actions.find((a) => a.title === 'Mark as duplicate of use-lunr');
    expect(mark).toMatchObject({ kind: 'quickfix', isPreferred: true });
    expect(mark.edit.changes[uri]).toEqual([
      { range: { start: pos(6, 0), end: pos(6, 0) }, newText: 'duplicate_of: use-lunr\n' },
    ]);
    await p.client.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });
});

describe('completion', () => {
  const complete = async (uri: string, line: number, character: number) => {
    const r: any = await p.client.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: pos(line, character),
    });
    return (Array.isArray(r) ? r : (r?.items ?? [])) as any[];
  };

  it('type enum in front-matter, replacing the typed value', async () => {
    const uri = p.uri('memory/entries/emoji.md');
    const items = await complete(uri, 2, 'type: decison'.length);
    expect(items[0].label).toBe('decision');
    expect(items).toHaveLength(7);
    expect(items[0].textEdit).toEqual({ range: { start: pos(2, 6), end: pos(2, 13) }, newText: 'decision' });
    const all = await complete(uri, 2, 6);
    expect(all.map((i) => i.label)).toEqual([
      'error_fix',
      'discovery',
      'decision',
      'learning',
      'warning',
      'codebase_knowledge',
      'preference',
    ]);
  });

  it('tags in use, entry ids inside [[, code file paths under files:', async () => {
    const rel = 'memory/entries/draft.md';
    const text = ['---', 'type: learning', 'tags: [se]', 'files:', '  - src/ind', '---', '', 'see [[tok', ''].join(
      '\n',
    );
    write(root, rel, text);
    await p.open(rel, text);
    const uri = p.uri(rel);
    const tags = await complete(uri, 2, 'tags: [se'.length);
    expect(tags[0]).toMatchObject({ label: 'search', detail: expect.stringContaining('used by') });
    const ids = await complete(uri, 7, 'see [[tok'.length);
    expect(ids.map((i) => i.label)).toEqual(['tokenizer-splits-identifiers']);
    expect(ids[0].textEdit.newText).toBe('tokenizer-splits-identifiers]]');
    const files = await complete(uri, 4, '  - src/ind'.length);
    expect(files.map((i) => i.label)).toEqual(['src/indexes/lexical.ts']);
    await p.client.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('B14: completion at the end of a CRLF line stays on that line', async () => {
    const uri = p.uri('memory/entries/crlf.md');
    const items = await complete(uri, 2, 'type: learnin'.length);
    expect(items[0].label).toBe('learning');
    expect(items[0].textEdit.range).toEqual({ start: pos(2, 6), end: pos(2, 13) });
  });
});

describe('navigation', () => {
  it('hover on [[id]] previews the entry: title, type, tags, path, body', async () => {
    const h: any = await p.client.sendRequest('textDocument/hover', {
      textDocument: { uri: p.uri('memory/entries/use-lunr.md') },
      position: pos(11, 70),
    });
    expect(h.contents.kind).toBe('markdown');
    expect(h.contents.value).toContain('**The tokenizer splits code identifiers**');
    expect(h.contents.value).toContain('type `learning`');
    expect(h.contents.value).toContain('`#search`');
    expect(h.contents.value).toContain('`memory/entries/tokenizer-splits-identifiers.md`');
    expect(h.range.start.line).toBe(11);
  });

  it('hover shows source provenance; unknown ids say so', async () => {
    const rel = 'memory/entries/prov.md';
    const text = [
      '---',
      'id: prov',
      'type: discovery',
      'title: With provenance',
      'source:',
      '  agent: claude-code',
      '  session: s-42',
      '---',
      'body [[prov]] and [[nope]]',
      '',
    ].join('\n');
    await p.open(rel, text);
    const uri = p.uri(rel);
    await p.inbox.until(() => p.inbox.diagnostics.has(uri), 'diagnostics for prov');
    const h: any = await p.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: pos(8, 8) });
    expect(h.contents.value).toContain('source: agent `claude-code` · session `s-42`');
    const none: any = await p.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: pos(8, 22) });
    expect(none.contents.value).toContain('no memory has this id');
    await p.client.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('definition of [[id]] is the id in the target file; references find links and duplicate_of', async () => {
    const defs: any = await p.client.sendRequest('textDocument/definition', {
      textDocument: { uri: p.uri('memory/entries/use-lunr.md') },
      position: pos(11, 70),
    });
    expect(defs).toEqual([
      { uri: p.uri('memory/entries/tokenizer-splits-identifiers.md'), range: { start: pos(1, 4), end: pos(1, 32) } },
    ]);
    const refs: any[] = await p.client.sendRequest('textDocument/references', {
      textDocument: { uri: p.uri('memory/entries/tokenizer-splits-identifiers.md') },
      position: pos(1, 6),
      context: { includeDeclaration: true },
    });
    const where = refs.map((r) => `${r.uri.slice(r.uri.indexOf('memory/'))}:${r.range.start.line}`);
    expect(where).toEqual([
      'memory/entries/tokenizer-splits-identifiers.md:1',
      'memory/entries/lunr-again.md:8',
      'memory/entries/use-lunr.md:11',
    ]);
  });

  it('document symbols are the heading tree', async () => {
    const syms: any[] = await p.client.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri: p.uri('memory/MEMORY.md') },
    });
    expect(syms.map((s) => s.name)).toEqual(['Memory']);
    expect(syms[0].children.map((s: any) => s.name)).toEqual(['Architecture', 'Tooling']);
    expect(syms[0].children[0].range).toEqual({ start: pos(2, 0), end: pos(6, 0) });
  });

  it('workspace symbols come from recall; an empty query lists entries', async () => {
    const syms: any[] = await p.client.sendRequest('workspace/symbol', { query: 'lunr BM25' });
    expect(syms[0]).toMatchObject({ name: 'use-lunr', containerName: 'memory/entries/use-lunr.md', kind: 20 });
    expect(syms[0].location.uri).toBe(p.uri('memory/entries/use-lunr.md'));
    const all: any[] = await p.client.sendRequest('workspace/symbol', { query: '' });
    expect(all.map((s) => s.name)).toEqual(expect.arrayContaining(['use-lunr', 'old-search', 'emoji-note']));
  });
});

describe('code actions', () => {
  it('fix an invalid enum value: closest value first and preferred', async () => {
    const uri = p.uri('memory/entries/emoji.md');
    const d = p.inbox.diagnosticsFor(uri).find((x) => x.code === DiagnosticCode.invalidValue)!;
    const actions: any[] = await p.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    });
    expect(actions[0]).toMatchObject({ title: 'Change type to "decision"', kind: 'quickfix', isPreferred: true });
    expect(actions[0].edit.changes[uri]).toEqual([
      { range: { start: pos(2, 6), end: pos(2, 13) }, newText: 'decision' },
    ]);
    expect(actions.filter((a) => a.kind === 'quickfix')).toHaveLength(7);
  });

  it('B14: a fix in a CRLF file inserts a CRLF line and never splits \\r\\n', async () => {
    const uri = p.uri('memory/entries/crlf.md');
    const d = p.inbox.diagnosticsFor(uri).find((x) => x.code === DiagnosticCode.invalidValue)!;
    expect(d.range).toEqual({ start: pos(2, 0), end: pos(2, 4) });
    const actions: any[] = await p.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    });
    expect(actions[0].edit.changes[uri]).toEqual([
      { range: { start: pos(2, 6), end: pos(2, 13) }, newText: 'learning' },
    ]);
  });

  it('move a bullet of MEMORY.md into a new entry (create + link back)', async () => {
    const uri = p.uri('memory/MEMORY.md');
    const actions: any[] = await p.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: pos(4, 3), end: pos(4, 3) },
      context: { diagnostics: [] },
    });
    const move = actions.find((a) => a.title.startsWith('Move this bullet into a new entry'));
    expect(move.kind).toBe('refactor.move');
    const [create, fill, edit] = move.edit.documentChanges;
    expect(create).toMatchObject({
      kind: 'create',
      uri: expect.stringMatching(
        /memory\/entries\/\d{4}-\d{2}-\d{2}-the-cli-and-the-language-server-share-one-service-layer[\w-]*\.md$/,
      ),
    });
    expect(fill.edits[0].newText).toContain('type: learning');
    expect(fill.edits[0].newText).toContain(
      'The CLI and the language server share one service layer; only adapters differ.',
    );
    expect(edit.edits[0].range).toEqual({ start: pos(4, 0), end: pos(5, 0) });
    expect(edit.edits[0].newText).toMatch(
      /^- \[\[\d{4}-\d{2}-\d{2}-the-cli-and-the-language-server-share-one-service-layer[\w-]*\]\]\n$/,
    );
  });
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
