// The language server in-process over a stream pair, on a real workspace copy: completion, navigation
// (hover, definition, references, symbols) and code actions. Real files, real index storage, real git;
// no sleeps: tests wait for notifications.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { write, type LspPair } from '../../support/lsp.js';
import { pos, startFeatureSession } from '../../support/lsp-features.js';

let p: LspPair;
let root: string;

beforeAll(async () => {
  ({ p, root } = await startFeatureSession());
});

afterAll(async () => {
  await p?.close();
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
