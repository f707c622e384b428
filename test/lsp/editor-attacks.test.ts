// Bad input and hostile layouts against the real language server process (gitmem lsp --stdio) over
// real stdio, one server and one workspace for the whole file (keyword mode, no model): buffers
// over the size cap or holding NUL (E03), a buffer opened through a symlink that leads out of the
// workspace (E04), a heading renamed to text that would break the [[links]] to it (E05), a burst of
// keystrokes parsed and diagnosed once instead of once per keystroke (E06), Obsidian attachment
// embeds that are not broken links (E07), a memory file moved out of the workspace (E08), links in
// Obsidian properties (E09), a refusal the extension must not let VS Code route around (E10), and
// property links diagnosed and renamed (E11), a file-level finding published once (E14).
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renameRefusal } from '../../extension/src/logic.js';
import { copyFixture, tempDir } from '../support/fixtures.js';
import { spawnCliServer, CAPABILITIES, write, type SpawnedServer } from '../support/lsp.js';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

/** limits.maxFileBytes of the workspace: small, so an over-cap buffer costs nothing to build. */
const CAP = 4000;

const entry = (id: string, body: string) =>
  ['---', `id: ${id}`, 'type: learning', 'tags: [editor]', '---', '', body, ''].join('\n');

const BIG = entry('big-note', Array.from({ length: 200 }, (_, i) => `- line ${i} see [[use-lunr]]`).join('\n'));
const NUL = entry('nul-note', '# Has\u0000NUL\n\nsee [[use-lunr]]');
const OUTSIDE = entry('outside-note', '# Outside\n\nsee [[use-lunr]] and [[no-such-id]]');
const HEADED = entry('headed', '# Rollback steps\n\nRevert the tag.');
const EMBEDS = entry('embeds', '![[diagram.png]] and ![[Books.base]] and [[spec.pdf|the spec]]; [[no-such-note]]');
const PROPS = [
  '---',
  'categories:',
  '  - "[[use-lunr]]"',
  'up: "[[headed#Rollback steps|back]]"',
  '---',
  '',
  '# People',
  '',
].join('\n');
const LINKER = entry(
  'linker',
  'Follow [[headed#Rollback steps]], [[use-lunr]] and [the steps](headed.md#rollback-steps).',
);

let root: string;
let outside: string;
let s: SpawnedServer;
const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
const versions = new Map<string, number>();
const published: PublishDiagnosticsParams[] = [];

async function open(rel: string, text: string): Promise<void> {
  versions.set(rel, 1);
  await s.client.sendNotification('textDocument/didOpen', {
    textDocument: { uri: uri(rel), languageId: 'markdown', version: 1, text },
  });
}

/** A request after notifications is answered after they were handled (one message queue). */
async function settle(): Promise<void> {
  await s.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uri('memory/MEMORY.md') } });
}

const codes = (rel: string) => s.inbox.diagnosticsFor(uri(rel)).map((d) => d.code);

beforeAll(async () => {
  root = copyFixture('default');
  write(root, 'gitmem.config.json', JSON.stringify({ version: 1, limits: { maxFileBytes: CAP } }));
  write(root, 'memory/entries/big.md', BIG);
  write(root, 'memory/entries/nul.md', NUL);
  write(root, 'memory/entries/headed.md', HEADED);
  write(root, 'memory/entries/linker.md', LINKER);
  write(root, 'memory/entries/embeds.md', EMBEDS);
  write(root, 'memory/people.md', PROPS);
  // Latin-1 bytes (é, ï) in a .md file: not valid UTF-8.
  writeFileSync(
    join(root, 'memory/entries/latin1.md'),
    Buffer.from('---\nid: latin1\ntype: learning\ntags: [enc]\n---\n\n# Caf\xe9\n\nna\xefve\n', 'latin1'),
  );
  outside = tempDir('gitmem-outside-');
  write(outside, 'secret.md', OUTSIDE);
  write(outside, 'folder/other.md', OUTSIDE.replace('outside-note', 'outside-two'));
  symlinkSync(join(outside, 'secret.md'), join(root, 'memory/entries/sym.md'));
  mkdirSync(join(root, 'memory/entries/nested'), { recursive: true });
  symlinkSync(join(outside, 'folder'), join(root, 'memory/entries/nested/out'));
  s = spawnCliServer(root);
  await s.client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
    capabilities: CAPABILITIES,
  });
  // Every publish is kept (the inbox keeps the latest per URI, and still gets each one).
  s.client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    s.inbox.diagnostics.set(p.uri, p);
    s.inbox.poke();
  });
  await s.client.sendNotification('initialized', {});
  await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
}, 60_000);

