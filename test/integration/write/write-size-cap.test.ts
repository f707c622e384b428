// Bad input U62 (docs/bad-inputs.md): one size cap for what a write takes, the same on every path.
// Before: MCP memory_remember and memory_observe refused text over 20,000 characters while the CLI's
// remember and append took 126,000 and more; complete-task stopped at 20,000 on both; MCP's state
// fields stopped at 4,000 while `gitmem state set` took any length. Now core/write-limits.ts holds
// the caps (100,000 characters of text, 4,000 of a working-state field) and every path refuses with
// the same words. Real CLI processes, real `gitmem mcp` over stdio and a real language server over
// stdio, on committed copies of the demo workspace.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STATE_FIELD_CHARS, MAX_TEXT_CHARS } from '../../../src/core/write-limits.js';
import { CLI, committedFixture, runCli, noModelEnv } from '../../support/fixtures.js';
import { initializeSpawned, spawnServer, type SpawnedServer } from '../../support/lsp.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

let root: string;
let mcp: McpSession;
const env = () => noModelEnv(root);
const entries = () => readdirSync(join(root, 'memory/entries')).length;
/** Distinct words, so no text is a duplicate of another. */
const words = (n: number, seed: string) => {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `${seed}${i} `;
  return s.slice(0, n - 1) + 'z';
};
const over = MAX_TEXT_CHARS + 1;
const textCap = `text is 100,001 characters, over the 100,000-character cap`;

beforeAll(async () => {
  root = committedFixture('demo');
  mcp = await startMcp(root, env());
});
afterAll(async () => {
  await mcp?.close();
  rmSync(dirname(root), { recursive: true, force: true });
});

describe('U62: one size cap on every write path', () => {
  it('the caps are the documented ones', () => {
    expect([MAX_TEXT_CHARS, MAX_STATE_FIELD_CHARS]).toEqual([100_000, 4_000]);
  });

  it('CLI remember and append: over the cap refused with the cap named, nothing written', () => {
    const n = entries();
    const r = runCli(['remember', words(over, 'alpha'), '--dir', root], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(textCap);
    const a = runCli(['append', words(over, 'beta'), '--dir', root], { env: env() });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(textCap);
    expect(entries()).toBe(n);
  });

  it('MCP remember and observe: the same cap and words; under it, as long a text as the CLI takes', async () => {
    const big = await mcp.call('memory_remember', { text: words(over, 'gamma') });
    expect(big.isError).toBe(true);
    expect(big.text).toContain(textCap);
    const obs = await mcp.call('memory_observe', { text: words(over, 'delta') });
    expect(obs.isError).toBe(true);
    expect(obs.text).toContain(textCap);
    const ok = await mcp.call('memory_remember', { text: words(60_000, 'epsilon') });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.data.status).toBe('created');
  });

  it('complete-task (CLI file and MCP): one cap for goal, result and feedback', async () => {
    const file = join(dirname(root), 'task.json');
    writeFileSync(file, JSON.stringify({ goal: words(over, 'zeta'), result: 'done' }));
    const r = runCli(['complete-task', '--input', file, '--no-commit', '--dir', root], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('goal is 100,001 characters, over the 100,000-character cap');
    const m = await mcp.call('memory_complete_task', { goal: 'ship it', result: words(over, 'eta'), commit: false });
    expect(m.isError).toBe(true);
    expect(m.text).toContain('result is 100,001 characters, over the 100,000-character cap');
    writeFileSync(file, JSON.stringify({ goal: words(30_000, 'theta'), result: 'the long goal was recorded' }));
    const fine = runCli(['complete-task', '--input', file, '--no-commit', '--json', '--dir', root], { env: env() });
    expect(fine.code, fine.stderr).toBe(0);
  });

  it('state set (CLI and MCP): one cap for a working-state field', async () => {
    const long = words(MAX_STATE_FIELD_CHARS + 1, 'iota');
    const msg = 'objective is 4,001 characters, over the 4,000-character cap';
    const r = runCli(['state', 'set', '--objective', long, '--dir', root], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(msg);
    const d = runCli(['state', 'set', '--decision', long, '--dir', root], { env: env() });
    expect(d.code).toBe(2);
    expect(d.stderr).toContain('decision is 4,001 characters, over the 4,000-character cap');
    const m = await mcp.call('memory_state', { action: 'set', objective: long });
    expect(m.isError).toBe(true);
    expect(m.text).toContain(msg);
  });

  it('the language server: gitmem/remember refuses over the cap with the same words', async () => {
    const s: SpawnedServer = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env: env() });
    try {
      await initializeSpawned(s, root);
      await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
      const err = await s.client.sendRequest('gitmem/remember', { text: words(over, 'kappa') }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toContain(textCap);
    } finally {
      s.kill();
    }
  });
});
