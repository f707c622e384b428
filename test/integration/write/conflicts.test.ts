// Contradictions are shown to the writer, never resolved silently: remember (CLI), complete-task
// (CLI) and memory_remember over the real MCP stdio server answer with `possible_conflict` when a
// new entry of the same type and tags says something different on the same subject; both files
// stay, nothing is merged, and a near copy that changes a number is not swallowed as a duplicate (V02).
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, copyFixture, runCli, initRepoOnMain } from '../../support/fixtures.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(dirname(r), { recursive: true, force: true });
});

// Keyword-only: the conflict check is lexical, and no model keeps the runs fast and deterministic.
function workspace(): { root: string; cli: (args: string[], input?: string) => ReturnType<typeof runCli> } {
  const root = copyFixture('default');
  roots.push(root);
  initRepoOnMain(root, 'seed');
  const env = {
    GITMEM_MODEL_DIR: join(root, 'no-model'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
  return {
    root,
    cli: (args, input) =>
      runCli(['--dir', root, ...args], { cwd: root, env, ...(input !== undefined ? { input } : {}) }),
  };
}

const entries = (root: string) => readdirSync(join(root, 'memory', 'entries')).sort();

describe('possible_conflict on writes', () => {
  it('remember: a conflicting entry is written and the answer names the old one; an agreeing one is not flagged', () => {
    const { root, cli } = workspace();
    const first = cli([
      '--json',
      'remember',
      '--type',
      'decision',
      '--tag',
      'db',
      'The database connection pool holds 10 connections.',
    ]).json();
    expect(first.status).toBe('created');
    expect(first.possible_conflict).toBeUndefined();
    // Same claim in other words: no conflict.
    expect(
      cli([
        '--json',
        'remember',
        '--type',
        'decision',
        '--tag',
        'db',
        'Each instance keeps its database connection pool at 10 connections per instance.',
      ]).json().possible_conflict,
    ).toBeUndefined();
    const second = cli([
      '--json',
      'remember',
      '--type',
      'decision',
      '--tag',
      'db',
      'The database connection pool holds 50 connections.',
    ]).json();
    expect(second.status).toBe('created');
    expect(second.possible_conflict).toMatchObject({
      id: first.id,
      path: first.path,
      reasons: ['number'],
      options: ['supersede', 'keep_both'],
    });
    expect(entries(root)).toEqual(expect.arrayContaining([`${first.id}.md`, `${second.id}.md`]));
    const human = cli([
      'remember',
      '--type',
      'decision',
      '--tag',
      'db',
      'The database connection pool holds 25 connections.',
    ]);
    expect(human.stderr).toMatch(/possible conflict with .*supersedes: \[.*compatible_with/s);
    // Other tags or another type: not the same subject for this check.
    expect(
      cli([
        '--json',
        'remember',
        '--type',
        'decision',
        '--tag',
        'cache',
        'The database connection pool holds 70 connections.',
      ]).json().possible_conflict,
    ).toBeUndefined();
    expect(
      cli([
        '--json',
        'remember',
        '--type',
        'learning',
        '--tag',
        'db',
        'The database connection pool holds 90 connections.',
      ]).json().possible_conflict,
    ).toBeUndefined();
  });

  it('a near copy that changes a number is a possible conflict, not a duplicate', () => {
    const { cli } = workspace();
    const text =
      'The webhook sender retries every failed delivery to the partner endpoint with exponential backoff and jitter, at most 3 times, then parks the event in the dead-letter queue for a person to replay from the admin page.';
    const first = cli(['--json', 'remember', '--type', 'decision', '--tag', 'webhooks', text]).json();
    const again = cli(['--json', 'remember', '--type', 'decision', '--tag', 'webhooks', text]).json();
    expect(again.status).toBe('duplicate');
    const changed = cli([
      '--json',
      'remember',
      '--type',
      'decision',
      '--tag',
      'webhooks',
      text.replace('3 times', '5 times'),
    ]).json();
    expect(changed.status).toBe('created');
    expect(changed.possible_conflict?.id).toBe(first.id);
  });

  it('complete-task answers with possible_conflict too', () => {
    const { cli } = workspace();
    const task = (n: number) => ({
      goal: 'Set the invoice cron schedule',
      result: `The cron job for invoices runs at 0${n}:00 UTC.`,
      type: 'decision',
      tool_usage: [],
    });
    const a = cli(['--json', 'complete-task', '--no-commit', '--input', '-'], JSON.stringify(task(2))).json();
    expect(a.status).toBe('created');
    const b = cli(['--json', 'complete-task', '--no-commit', '--input', '-'], JSON.stringify(task(6))).json();
    expect(b.status).toBe('created');
    expect(b.possible_conflict).toMatchObject({ id: a.memoryId, reasons: expect.arrayContaining(['number']) });
  });

  it('MCP memory_remember (real stdio) answers with possible_conflict', async () => {
    const { root } = workspace();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--dir', root],
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), NO_COLOR: '1', GITMEM_MODEL_DIR: join(root, 'no-model') },
    });
    const client = new Client({ name: 'gitmem-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = async (text: string) =>
        (
          (await client.callTool({ name: 'memory_remember', arguments: { text, type: 'decision', tags: ['ci'] } })) as {
            structuredContent?: Record<string, any>;
          }
        ).structuredContent ?? {};
      const one = await call('CI caches node_modules between runs.');
      const two = await call('CI does not cache node_modules between runs.');
      expect(two.status).toBe('created');
      expect(two.possible_conflict).toMatchObject({ id: one.id, reasons: ['negation'] });
    } finally {
      await client.close();
    }
  });
});
