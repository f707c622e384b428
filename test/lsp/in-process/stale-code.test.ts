// Issue 41 item 2 in the editor, over the real language server in a real git repository with
// history: memories whose cited code was edited, deleted or lost a cited name get the
// `memory.code.stale` diagnostic on the citation's line (computed in the background, published when
// ready); the actions are offered (show the diff, mark verified, supersede); `gitmem/codeDiff` returns
// the code's diff since the memory; applying "mark verified" writes `verified:` and clears it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { gitAt, removeRepo, webhookRepo } from '../../support/code-repo.js';
import { createLspPair, write, type LspPair } from '../../support/lsp.js';
import { applyWorkspaceEdit } from '../../support/workspace-edit.js';

const STALE = DiagnosticCode.codeStale;
const WEBHOOK = 'memory/entries/billing-webhook.md';
const LEGACY = 'memory/entries/legacy.md';
const LOGGING = 'memory/entries/logging.md';
const entry = (id: string, file: string, body: string) =>
  `---\nid: ${id}\ntype: codebase_knowledge\ntags: [code]\ncreated: 2026-01-06\nfiles: [${file}]\n---\n\n${body}\n`;

let root: string;
let p: LspPair;
let baseline: string;

beforeAll(async () => {
  root = webhookRepo(); // the webhook entry and its code, committed 2026-01-05
  write(root, 'src/legacy/old.ts', 'export const OLD = 1;\n');
  write(root, 'src/api/server.ts', 'export function startServer(port: number) {\n  return port;\n}\n');
  write(root, 'src/util/log.ts', 'export function log(s: string) {\n  console.log(s);\n}\n');
  write(root, LEGACY, entry('legacy', 'src/legacy/old.ts', 'The legacy module holds the old flag.'));
  write(root, LOGGING, entry('logging', 'src/util/log.ts', 'Log lines go through `log`.'));
  write(
    root,
    'memory/MEMORY.md',
    '# Memory\n\n- Invoices are numbered per customer.\n- The API boots with `startServer` in src/api/server.ts on port 8080.\n',
  );
  gitAt(root, '2026-01-06T10:00:00Z', 'add', '-A');
  gitAt(root, '2026-01-06T10:00:00Z', 'commit', '-q', '-m', 'more code and memory');
  baseline = gitAt(root, '2026-01-06T10:00:00Z', 'rev-parse', 'HEAD~1');
  // Then the code moves on: the webhook is rewritten, old.ts deleted, startServer renamed.
  write(
    root,
    'src/billing/webhook.ts',
    "import { verify } from './stripe.js';\n\nexport function handleWebhook(body: string, signature: string) {\n  const event = JSON.parse(body);\n  queue.push(event);\n  return event;\n}\n",
  );
  rmSync(join(root, 'src/legacy/old.ts'));
  write(root, 'src/api/server.ts', 'export function bootServer(port: number) {\n  return port;\n}\n');
  gitAt(root, '2026-02-01T10:00:00Z', 'add', '-A');
  gitAt(root, '2026-02-01T10:00:00Z', 'commit', '-q', '-m', 'rewrite webhook, drop legacy, rename startServer');
  p = createLspPair(root, { clock: { now: () => new Date('2026-03-01T09:00:00Z') } });
  await p.start();
}, 60_000);

afterAll(async () => {
  await p?.close();
  if (root) removeRepo(root);
});

const staleOf = (rel: string) => p.inbox.diagnosticsFor(p.uri(rel)).filter((d) => d.code === STALE);
const actions = (rel: string, line: number) =>
  p.client.sendRequest('textDocument/codeAction', {
    textDocument: { uri: p.uri(rel) },
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    context: { diagnostics: [] },
  }) as Promise<any[]>;

