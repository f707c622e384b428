// Issue 41, items 4 and 5, through a real `gitmem lsp --stdio` and a protocol client: with a
// MEMORY.md that holds an injected "system note", a Stripe live key and a private key block, the
// editor gets `memory.injection.suspect` on the note; `gitmem/recall` (what an agent in the editor
// is given) labels the note and masks both secrets; and no file of the derived state the server
// wrote (.gitmem/) holds a secret. (CLI and MCP: test/integration/trust/trust-safety.test.ts.)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../src/core/diagnostics.js';
import { requireBuiltCli } from '../support/fixtures.js';
import { initializeSpawned, spawnCliServer, type SpawnedServer } from '../support/lsp.js';
import {
  derivedFilesWithSecrets,
  INJECTED,
  LABEL,
  MEMORY_MD,
  secretsIn,
  STRIPE_MASKED,
  trustWorkspace,
  unlabelled,
} from '../support/trust-workspace.js';

let s: SpawnedServer | undefined;
let base = '';
let ws = '';

beforeAll(async () => {
  requireBuiltCli();
  ({ base, ws } = trustWorkspace());
  s = spawnCliServer(ws);
  await initializeSpawned(s, ws);
  await s.inbox.until(() => s!.inbox.ready !== undefined, 'gitmem/ready', 120_000);
});

afterAll(async () => {
  if (s) {
    await s.client.sendRequest('shutdown').catch(() => undefined);
    s.kill();
    await s.exited();
  }
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('injected instructions and secrets in memory, through the language server', () => {
  it('publishes memory.injection.suspect on the injected note', async () => {
    const uri = pathToFileURL(join(ws, 'memory/MEMORY.md')).href;
    await s!.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text: MEMORY_MD },
    });
    await s!.inbox.until(
      () => s!.inbox.diagnosticsFor(uri).some((d) => d.code === DiagnosticCode.injectionSuspect),
      'injection diagnostic',
    );
    const d = s!.inbox.diagnosticsFor(uri).find((x) => x.code === DiagnosticCode.injectionSuspect)!;
    expect(d.range.start).toEqual({ line: 3, character: 25 });
    expect(d.severity).toBe(2);
    expect(d.message).toMatch(/asks to ignore earlier instructions/);
  });

  it('gitmem/recall labels the note and masks both secrets', async () => {
    const r = (await s!.client.sendRequest('gitmem/recall', {
      query: 'billing deploy pipeline key',
      mode: 'keyword',
    })) as { results: { path: string; snippet: string; injection?: { line: number }[] }[] };
    const hit = r.results.find((h) => h.path === 'memory/MEMORY.md')!;
    expect(hit.injection?.map((f) => f.line)).toEqual([4]);
    expect(hit.snippet).toContain(`${LABEL} ${INJECTED}`);
    for (const h of r.results) expect(unlabelled(h.snippet)).toEqual([]);
    expect(secretsIn(JSON.stringify(r))).toEqual([]);
    expect(JSON.stringify(r)).toContain(STRIPE_MASKED);
  });

  it('leaves no secret in any file of the derived state it wrote', () => {
    expect(derivedFilesWithSecrets(join(ws, '.gitmem'))).toEqual([]);
  });
});