afterAll(async () => {
  await s?.client.sendRequest('shutdown').catch(() => undefined);
  s?.kill();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
  if (outside) rmSync(outside, { recursive: true, force: true });
});

describe('E03: an open buffer meets the same gate as the file on disk', () => {
  it('a buffer over limits.maxFileBytes keeps its too-large diagnostic and is not parsed', async () => {
    expect(BIG.length).toBeGreaterThan(CAP);
    await s.inbox.until(() => codes('memory/entries/big.md').length > 0, 'too-large diagnostic after load');
    expect(codes('memory/entries/big.md')).toEqual(['memory.file.too-large']);
    await open('memory/entries/big.md', BIG);
    await settle();
    const symbols = await s.client.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri: uri('memory/entries/big.md') },
    });
    expect(symbols).toEqual([]);
    expect(codes('memory/entries/big.md')).toEqual(['memory.file.too-large']);
    // Shrunk under the cap in the editor, it is parsed again; over it again, skipped again.
    const small = entry('big-note', '# Small now\n\nsee [[use-lunr]]');
    await s.client.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('memory/entries/big.md'), version: 2 },
      contentChanges: [{ text: small }],
    });
    await settle();
    expect(codes('memory/entries/big.md')).toEqual([]);
    const again: any = await s.client.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri: uri('memory/entries/big.md') },
    });
    expect(again.map((x: any) => x.name)).toEqual(['Small now']);
    await s.client.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('memory/entries/big.md'), version: 3 },
      contentChanges: [{ text: BIG }],
    });
    await settle();
    expect(codes('memory/entries/big.md')).toEqual(['memory.file.too-large']);
  });

  it('a buffer holding NUL keeps its binary diagnostic', async () => {
    await s.inbox.until(() => codes('memory/entries/nul.md').length > 0, 'binary diagnostic after load');
    await open('memory/entries/nul.md', NUL);
    await settle();
    expect(codes('memory/entries/nul.md')).toEqual(['memory.file.binary']);
    const symbols = await s.client.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri: uri('memory/entries/nul.md') },
    });
    expect(symbols).toEqual([]);
  });
});

describe('E04: a buffer reached through a symlink out of the workspace', () => {
  it('is not parsed, not diagnosed, and no rename edit ever targets it', async () => {
    await open('memory/entries/sym.md', readFileSync(join(root, 'memory/entries/sym.md'), 'utf8'));
    await open('memory/entries/nested/out/other.md', readFileSync(join(outside, 'folder/other.md'), 'utf8'));
    await settle();
    await s.inbox.until(
      () => s.inbox.logs.filter((l) => l.includes('leads outside the workspace through a symlink')).length === 2,
      'one warning per symlinked buffer',
    );
    expect(codes('memory/entries/sym.md')).toEqual([]);
    expect(codes('memory/entries/nested/out/other.md')).toEqual([]);
    const edit: any = await s.client.sendRequest('textDocument/rename', {
      textDocument: { uri: uri('memory/entries/use-lunr.md') },
      position: { line: 1, character: 6 },
      newName: 'lunr-recall',
    });
    const targets = Object.keys(edit.changes).map((u) => u.slice(pathToFileURL(root).href.length + 1));
    expect(targets.length).toBeGreaterThan(1);
    expect(targets.filter((t) => t.includes('sym.md') || t.includes('/out/'))).toEqual([]);
    expect(readFileSync(join(outside, 'secret.md'), 'utf8')).toBe(OUTSIDE);
  });
});

