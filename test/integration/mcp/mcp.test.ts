// The MCP server over REAL stdio: `node dist/cli.cjs mcp --dir <tmp>` spawned by the SDK's own Client
// (StdioClientTransport). Build first (`npm run build`). Covers tools/list, recall, remember, get,
// state set/snapshot (with a conflict), checkpoint, complete_task, forget → `status: archived` as a one-line diff,
// validate, stats, bad inputs as tool errors, and a raw check that stdout carries only JSON-RPC.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, committedFixture, copyFixture, git } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

type Json = Record<string, any>;

let root: string;
let session: McpSession;

const call = (name: string, args: Json = {}) => session.call(name, args);

beforeAll(async () => {
  root = committedFixture('demo');
  session = await startMcp(root);
});

afterAll(async () => {
  await session?.close();
});

describe('gitmem mcp (stdio)', () => {
  it('lists the tools with JSON Schemas and read-only/destructive hints', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'memory_recall',
      'memory_remember',
      'memory_get',
      'memory_checkpoint',
      'memory_state',
      'memory_validate',
      'memory_forget',
      'memory_complete_task',
      'memory_observe',
      'memory_audit',
      'memory_stats',
    ]);
    const by = new Map(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.description?.length, t.name).toBeGreaterThan(20);
    }
    for (const ro of ['memory_recall', 'memory_get', 'memory_validate', 'memory_audit', 'memory_stats'])
      expect(by.get(ro)?.annotations?.readOnlyHint, ro).toBe(true);
    for (const d of ['memory_forget', 'memory_state']) expect(by.get(d)?.annotations?.destructiveHint, d).toBe(true);
    expect(by.get('memory_remember')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(by.get('memory_recall')?.inputSchema.required).toEqual(['query']);
    expect(session.client.getInstructions()).toMatch(/memory_state/);
  });

  // U44: `gitmem mcp --help` listed nine tools; memory_observe and memory_audit were missing.
  it('U44: gitmem mcp --help names every tool the server lists', async () => {
    const { tools } = await session.client.listTools();
    const help = spawnSync(process.execPath, [CLI, 'mcp', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    const named = /\(tools: ([^)]*)\)/.exec(help.stdout.replace(/\s+/g, ' '))?.[1]?.split(/, ?/);
    expect(named).toEqual(tools.map((t) => t.name.replace(/^memory_/, '')));
  });

  it('recall finds a memory of the demo workspace', async () => {
    const r = await call('memory_recall', { query: 'lunr offline docs search', mode: 'keyword', limit: 3 });
    expect(r.isError).toBe(false);
    expect(r.data.results.length).toBeGreaterThan(0);
    expect(r.data.results[0]).toMatchObject({
      path: expect.stringMatching(/^memory\//),
      startLine: expect.any(Number),
    });
    expect(JSON.parse(r.text).query).toBe('lunr offline docs search');
  });

  it('remember → get → checkpoint → forget (status: archived, one-line diff) → hidden from recall', async () => {
    const rem = await call('memory_remember', {
      text: 'The staging database rejects connections without sslmode=require.',
      type: 'warning',
      tags: ['postgres'],
    });
    expect(rem.isError).toBe(false);
    expect(rem.data).toMatchObject({ status: 'created', path: expect.stringMatching(/^memory\/entries\/.+\.md$/) });
    const id = rem.data.id as string;
    const dup = await call('memory_remember', {
      text: 'The staging database rejects connections without sslmode=require.',
      type: 'warning',
    });
    expect(dup.data).toMatchObject({ status: 'duplicate', duplicateOf: id });

    const got = await call('memory_get', { id });
    expect(got.data.text).toContain('sslmode=require');
    expect(got.data.entry).toMatchObject({ id, type: 'warning', tags: ['postgres'] });
    const lines = await call('memory_get', { id: `${rem.data.path}:2-3` });
    expect(lines.data).toMatchObject({ startLine: 2, endLine: 3 });

    const cp = await call('memory_checkpoint', { message: 'remember the staging ssl rule' });
    expect(cp.data.kind).toBe('committed');
    expect(git(root, 'log', '-1', '--format=%s').trim()).toBe('remember the staging ssl rule');

    const found = await call('memory_recall', { query: 'staging sslmode', mode: 'keyword' });
    expect(found.data.results.map((x: Json) => x.path)).toContain(rem.data.path);

    const f = await call('memory_forget', { id });
    expect(f.isError).toBe(false);
    expect(f.data).toMatchObject({ status: 'archived', id, path: rem.data.path, previous: 'active' });
    const text = readFileSync(join(root, rem.data.path), 'utf8');
    expect(text).toMatch(/^status: archived$/m);
    const diff = git(root, 'diff', '--unified=0', '--', rem.data.path);
    expect(diff.split('\n').filter((l) => /^[-+](?![-+])/.test(l))).toEqual(['-status: active', '+status: archived']);
    expect((await call('memory_forget', { id })).data.status).toBe('unchanged');

    const hidden = await call('memory_recall', { query: 'staging sslmode', mode: 'keyword' });
    expect(hidden.data.results.map((x: Json) => x.path)).not.toContain(rem.data.path);
    const all = await call('memory_recall', { query: 'staging sslmode', mode: 'keyword', all: true });
    expect(all.data.results.map((x: Json) => x.path)).toContain(rem.data.path);
  });

  it('state: set then snapshot; a stale expectedHash is a conflict tool error; new archives', async () => {
    const snap0 = await call('memory_state', { action: 'snapshot' });
    expect(snap0.data).toMatchObject({ active: true, path: 'memory/CURRENT_STATE.md', hash: expect.any(String) });
    const set = await call('memory_state', {
      action: 'set',
      step: 'Wiring the MCP server',
      decisions: ['Use stdio transport'],
      results: ['MCP tools answer over stdio'],
      expectedHash: snap0.data.hash,
    });
    expect(set.isError).toBe(false);
    expect(set.data).toMatchObject({ written: true, changed: ['step', 'decisions', 'results'] });
    const snap = await call('memory_state', { action: 'snapshot' });
    expect(snap.data).toMatchObject({ active: true, freshness: 'fresh' });
    expect(snap.data.text).toContain('Current step: Wiring the MCP server');
    expect(snap.data.text).toContain('MCP tools answer over stdio');

    const stale = await call('memory_state', { action: 'set', next: 'lost update', expectedHash: snap0.data.hash });
    expect(stale.isError).toBe(true);
    expect(stale.data.error.code).toBe('fs.conflict');
    expect(readFileSync(join(root, 'memory/CURRENT_STATE.md'), 'utf8')).not.toContain('lost update');

    const seed = await call('memory_state', { action: 'handoff' });
    expect(seed.data.text).toContain('Use stdio transport');

    const fresh = await call('memory_state', { action: 'new' });
    expect(fresh.data.archived.results).toBe(2);
    expect(readFileSync(join(root, fresh.data.archived.path), 'utf8')).toContain('MCP tools answer over stdio');
    expect((await call('memory_state', { action: 'snapshot' })).data).toMatchObject({ active: false, text: '' });
  });

  it('validate and stats', async () => {
    const v = await call('memory_validate', {});
    expect(Array.isArray(v.data.diagnostics)).toBe(true);
    const s = await call('memory_stats');
    expect(s.isError).toBe(false);
    expect(s.data.byKind).toMatchObject({ entry: 4, current_state: 1, long_term: 1 });
    expect(s.data.entries.byStatus).toMatchObject({ active: 3, archived: 1 });
    expect(s.data.entries.byType.warning).toBe(1);
    expect(['fresh', 'stale', 'missing', 'corrupt']).toContain(s.data.index.state);
    expect(['ready', 'missing', 'disabled', 'failed']).toContain(s.data.model.state);
    expect(s.data.git.repository).toBe(true);
  });

  it('complete_task records a finished task as an entry and commits it', async () => {
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const r = await call('memory_complete_task', {
      goal: 'Fix the flaky carrier webhook test',
      result: 'The test raced the retry timer; injecting a fake clock fixed it.',
      tool_usage: [{ tool_name: 'Edit', arguments: { file_path: 'src/webhooks/retry.test.ts' } }],
      feedback: 'Good catch, that was the cause.',
      agent: 'test-agent',
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({
      status: 'created',
      memoryId: expect.any(String),
      path: expect.stringMatching(/^memory\/entries\//),
    });
    expect(readFileSync(join(root, r.data.path), 'utf8')).toContain('fake clock');
    expect(r.data.commit).toEqual(expect.any(String));
    expect(git(root, 'rev-parse', 'HEAD').trim()).not.toBe(head);
  });

  it('bad inputs are tool errors with codes, and the server keeps serving', async () => {
    const cases: [string, Json, RegExp][] = [
      ['memory_recall', {}, /query is required/],
      ['memory_recall', { query: 'x', limit: 500 }, /limit must be ≤ 50/],
      ['memory_recall', { query: 42 }, /query must be string/],
      ['memory_recall', { query: 'x', types: ['nonsense'] }, /types\[0\] must be one of/],
      ['memory_remember', { text: 'x', bogus: true }, /unknown argument bogus/],
      ['memory_state', { action: 'explode' }, /action must be one of/],
      ['memory_state', { action: 'snapshot', objective: 'x' }, /only apply to action "set"/],
      ['memory_get', { id: '../../etc/passwd.md' }, /escapes the workspace root|outside/],
      ['memory_get', { id: 'no-such-entry' }, /no memory with id/],
      ['memory_forget', { id: 'memory/MEMORY.md' }, /not a memory entry/],
      ['memory_complete_task', { goal: 'x' }, /result is required/],
      ['memory_complete_task', { goal: 'x', result: 'y', tool_usage: [{}] }, /tool_usage\[0\]\.tool_name is required/],
      ['memory_nope', {}, /unknown tool/],
    ];
    for (const [name, args, re] of cases) {
      const r = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text, `${name} ${JSON.stringify(args)}`).toMatch(re);
      expect(typeof r.data.error.code).toBe('string');
    }
    expect((await call('memory_get', { id: 'no-such-entry' })).data.error.code).toBe('entry.not-found');
    // U40: a path-like id meets the path-confinement guard, not the id lookup.
    for (const id of ['../../etc/passwd', '..\\..\\etc\\passwd', '/etc/passwd']) {
      const out = await call('memory_get', { id });
      expect(out.data.error.code, id).toBe('path.outside-root');
      expect(out.text, id).not.toMatch(/:0:0:/);
    }
    expect((await call('memory_stats')).isError).toBe(false);
    expect(session.stderr()).not.toMatch(/at .*\.js:\d+/);
  });
});

describe('gitmem mcp stdout hygiene', () => {
  it('prints only JSON-RPC on stdout and exits 0 when stdin closes', async () => {
    const ws = copyFixture('demo');
    const child = spawn(process.execPath, [CLI, 'mcp', '--dir', ws], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const send = (m: Json) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'memory_stats', arguments: {} } });
    send({ id: 3, method: 'tools/call', params: { name: 'memory_recall', arguments: { query: 'webhook retries' } } });
    // Wait for the last answer, then close stdin.
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no answer; stdout so far: ${out}`)), 30_000);
      child.stdout.on('data', () => {
        if (out.split('\n').some((l) => l.includes('"id":3'))) {
          clearTimeout(t);
          resolve();
        }
      });
    });
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    const lines = out.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBe(3);
    for (const l of lines) expect(JSON.parse(l).jsonrpc).toBe('2.0');
    expect(JSON.parse(lines[2]!).result.isError).toBeUndefined();
  });
});