describe('stale cited code in the editor', () => {
  it('flags an entry whose cited file changed, on its files: item, and leaves a fresh one alone', async () => {
    await p.open(LOGGING);
    await p.open(WEBHOOK);
    await p.inbox.until(() => staleOf(WEBHOOK).length > 0, 'stale-code diagnostic on the webhook entry');
    const [d, ...rest] = staleOf(WEBHOOK);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({
      severity: 3,
      message: `src/billing/webhook.ts changed in 1 commit (5 lines) since this memory was written (${baseline.slice(0, 7)})`,
      // `files: [src/billing/webhook.ts]` is line 5; the path starts after `files: [`.
      range: { start: { line: 5, character: 8 }, end: { line: 5, character: 30 } },
      data: { path: 'src/billing/webhook.ts', status: 'code-changed', commits: 1, changedLines: 5, since: baseline },
    });
    // Both were checked in the same background run: the unchanged code gives nothing.
    expect(staleOf(LOGGING)).toEqual([]);
  });

  it('flags a deleted cited file and a cited name that is gone (on the backticked name)', async () => {
    await p.open(LEGACY);
    await p.open('memory/MEMORY.md');
    await p.inbox.until(
      () => staleOf(LEGACY).length > 0 && staleOf('memory/MEMORY.md').length > 0,
      'stale-code diagnostics on the legacy entry and MEMORY.md',
    );
    expect(staleOf(LEGACY)).toEqual([
      expect.objectContaining({
        severity: 2,
        message: `src/legacy/old.ts was deleted since this memory was written (${(
          staleOf(LEGACY)[0]!.data as { since: string }
        ).since.slice(0, 7)})`,
        range: { start: { line: 5, character: 8 }, end: { line: 5, character: 25 } },
      }),
    ]);
    const mem = staleOf('memory/MEMORY.md');
    const missing = mem.find((x) => (x.data as { status: string }).status === 'name-missing')!;
    expect(missing).toMatchObject({
      severity: 2,
      message: '`startServer` is no longer defined in src/api/server.ts',
      range: { start: { line: 3, character: 22 }, end: { line: 3, character: 33 } },
    });
    const changed = mem.find((x) => (x.data as { status: string }).status === 'code-changed')!;
    // The path in the bullet's text: `- The API boots with `startServer` in src/api/server.ts …`.
    expect(changed.range).toEqual({ start: { line: 3, character: 38 }, end: { line: 3, character: 55 } });
  });

  it('offers show-the-diff, mark verified and supersede; the diff request returns the code change', async () => {
    const got = (await actions(WEBHOOK, 5)).filter((a) => a.diagnostics?.[0]?.code === STALE);
    expect(got.map((a) => a.title)).toEqual([
      'Show the changes to src/billing/webhook.ts since this memory',
      'Mark verified: still true (verified: 2026-03-01)',
      'Supersede: new entry 2026-03-01-billing-webhook that replaces billing-webhook',
    ]);
    expect(got[0].command).toEqual({
      title: 'Show the changes to src/billing/webhook.ts since this memory',
      command: 'gitmem.openCodeDiff',
      arguments: [{ path: 'src/billing/webhook.ts', since: baseline }],
    });
    expect(got[0].edit).toBeUndefined();
    const draft = got[2].edit.documentChanges[1].edits[0].newText as string;
    expect(draft).toContain('supersedes:\n  - billing-webhook\n');
    expect(draft).toContain('files:\n  - src/billing/webhook.ts\n');
    const diff = (await p.client.sendRequest('gitmem/codeDiff', got[0].command.arguments[0])) as {
      diff: string;
      deleted: boolean;
    };
    expect(diff.deleted).toBe(false);
    expect(diff.diff).toContain('--- a/src/billing/webhook.ts\n+++ b/src/billing/webhook.ts\n');
    expect(diff.diff).toContain('\n-  verify(body, signature);\n');
    expect(diff.diff).toContain('\n+  queue.push(event);\n');
    // A deleted file's diff removes every line; a bad commit id is a clear error.
    const legacy = (await actions(LEGACY, 5)).find((a) => a.command?.command === 'gitmem.openCodeDiff')!;
    expect(legacy.command.arguments).toEqual([{ path: 'src/legacy/old.ts', since: expect.any(String) }]);
    const gone = (await p.client.sendRequest('gitmem/codeDiff', legacy.command.arguments[0])) as {
      diff: string;
      deleted: boolean;
    };
    expect(gone).toMatchObject({ deleted: true });
    expect(gone.diff).toContain('-export const OLD = 1;');
    await expect(p.client.sendRequest('gitmem/codeDiff', { path: '../etc/passwd', since: baseline })).rejects.toThrow(
      /not a repository path/,
    );
  });

  it('applying "mark verified" writes the front-matter line and the diagnostic clears', async () => {
    const verify = (await actions(WEBHOOK, 5)).find((a) => a.title.startsWith('Mark verified'))!;
    applyWorkspaceEdit(verify.edit);
    const text = readFileSync(join(root, WEBHOOK), 'utf8');
    expect(text).toContain('files: [src/billing/webhook.ts]\nverified: 2026-03-01\n---\n');
    await p.change(WEBHOOK, 2, text);
    await p.client.sendNotification('textDocument/didSave', { textDocument: { uri: p.uri(WEBHOOK) } });
    await p.inbox.until(() => staleOf(WEBHOOK).length === 0, 'stale-code diagnostic cleared');
    // Then the code changes again after the day it was verified: the check flags it anew.
    writeFileSync(
      join(root, 'src/billing/webhook.ts'),
      `// retries\n${readFileSync(join(root, 'src/billing/webhook.ts'), 'utf8')}`,
    );
    gitAt(root, '2026-03-02T10:00:00Z', 'commit', '-q', '-am', 'webhook: note retries');
    await p.client.sendNotification('textDocument/didSave', { textDocument: { uri: p.uri(WEBHOOK) } });
    await p.inbox.until(() => staleOf(WEBHOOK).length > 0, 'stale again after a later commit');
    expect(staleOf(WEBHOOK)[0]!.message).toMatch(
      /^src\/billing\/webhook\.ts changed in 1 commit \(1 line\) since it was verified on 2026-03-01/,
    );
  });
});