describe('E05: renaming a heading that [[links]] point at', () => {
  const at = { textDocument: { uri: '' }, position: { line: 6, character: 4 } };
  it('refuses a name holding link syntax, with the reason', async () => {
    at.textDocument.uri = uri('memory/entries/headed.md');
    for (const bad of ['Roll]] [[back', 'a|b', 'C# steps'])
      await expect(s.client.sendRequest('textDocument/rename', { ...at, newName: bad })).rejects.toThrow(
        /cannot be a heading that \[\[links\]\] point at: .* would break the 2 links to it/,
      );
  });

  it('the extension tells a refusal (which must end the rename in VS Code) from "nothing to rename here"', async () => {
    at.textDocument.uri = uri('memory/entries/headed.md');
    const refused = await s.client.sendRequest('textDocument/rename', { ...at, newName: 'a|b' }).catch((e) => e);
    expect(renameRefusal(refused)).toMatch(/^gitmem: "a\|b" cannot be a heading that \[\[links\]\] point at/);
    const nothing = await s.client
      .sendRequest('textDocument/rename', { ...at, position: { line: 8, character: 2 }, newName: 'x' })
      .catch((e) => e);
    expect(nothing).toBeInstanceOf(Error);
    expect(renameRefusal(nothing)).toBeUndefined();
  });

  it('a memory file moved out of the workspace is refused with a clear message (its links would break)', async () => {
    await expect(
      s.client.sendRequest('workspace/willRenameFiles', {
        files: [{ oldUri: uri('memory/entries/headed.md'), newUri: pathToFileURL(join(outside, 'headed.md')).href }],
      }),
    ).rejects.toThrow(/memory\/entries\/headed\.md would move out of the workspace/);
    await expect(
      s.client.sendRequest('workspace/willRenameFiles', {
        files: [{ oldUri: uri('memory/entries/headed.md'), newUri: uri('memory/entries/linker.md') }],
      }),
    ).rejects.toThrow(/memory\/entries\/linker\.md already exists/);
  });

  it('still renames to a plain name, links and anchors included', async () => {
    const edit: any = await s.client.sendRequest('textDocument/rename', { ...at, newName: 'Undo steps' });
    const texts = Object.values(edit.changes)
      .flat()
      .map((e: any) => e.newText)
      .sort();
    // The heading, [[headed#…]] in linker.md and in people.md's `up:` property (E11), the anchor.
    expect(texts).toEqual(['Undo steps', 'Undo steps', 'Undo steps', 'undo-steps']);
  });
});

describe('E06: a burst of keystrokes', () => {
  it('is parsed and diagnosed once it pauses or a request needs it, not once per keystroke', async () => {
    const rel = 'memory/entries/typing.md';
    const text = (i: number) => entry('typing', `see [[${i % 2 ? 'no-such-note' : 'use-lunr'}]] #${i}`);
    await open(rel, text(0));
    await settle();
    const from = published.length;
    const EDITS = 40;
    // Each edit flips the link between resolved and unresolved: diagnosing every keystroke
    // publishes a new set each time (40 before the fix).
    for (let v = 2; v <= EDITS + 1; v++)
      void s.client.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(rel), version: v },
        contentChanges: [{ text: text(v) }],
      });
    const definition = await s.client.sendRequest('textDocument/definition', {
      textDocument: { uri: uri(rel) },
      position: { line: 6, character: 7 },
    });
    // The request sees the last text (version 41: odd, the unresolved link) ...
    expect(definition).toBeNull();
    expect(codes(rel)).toEqual(['memory.link.unresolved']);
    const burst = published.slice(from).filter((p) => p.uri === uri(rel));
    expect(burst[burst.length - 1]!.version).toBe(EDITS + 1);
    // ... and the burst was diagnosed a few times at most (once when the 40 notifications arrive
    // together; a starved CI process may pause between some of them).
    expect(burst.length).toBeLessThan(EDITS / 4);
  });
});

describe('E07: Obsidian attachments in [[…]]', () => {
  it('an embed of a non-markdown file is not an unresolved link; a missing note still is', async () => {
    await open('memory/entries/embeds.md', EMBEDS);
    await settle();
    const d = s.inbox.diagnosticsFor(uri('memory/entries/embeds.md'));
    expect(d.map((x) => x.message)).toEqual(['[[no-such-note]] matches no memory id or file name']);
  });
});

