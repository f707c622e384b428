// The language server in-process over a stream pair, on a real workspace copy: its lifecycle and the
// diagnostics it publishes (every validation rule, UTF-16 columns, unsaved text, duplicate ids,
// near-duplicates). Real files, real index storage, real git; no sleeps: tests wait for notifications.
import { validate } from '../../../src/service/validate/validate.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory } from '../../../src/service/memory.js';
import { copyFixture, tempDir } from '../../support/fixtures.js';
import { createLspPair, type LspPair } from '../../support/lsp.js';
import { DUP, EMOJI, pos, startFeatureSession } from '../../support/lsp-features.js';

let p: LspPair;
let root: string;

beforeAll(async () => {
  ({ p, root } = await startFeatureSession());
});

afterAll(async () => {
  await p?.close();
});

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
    const expected = await validate(mem.context);
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

  it('R90: a verified date after tomorrow in unsaved text is a warning at the value, as validate reports it', async () => {
    const uri = p.uri('memory/entries/emoji.md');
    await p.open('memory/entries/emoji.md');
    await p.change(
      'memory/entries/emoji.md',
      2,
      EMOJI.replace('type: decison', 'type: decision\nverified: 2099-01-01'),
    );
    await p.inbox.until(() => p.inbox.diagnostics.get(uri)?.version === 2, 'diagnostics for version 2');
    const d = p.inbox.diagnosticsFor(uri).filter((x) => x.code === DiagnosticCode.verifiedDate);
    expect(d).toEqual([
      expect.objectContaining({
        severity: 2,
        range: { start: pos(3, 10), end: pos(3, 20) },
        message: 'verified date 2099-01-01 is in the future; it is ignored when checking whether cited code changed',
      }),
    ]);
    await p.client.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await p.inbox.until(() => !codes(uri).includes(DiagnosticCode.verifiedDate), 'disk diagnostics after close');
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
