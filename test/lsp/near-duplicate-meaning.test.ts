// The editor's near-duplicate diagnostic asks the one dedupe policy (issue #18): with vectors the index
// stores for both entries as they are, a reworded repeat (too few shared words for dedupe.jaccard) is
// flagged by meaning, read synchronously from the stored vectors; an unsaved buffer whose text has no
// stored vector is checked by text only, at once, without waiting for an embedding, and is checked by
// meaning once the background embedding has stored its vector (the open documents' diagnostics are
// published again then). The real language server as a process (`gitmem lsp --stdio`) and the
// shipped ONNX model.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../src/core/diagnostics.js';
import type { StatusParams } from '../../src/protocol/requests.js';
import { CLI } from '../support/fixtures.js';
import { initializeSpawned, spawnServer, type SpawnedServer } from '../support/lsp.js';
import { modelEnv } from '../support/model.js';
import { workspace } from '../support/watch.js';
import { ANN, BEN, entryFile } from '../support/repeats.js';

// A repeat by meaning too once embedded (gitmem dedupe over the indexed file: cosine 0.967 with ANN),
// Jaccard below 0.9 with both.
const EDIT = 'The payments service retries every failed webhook three times before giving up';
const BEN_FILE = entryFile('ben-retries', '2026-12-01T10:00:00Z', BEN);

const servers: SpawnedServer[] = [];
afterAll(() => servers.forEach((s) => s.kill()));

const caughtUp = (x: StatusParams) => x.state === 'ready' && x.vectorsPending === 0;

describe(
  'near-duplicate diagnostic by meaning from stored vectors (real LSP over stdio, real model)',
  { timeout: 240_000 },
  () => {
    it('flags a reworded repeat once its vectors are stored; an unsaved reworded buffer falls back to text', async () => {
      const root = workspace(
        {
          'memory/MEMORY.md': '# Memory\n\n- The staging database is reset every night.\n',
          'memory/entries/ann-retries.md': entryFile('ann-retries', '2026-11-01T10:00:00Z', ANN),
          'memory/entries/ben-retries.md': BEN_FILE,
          'memory/entries/ben-cache.md': entryFile(
            'ben-cache',
            '2026-12-01T12:00:00Z',
            'The search page caches facet counts in Redis for ten minutes',
          ),
        },
        { model: { enabled: true } },
      );
      const s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], {
        cwd: root,
        env: modelEnv(),
      });
      servers.push(s);
      await initializeSpawned(s, root);
      await s.inbox.until(
        () => s.inbox.ready !== undefined && s.inbox.statuses.some(caughtUp),
        'vectors stored',
        120_000,
      );

      const uri = pathToFileURL(join(root, 'memory', 'entries', 'ben-retries.md')).href;
      const near = () => s.inbox.diagnosticsFor(uri).filter((d) => d.code === DiagnosticCode.nearDuplicate);
      await s.client.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'markdown', version: 1, text: BEN_FILE },
      });
      // A request reads the model: the buffer is parsed and its diagnostics published before the answer.
      await s.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
      expect(near()).toHaveLength(1);
      expect(near()[0]!.data).toMatchObject({
        duplicateOf: 'ann-retries',
        otherPath: 'memory/entries/ann-retries.md',
        reason: 'meaning',
      });
      expect((near()[0]!.data as { similarity: number }).similarity).toBeGreaterThanOrEqual(0.95);
      // The quick fix the diagnostic carries is offered as for a repeat by text.
      const actions: any[] = await s.client.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: near()[0]!.range,
        context: { diagnostics: near() },
      });
      expect(actions.map((a) => a.title)).toContain('Mark as duplicate of ann-retries');

      // Unsaved text never embedded: no stored vector, so the rule by text alone answers this version
      // (the editor does not wait for an embedding).
      const edited = entryFile('ben-retries', '2026-12-01T10:00:00Z', EDIT);
      await s.client.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{ text: edited }],
      });
      const mark = s.inbox.statuses.length;
      await s.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
      expect(near()).toEqual([]);

      // The server indexes the buffer and embeds it in the background; once those vectors are stored
      // the open document's diagnostics are published again, now with the repeat by meaning.
      await s.inbox.until(() => s.inbox.statuses.slice(mark).some(caughtUp), 'the edited buffer embedded', 120_000);
      expect(near()).toHaveLength(1);
      expect(near()[0]!.data).toMatchObject({ duplicateOf: 'ann-retries', reason: 'meaning' });
    });
  },
);