describe('E09: [[links]] in front-matter values (Obsidian properties)', () => {
  it('go to their target, and hover previews it', async () => {
    await open('memory/people.md', PROPS);
    const at = (line: number, character: number) => ({
      textDocument: { uri: uri('memory/people.md') },
      position: { line, character },
    });
    const first: any = await s.client.sendRequest('textDocument/definition', at(2, 8));
    expect(first.map((l: any) => l.uri)).toEqual([uri('memory/entries/use-lunr.md')]);
    const second: any = await s.client.sendRequest('textDocument/definition', at(3, 9));
    expect(second.map((l: any) => l.uri)).toEqual([uri('memory/entries/headed.md')]);
    const hover: any = await s.client.sendRequest('textDocument/hover', at(2, 8));
    expect(hover.contents.value).toContain('Use lunr for keyword recall');
    expect(await s.client.sendRequest('textDocument/definition', at(1, 3))).toBeNull();
  });
});

describe('E11: [[links]] in front-matter values are diagnosed and renamed like body links', () => {
  // An emoji (two UTF-16 units) before a link: ranges are in UTF-16 columns.
  const VAULT = [
    '---',
    'related: ["[[nowhere-note]]", "[[use-lunr|lunr]]"]',
    'mood: "🙂 see [[also-missing#Part]]"',
    'up: "[[headed#Rollback steps]]"',
    '---',
    '',
    'Body text.',
    '',
  ].join('\n');

  it('an unresolved property link gets the unresolved-link warning at its own range', async () => {
    write(root, 'memory/vault.md', VAULT);
    await open('memory/vault.md', VAULT);
    await settle();
    const d = s.inbox.diagnosticsFor(uri('memory/vault.md')).filter((x) => x.code === 'memory.link.unresolved');
    expect(d.map((x) => [x.message, x.range])).toEqual([
      [
        '[[nowhere-note]] matches no memory id or file name',
        { start: { line: 1, character: 11 }, end: { line: 1, character: 27 } },
      ],
      [
        '[[also-missing]] matches no memory id or file name',
        { start: { line: 2, character: 14 }, end: { line: 2, character: 35 } },
      ],
    ]);
  });

  it('renaming an entry id rewrites the property links to it', async () => {
    const edit: any = await s.client.sendRequest('textDocument/rename', {
      textDocument: { uri: uri('memory/vault.md') },
      position: { line: 1, character: 34 },
      newName: 'lunr-recall',
    });
    expect(edit.changes[uri('memory/vault.md')]).toEqual([
      { range: { start: { line: 1, character: 33 }, end: { line: 1, character: 41 } }, newText: 'lunr-recall' },
    ]);
    expect(edit.changes[uri('memory/people.md')]?.length).toBe(1);
  });

  it('a heading rename counts and rewrites them, and refuses quotes that would break their YAML', async () => {
    const at = { textDocument: { uri: uri('memory/entries/headed.md') }, position: { line: 6, character: 4 } };
    await expect(s.client.sendRequest('textDocument/rename', { ...at, newName: 'Say "undo"' })).rejects.toThrow(
      /"Say "undo"" cannot be a heading that front-matter \[\[links\]\] point at: '"' can end or change the YAML value around the 2 links/,
    );
    const edit: any = await s.client.sendRequest('textDocument/rename', { ...at, newName: 'Undo steps' });
    expect(edit.changes[uri('memory/vault.md')]).toEqual([
      { range: { start: { line: 3, character: 14 }, end: { line: 3, character: 28 } }, newText: 'Undo steps' },
    ]);
  });
});

describe('E14: a file-level finding on a file that is also parsed', () => {
  it('is published once, not once per list the file is in', async () => {
    await s.inbox.until(() => codes('memory/entries/latin1.md').length > 0, 'diagnostics of latin1.md after load');
    expect(codes('memory/entries/latin1.md')).toEqual(['memory.file.invalid-utf8']);
  });
});
