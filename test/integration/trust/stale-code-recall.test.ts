// Issue 41, scenario "an entry whose `files:` names `src/billing/webhook.ts` is still recalled,
// unlabelled, after that file was deleted or rewritten": through the CLI (`recall --json`, the
// context block), MCP (`memory_recall` with the SDK client) and the language server (`gitmem/recall`).
// Each repository is real, with history; the entry's lines were committed before the code changed.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noModelEnv, requireBuiltCli, runCli } from '../../support/fixtures.js';
import { gitAt, removeRepo, webhookRepo, WEBHOOK_ENTRY } from '../../support/code-repo.js';
import { startMcp } from '../../support/mcp.js';
import { createLspPair } from '../../support/lsp.js';

const QUERY = 'stripe webhook signature';
let deleted: string;
let rewritten: string;
const cli = (root: string, ...args: string[]) => runCli([...args, '--dir', root], { env: noModelEnv(root) });
type Result = { path: string; score: number; code?: { path: string; status: string; commits?: number }[] };
const webhookHit = (results: Result[]) => results.find((r) => r.path === 'memory/entries/billing-webhook.md');

beforeAll(() => {
  requireBuiltCli();
  deleted = webhookRepo();
  rmSync(join(deleted, 'src/billing/webhook.ts'));
  gitAt(deleted, '2026-02-01T10:00:00Z', 'commit', '-q', '-am', 'drop the webhook');
  rewritten = webhookRepo();
  writeFileSync(
    join(rewritten, 'src/billing/webhook.ts'),
    'export function handleWebhook(body: string) {\n  return JSON.parse(body);\n}\n',
  );
  gitAt(rewritten, '2026-02-01T10:00:00Z', 'commit', '-q', '-am', 'webhook: no signature check');
  // A second entry with the same words, citing code that did not change: same text score.
  for (const root of [deleted, rewritten]) {
    writeFileSync(join(root, 'src/billing/stripe-fresh.ts'), 'export const fresh = 1;\n');
    writeFileSync(
      join(root, 'memory/entries/billing-webhook-copy.md'),
      WEBHOOK_ENTRY.replace('id: billing-webhook', 'id: billing-webhook-copy').replace(
        'files: [src/billing/webhook.ts]',
        'files: [src/billing/stripe-fresh.ts]',
      ),
    );
    gitAt(root, '2026-02-02T10:00:00Z', 'add', '-A');
    gitAt(root, '2026-02-02T10:00:00Z', 'commit', '-q', '-m', 'a copy citing fresh code');
  }
});
afterAll(() => {
  removeRepo(deleted);
  removeRepo(rewritten);
});

describe('CLI: recall checks the cited code', () => {
  it('labels a memory whose cited file was deleted, ranks it below the fresh copy, and labels the block', () => {
    const r = cli(deleted, 'recall', '--json', QUERY);
    expect(r.code, r.stderr).toBe(0);
    const results = r.json().results as Result[];
    expect(webhookHit(results)?.code).toEqual([
      expect.objectContaining({ path: 'src/billing/webhook.ts', status: 'orphaned' }),
    ]);
    // Same words, same text score: the fresh copy comes first (the block repeats a line once: one entry only).
    expect(results[0]!.path).toBe('memory/entries/billing-webhook-copy.md');
    expect(results[0]!.code).toEqual([expect.objectContaining({ status: 'fresh' })]);
    const block = cli(deleted, 'recall', '--json', '--budget', '800', '--file', 'src/billing/webhook.ts', QUERY).json()
      .context.text as string;
    expect(block).toContain('memory/entries/billing-webhook.md [code gone: src/billing/webhook.ts]');
    const text = cli(deleted, 'recall', QUERY).stdout;
    expect(text).toContain('[code gone: src/billing/webhook.ts]');
  });

  it('labels a memory whose cited file was rewritten since the memory was committed', () => {
    const results = cli(rewritten, 'recall', '--json', QUERY).json().results as Result[];
    expect(webhookHit(results)?.code).toEqual([
      expect.objectContaining({ path: 'src/billing/webhook.ts', status: 'code-changed', commits: 1 }),
    ]);
    expect(results[0]!.path).toBe('memory/entries/billing-webhook-copy.md');
  });
});

describe('MCP: memory_recall checks the cited code', () => {
  it('carries code states and labels the block', async () => {
    const mcp = await startMcp(deleted, noModelEnv(deleted));
    try {
      const r = await mcp.call('memory_recall', { query: QUERY, budget: 800, file: 'src/billing/webhook.ts' });
      expect(r.isError, r.text).toBe(false);
      expect(webhookHit(r.data.results as Result[])?.code).toEqual([
        expect.objectContaining({ path: 'src/billing/webhook.ts', status: 'orphaned' }),
      ]);
      expect(r.data.context.text).toContain('[code gone: src/billing/webhook.ts]');
    } finally {
      await mcp.close();
    }
  });
});

describe('language server: gitmem/recall checks the cited code', () => {
  it('carries code states for a rewritten cited file', async () => {
    const p = createLspPair(rewritten);
    try {
      await p.start();
      const res = (await p.client.sendRequest('gitmem/recall', { query: QUERY })) as { results: Result[] };
      expect(webhookHit(res.results)?.code).toEqual([
        expect.objectContaining({ path: 'src/billing/webhook.ts', status: 'code-changed', commits: 1 }),
      ]);
      expect(res.results[0]!.path).toBe('memory/entries/billing-webhook-copy.md');
    } finally {
      await p.close();
    }
  });
});
