// R143 (docs/bad-inputs.md), through a real `gitmem lsp --stdio` and a protocol client: what the
// language server shows about a memory holding credentials (its id, title, tags, source, body) is
// masked as recall masks it. The hover on a [[link]] previewed the linked entry with its tags, title,
// source values and first body lines as written (a GitHub token as a tag, an AWS key id in the title,
// a Stripe key as the session, a password in the body); completion, document and workspace symbols
// and the diagnostics of a broken link are checked the same way.
import { describe, expect, it } from 'vitest';
import { spawnedWorkspace } from '../support/lsp-spawned-workspace.js';

// Made-up values built at run time, so the source holds no key literal.
const GH = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7h8`;
const AWS = `AKIA${'Z7QW3RT5YU8OP2LK'}`;
const STRIPE = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const PASSWORD = 'S3cretP4ss!word';
const SECRETS = [GH.slice(4), AWS.slice(4), AWS.slice(4).toLowerCase(), STRIPE.slice(8), PASSWORD];

const KEYS = [
  '---',
  'id: deploy-keys',
  'type: decision',
  `title: Deploy key ${AWS}`,
  `tags: [deploy, ${GH}]`,
  'source:',
  `  session: ${STRIPE}`,
  '---',
  '',
  `# Rotation ${GH}`,
  '',
  `The staging password = ${PASSWORD} until Friday.`,
  '',
].join('\n');
const LINKER = [
  '---',
  'id: linker',
  'type: learning',
  'tags: [editor]',
  '---',
  '',
  'See [[deploy-keys]] for the rotation.',
  `Also [[${GH}]] which is gone.`,
  '',
].join('\n');

const ws = spawnedWorkspace(
  { 'memory/entries/deploy-keys.md': KEYS, 'memory/entries/linker.md': LINKER },
  'memory/entries/linker.md',
);
const uri = (rel: string) => ws.uri(rel);

function expectMasked(value: unknown): void {
  const shown = JSON.stringify(value);
  for (const x of SECRETS) expect(shown).not.toContain(x);
}
describe('the language server shows a memory’s credentials masked (R143)', () => {
  it('the hover on a link previews the entry with its tags, title, source and body masked', async () => {
    const h = (await ws.server.client.sendRequest('textDocument/hover', {
      textDocument: { uri: uri('memory/entries/linker.md') },
      position: { line: 6, character: 8 },
    })) as { contents: { value: string } } | null;
    expect(h?.contents.value).toMatch(/deploy-keys/);
    expect(h!.contents.value).toMatch(/\[redacted: GitHub token\]/);
    expectMasked(h);
  });

  it('the hover on a link to a missing id holding a token shows it masked', async () => {
    const h = (await ws.server.client.sendRequest('textDocument/hover', {
      textDocument: { uri: uri('memory/entries/linker.md') },
      position: { line: 7, character: 10 },
    })) as { contents: { value: string } } | null;
    expect(h?.contents.value).toMatch(/no memory has this id/);
    expectMasked(h);
    // The broken link's diagnostic names the target as the file holds it: masked.
    await ws.server.inbox.until(
      () => ws.server.inbox.diagnosticsFor(uri('memory/entries/linker.md')).length > 0,
      'diagnostics',
    );
    const diags = ws.server.inbox.diagnosticsFor(uri('memory/entries/linker.md'));
    expect(JSON.stringify(diags)).toMatch(/redacted: GitHub token/);
    expectMasked(diags);
  });

  it('completion of a link, document and workspace symbols show them masked', async () => {
    const completion = await ws.server.client.sendRequest('textDocument/completion', {
      textDocument: { uri: uri('memory/entries/linker.md') },
      position: { line: 6, character: 6 },
    });
    expect(JSON.stringify(completion)).toContain('deploy-keys');
    expectMasked(completion);
    await ws.server.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uri('memory/entries/deploy-keys.md'), languageId: 'markdown', version: 1, text: KEYS },
    });
    const symbols = await ws.server.client.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri: uri('memory/entries/deploy-keys.md') },
    });
    expect(JSON.stringify(symbols)).toContain('Rotation');
    expectMasked(symbols);
    const found = await ws.server.client.sendRequest('workspace/symbol', { query: 'Rotation' });
    expectMasked(found);
  });
});
