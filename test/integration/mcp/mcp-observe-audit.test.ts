// memory_observe and memory_audit over REAL stdio with the SDK client (`node dist/cli.cjs mcp`).
// Build first (`npm run build`). Covers: an observed turn lands in today's daily note with its role
// and source reference (atomic append, a second one after it), parallel observes all land, a
// credential is refused with nothing written, bad arguments are ajv usage errors, and memory_audit
// returns the query, result paths/lines and injected bytes of recalls logged with recall.audit on.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

let root: string;
let mcp: McpSession;

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

beforeAll(async () => {
  root = copyFixture('demo');
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', recall: { audit: true } }, null, 2),
  );
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial memory');
  mcp = await startMcp(root, { XDG_CACHE_HOME: join(dirname(root), 'cache') });
});

afterAll(async () => {
  await mcp?.close();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('memory_observe', () => {
  it("appends a turn to today's daily note with its role and source reference", async () => {
    const r = await mcp.call('memory_observe', {
      text: 'The user prefers pnpm over npm for this repo.',
      role: 'user',
      source: 'claude-code hook',
      session: 'sess-42',
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({
      path: `memory/${today()}.md`,
      date: today(),
      role: 'user',
      source: 'claude-code hook',
      session: 'sess-42',
    });
    const note = readFileSync(join(root, r.data.path), 'utf8').split('\n');
    expect(note[r.data.line - 1]).toMatch(/^- \d\d:\d\d user: The user prefers pnpm over npm for this repo\.$/);
    expect(note[r.data.line]).toBe('  (source: claude-code hook · session: sess-42)');

    const second = await mcp.call('memory_observe', { text: 'Tests pass after the lockfile change.' });
    expect(second.isError, second.text).toBe(false);
    expect(second.data.line).toBeGreaterThan(r.data.line);
    const after = readFileSync(join(root, r.data.path), 'utf8');
    expect(after).toContain('observation: Tests pass after the lockfile change.\n  (source: mcp)');
    // The first turn is untouched (append-only).
    expect(after.split('\n').slice(0, r.data.line + 1)).toEqual(note.slice(0, r.data.line + 1));
  });

  it('parallel observes all land, none lost or interleaved', async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `parallel observation number ${i}`);
    const res = await Promise.all(texts.map((text) => mcp.call('memory_observe', { text, session: 'p' })));
    for (const r of res) expect(r.isError, r.text).toBe(false);
    const note = readFileSync(join(root, `memory/${today()}.md`), 'utf8');
    for (const t of texts) expect(note.split('\n').filter((l) => l.endsWith(`observation: ${t}`))).toHaveLength(1);
    expect(new Set(res.map((r) => r.data.line)).size).toBe(texts.length);
  });

  it('refuses a credential and writes nothing; bad arguments are usage errors', async () => {
    const path = join(root, `memory/${today()}.md`);
    const before = readFileSync(path, 'utf8');
    const secret = await mcp.call('memory_observe', { text: 'deploy with AKIAIOSFODNN7EXAMPLQ as the key' });
    expect(secret.isError).toBe(true);
    expect(secret.data.error.code).toBe('secret.found');
    expect(secret.text).not.toContain('AKIAIOSFODNN7EXAMPLQ');
    expect(readFileSync(path, 'utf8')).toBe(before);

    const empty = await mcp.call('memory_observe', { text: '' });
    expect(empty.data.error).toMatchObject({ code: 'usage', message: 'memory_observe: text must not be empty' });
    const role = await mcp.call('memory_observe', { text: 'x', role: 'robot' });
    expect(role.data.error.message).toMatch(/^memory_observe: role must be one of "user"/);
    const newline = await mcp.call('memory_observe', { text: 'x', source: 'a\nb' });
    expect(newline.data.error.message).toMatch(/^memory_observe: source does not match/);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});

describe('memory_audit', () => {
  it('returns recent recalls: query, result paths and lines, bytes injected', async () => {
    const none = await mcp.call('memory_audit', {});
    expect(none.isError, none.text).toBe(false);
    expect(none.data).toEqual({ enabled: true, entries: [] });

    const first = await mcp.call('memory_recall', { query: 'lunr offline docs search', mode: 'keyword', limit: 3 });
    expect(first.isError, first.text).toBe(false);
    await mcp.call('memory_recall', { query: 'staging database', mode: 'keyword', limit: 2 });

    const all = await mcp.call('memory_audit', {});
    expect(all.data.entries.map((e: { query: string }) => e.query)).toEqual([
      'staging database',
      'lunr offline docs search',
    ]);
    const lunr = all.data.entries[1];
    expect(lunr.mode).toBe('keyword');
    expect(lunr.results).toEqual(
      first.data.results.map((r: { path: string; startLine: number; endLine: number; review: string }) => ({
        path: r.path,
        startLine: r.startLine,
        endLine: r.endLine,
        // Each result's trust labels as the agent got them (service/trust/).
        commit: expect.stringMatching(/^[0-9a-f]{7}$/),
        review: r.review,
      })),
    );
    expect(lunr.results.length).toBeGreaterThan(0);
    expect(typeof lunr.bytes).toBe('number');
    expect(lunr.bytes).toBeGreaterThanOrEqual(0);

    const one = await mcp.call('memory_audit', { limit: 1 });
    expect(one.data.entries.map((e: { query: string }) => e.query)).toEqual(['staging database']);
    const bad = await mcp.call('memory_audit', { limit: 0 });
    expect(bad.data.error).toMatchObject({ code: 'usage', message: 'memory_audit: limit must be ≥ 1' });
  });
});
