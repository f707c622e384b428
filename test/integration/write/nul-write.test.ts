// Bad input U11 (docs/bad-inputs.md): a NUL byte handed to a write. Real MCP server over stdio.
// `memory_remember` wrote it into the entry, which git then shows as "Binary files differ" (its
// text hidden from review) and gitmem's reader skips as binary (the entry never recalled). Every
// write through the workspace file system now refuses text holding U+0000, and nothing is written.
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, git } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

let root: string;
let mcp: McpSession;

beforeAll(async () => {
  root = committedFixture('demo');
  mcp = await startMcp(root, { XDG_CACHE_HOME: join(dirname(root), 'cache') });
});

afterAll(async () => {
  await mcp?.close();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('a NUL byte in written text', { timeout: 120_000 }, () => {
  it('memory_remember and memory_observe refuse it and write nothing', async () => {
    const before = readdirSync(join(root, 'memory/entries')).sort();
    const r = await mcp.call('memory_remember', { text: 'Cache TTL \u0000 is 60 s zqnulx' });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(/NUL/);
    expect(readdirSync(join(root, 'memory/entries')).sort()).toEqual(before);
    const o = await mcp.call('memory_observe', { text: 'turn with \u0000 inside', role: 'user' });
    expect(o.isError, o.text).toBe(true);
    expect(git(root, 'status', '--porcelain')).toBe('');
    // The same text without the NUL is fine.
    const ok = await mcp.call('memory_remember', { text: 'Cache TTL is 60 s zqnulx' });
    expect(ok.isError, ok.text).toBe(false);
  });
});
