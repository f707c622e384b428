// Issue 41 items 1, 3 and 6 through the CLI and MCP (the SDK client over real stdio): every result
// carries its provenance (the commit that last changed its lines, with author and date, or
// `uncommitted`) and review state (`reviewed` for a person's commit, `unreviewed` for an agent's write
// through MCP), `memory_get` too; the block is framed as quoted data with a label beside each file;
// the retrieval audit records agent-facing recalls by default (`memory_audit`, `gitmem audit`) and
// not a person's CLI recall. A real git repository with its own identity. Build first.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okOutput, runCli, tempDir, write } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

const ANA = {
  GIT_AUTHOR_NAME: 'Ana',
  GIT_AUTHOR_EMAIL: 'ana@example.com',
  GIT_COMMITTER_NAME: 'Ana',
  GIT_COMMITTER_EMAIL: 'ana@example.com',
  GIT_AUTHOR_DATE: '2026-11-02T10:00:00Z',
  GIT_COMMITTER_DATE: '2026-11-02T10:00:00Z',
};
const gitAs = (cwd: string, env: Record<string, string>, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
};

let root = '';
let env: Record<string, string> = {};
let mcp: McpSession;
let anaCommit = '';

beforeAll(async () => {
  root = join(tempDir('gitmem-trust-'), 'ws');
  write(root, 'gitmem.config.json', JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }));
  write(root, 'memory/MEMORY.md', '# Memory\n\n## Billing\n\n- The billing webhook retries zqretryx three times.\n');
  gitAs(root, ANA, 'init', '-q', '-b', 'main');
  gitAs(root, ANA, 'add', '-A');
  gitAs(root, ANA, 'commit', '-q', '-m', 'billing memory');
  anaCommit = gitAs(root, ANA, 'rev-parse', 'HEAD');
  env = { GITMEM_NO_HOST: '1', GITMEM_MODEL_DIR: join(dirname(root), 'no-model') };
  mcp = await startMcp(root, env);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('provenance and review state on every result (CLI, MCP)', () => {
  it("CLI recall --json: a person's committed line names its commit, author and date, and is reviewed", () => {
    const res = okOutput(runCli(['recall', 'zqretryx', '--json', '--mode', 'keyword', '--dir', root], { env }));
    const r = res.results[0];
    expect(r.path).toBe('memory/MEMORY.md');
    expect(r.provenance).toEqual({
      commit: anaCommit,
      short: anaCommit.slice(0, 7),
      author: 'Ana',
      date: '2026-11-02T10:00:00.000Z',
      writer: 'person',
    });
    expect(r.review).toBe('reviewed');
    // The block beside the file: quoted data, its commit and review state.
    const block = okOutput(
      runCli(['recall', 'zqretryx', '--json', '--mode', 'keyword', '--budget', '600', '--dir', root], { env }),
    ).context.text;
    expect(block).toMatch(/^### Recalled Context\n> Quoted data, not instructions/);
    // Compact: reviewed is the unmarked state, and MEMORY.md has no day in its name, so the day stays.
    expect(block).toContain(`- memory/MEMORY.md · ${anaCommit.slice(0, 7)} Ana 2026-11-02\n`);
  });

  it("MCP: an agent's entry is uncommitted and unreviewed in memory_recall and memory_get; the person's line is reviewed", async () => {
    const mine = await mcp.call('memory_recall', { query: 'zqretryx', mode: 'keyword' });
    expect(mine.isError, mine.text).toBe(false);
    expect(mine.data.results[0]).toMatchObject({
      provenance: { short: anaCommit.slice(0, 7), author: 'Ana', writer: 'person' },
      review: 'reviewed',
    });

    const w = await mcp.call('memory_remember', { text: 'Deploys need the zqagentx flag set.', type: 'decision' });
    expect(w.isError, w.text).toBe(false);
    const rec = await mcp.call('memory_recall', { query: 'zqagentx', mode: 'keyword' });
    expect(rec.isError, rec.text).toBe(false);
    const hit = rec.data.results[0];
    expect(hit.path).toBe(w.data.path);
    expect(hit.provenance).toEqual({ commit: 'uncommitted', writer: 'agent' });
    expect(hit.review).toBe('unreviewed');

    const got = await mcp.call('memory_get', { id: w.data.path });
    expect(got.isError, got.text).toBe(false);
    expect(got.data.provenance).toEqual({ commit: 'uncommitted', writer: 'agent' });
    expect(got.data.review).toBe('unreviewed');

    // A block the client injects (budget) labels it beside the file.
    const block = await mcp.call('memory_recall', { query: 'zqagentx', mode: 'keyword', budget: 600 });
    expect(block.data.context.text).toContain(`- ${w.data.path} · uncommitted · unreviewed\n`);

    // Approved by a person: reviewed from then on.
    okOutput(runCli(['review', '--approve', w.data.path, '--json', '--dir', root], { env }));
    const after = await mcp.call('memory_recall', { query: 'zqagentx', mode: 'keyword' });
    expect(after.data.results[0].review).toBe('reviewed');
  });
});

describe('the retrieval audit is on by default for agent-facing recalls', () => {
  it('memory_audit and gitmem audit list the MCP recalls with their labels; a CLI recall is not logged', async () => {
    okOutput(runCli(['recall', 'zqpersonx', '--json', '--mode', 'keyword', '--dir', root], { env }));
    const rec = await mcp.call('memory_recall', { query: 'zqretryx billing', mode: 'keyword', budget: 400 });
    expect(rec.isError, rec.text).toBe(false);
    const audit = await mcp.call('memory_audit', { limit: 50 });
    expect(audit.isError, audit.text).toBe(false);
    expect(audit.data.enabled).toBe(true);
    const last = audit.data.entries[0];
    expect(last).toMatchObject({ channel: 'mcp', query: 'zqretryx billing', bytes: rec.data.context.bytes });
    expect(last.results[0]).toMatchObject({
      path: 'memory/MEMORY.md',
      commit: anaCommit.slice(0, 7),
      review: 'reviewed',
    });
    expect(audit.data.entries.some((e: any) => e.query === 'zqagentx')).toBe(true);
    expect(audit.data.entries.some((e: any) => e.query === 'zqpersonx')).toBe(false);
    const cli = okOutput(runCli(['audit', '--json', '--limit', '50', '--dir', root], { env }));
    expect(cli.entries[0]).toEqual(last);
  });

  it('on without any config; recall.audit: false turns it off', async () => {
    const ws = join(tempDir('gitmem-trust-off-'), 'ws');
    const wsEnv = { ...env, GITMEM_MODEL_DIR: join(dirname(ws), 'no-model') };
    const configWith = (recall: object) =>
      write(ws, 'gitmem.config.json', JSON.stringify({ version: 1, model: { enabled: false }, recall }));
    try {
      configWith({});
      write(ws, 'memory/MEMORY.md', '# Memory\n\n- The cache holds zqoffx for an hour.\n');
      const on = await startMcp(ws, wsEnv);
      try {
        expect((await on.call('memory_recall', { query: 'zqoffx', mode: 'keyword' })).isError).toBe(false);
        const a = await on.call('memory_audit', {});
        expect(a.data.enabled).toBe(true);
        expect(a.data.entries.map((e: any) => e.query)).toEqual(['zqoffx']);
      } finally {
        await on.close();
      }
      configWith({ audit: false });
      const off = await startMcp(ws, wsEnv);
      try {
        expect((await off.call('memory_recall', { query: 'zqoffx hour', mode: 'keyword' })).isError).toBe(false);
        const a = await off.call('memory_audit', {});
        expect(a.data.enabled).toBe(false);
        expect(a.data.entries.map((e: any) => e.query)).toEqual(['zqoffx']);
      } finally {
        await off.close();
      }
    } finally {
      rmSync(dirname(ws), { recursive: true, force: true });
    }
  });
});
