// Bad inputs T10 and T11 (docs/bad-inputs.md): one validation for dates and filters on every
// interface — `append --date 2026-02-30`, `--since 2026-13-45`, since after until, in-query
// `type:bogus` / `kind:bogus` — with the same clear error in the CLI (exit 2), MCP and the language
// server; and an empty query answered the same way (no results and a hint) in the CLI and MCP.
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, gitFixture, requireBuiltCli } from '../../support/fixtures.js';
import { initializeSpawned, spawnServer, type SpawnedServer } from '../../support/lsp.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

const ENV = { GITMEM_MODEL_DIR: '/nonexistent-model' };
let root: string;
let mcp: McpSession;
let lsp: SpawnedServer;

beforeAll(async () => {
  requireBuiltCli();
  root = gitFixture('demo');
  mcp = await startMcp(root, ENV);
  lsp = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env: ENV });
  await initializeSpawned(lsp, root);
  await lsp.inbox.until(() => lsp.inbox.ready !== undefined, 'gitmem/ready', 40_000);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  lsp?.kill();
  rmSync(dirname(root), { recursive: true, force: true });
});

const cases: Array<[string, string[], Record<string, unknown>, RegExp]> = [
  [
    'impossible --since',
    ['recall', 'webhook', '--since', '2026-13-45'],
    { query: 'webhook', since: '2026-13-45' },
    /since must be a real calendar date as YYYY-MM-DD, got "2026-13-45"/,
  ],
  [
    'February 30',
    ['recall', 'webhook', '--until', '2026-02-30'],
    { query: 'webhook', until: '2026-02-30' },
    /until must be a real calendar date/,
  ],
  [
    'since after until',
    ['recall', 'webhook', '--since', '2026-12-01', '--until', '2026-11-01'],
    { query: 'webhook', since: '2026-12-01', until: '2026-11-01' },
    /since \(2026-12-01\) is after until \(2026-11-01\)/,
  ],
  [
    'in-query type:bogus',
    ['recall', 'webhook type:bogus'],
    { query: 'webhook type:bogus' },
    /unknown memory type "bogus"/,
  ],
  ['in-query kind:bogus', ['recall', 'webhook kind:bogus'], { query: 'webhook kind:bogus' }, /unknown kind "bogus"/],
];

describe('one validation for dates and filters', () => {
  it.each(cases)('%s: the same error in the CLI (exit 2), MCP and LSP', async (_name, cli, mcpArgs, message) => {
    const r = runCli([...cli, '--mode', 'keyword', '--dir', root], { env: ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    const m = await mcp.call('memory_recall', { ...mcpArgs, mode: 'keyword' });
    expect(m.isError).toBe(true);
    expect(m.text).toMatch(message);
    await expect(lsp.client.sendRequest('gitmem/recall', { ...mcpArgs, mode: 'keyword' })).rejects.toThrow(message);
  });

  it('append --date 2026-02-30 is refused and creates no daily note', () => {
    const before = readdirSync(join(root, 'memory')).sort();
    const r = runCli(['append', 'a note for a day that does not exist', '--date', '2026-02-30', '--dir', root], {
      env: ENV,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/date must be a real calendar date as YYYY-MM-DD, got "2026-02-30"/);
    expect(readdirSync(join(root, 'memory')).sort()).toEqual(before);
  });

  it('an empty query is the same answer in the CLI and MCP: no results and a hint, not an error', async () => {
    const c = runCli(['recall', '', '--json', '--mode', 'keyword', '--dir', root], { env: ENV });
    expect(c.code).toBe(0);
    expect(c.json()).toMatchObject({ results: [], hint: expect.stringMatching(/no searchable words/) });
    const m = await mcp.call('memory_recall', { query: '', mode: 'keyword' });
    expect(m.isError).toBe(false);
    expect(m.data).toMatchObject({ results: [], hint: expect.stringMatching(/no searchable words/) });
  });
});
