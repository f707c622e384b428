// A save is parsed once: the editor model and the index share the Memory's parse cache, so an edit
// in the editor (or a file changed on disk) is parsed by the model, and the index update that
// follows reuses that parse. Counted by wrapping the real parser (parse/parse-document.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyFixture } from '../support/fixtures.js';
import { createLspPair, type LspPair } from '../support/lsp.js';

const parses = vi.hoisted(() => new Map<string, number>());

vi.mock('../../src/parse/parse-document.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/parse/parse-document.js')>();
  return {
    ...real,
    parseDocument: (input: Parameters<typeof real.parseDocument>[0]) => {
      parses.set(input.path, (parses.get(input.path) ?? 0) + 1);
      return real.parseDocument(input);
    },
  };
});

const REL = 'memory/entries/use-lunr.md';
const TEXT = (word: string) => `---\nid: use-lunr\ntype: decision\n---\n\nlunr for keyword recall: ${word}.\n`;

let p: LspPair | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

async function settled(pair: LspPair, before: number, word: string): Promise<void> {
  await pair.inbox.until(() => pair.server.updates() > before, 'the index update');
  const r: any = await pair.client.sendRequest('gitmem/recall', { query: word, mode: 'keyword' });
  expect(r.results.map((x: any) => x.path)).toEqual([REL]);
}

describe('a save is parsed once, from the shared parse cache', () => {
  it('an edit and its save: one parse of the new text, one index update', async () => {
    const root = copyFixture('default');
    p = createLspPair(root, { reindexDelayMs: 30 });
    await p.start();
    await p.open(REL);
    parses.clear();
    const before = p.server.updates();
    await p.change(REL, 2, TEXT('wombat'));
    writeFileSync(join(root, REL), TEXT('wombat'));
    await p.client.sendNotification('textDocument/didSave', { textDocument: { uri: p.uri(REL) } });
    await settled(p, before, 'wombat');
    expect(p.server.updates()).toBe(before + 1);
    expect(parses.get(REL)).toBe(1);
  });

  it('a file changed on disk (watcher event): one parse for the model and the index', async () => {
    const root = copyFixture('default');
    p = createLspPair(root, { reindexDelayMs: 30 });
    await p.start();
    parses.clear();
    const before = p.server.updates();
    writeFileSync(join(root, REL), TEXT('numbat'));
    await p.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.uri(REL), type: 2 }] });
    await settled(p, before, 'numbat');
    expect(parses.get(REL)).toBe(1);
    expect([...parses.keys()]).toEqual([REL]);
  });
});
