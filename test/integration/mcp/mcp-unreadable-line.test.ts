// Bad input B58 (docs/bad-inputs.md): a client that writes a line the MCP server cannot read (not
// JSON, or JSON that is no JSON-RPC message). Before, the server only logged it to stderr (for a
// schema failure, a many-line validation report; for bad JSON, the line quoted back) and the client
// got no answer at all. Now each such line gets the JSON-RPC error reply (-32700 / -32600, id null),
// stderr says it in one line without echoing the input, and the session goes on. The real server
// over real stdio.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, copyFixture } from '../../support/fixtures.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('B58: a line the MCP server cannot read', () => {
  it('gets a JSON-RPC error reply, and the session answers the next request', async () => {
    const ws = copyFixture('demo');
    dirs.push(dirname(ws));
    const child = spawn(process.execPath, [CLI, 'mcp', '--dir', ws], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', GITMEM_NO_HOST: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.write('not json \u001b[2J at all\n');
    child.stdin.write('{"hello":"world"}\n');
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      })}\n`,
    );
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no answer; stdout so far: ${out}`)), 30_000);
      const check = () => {
        if (out.split('\n').some((l) => l.includes('"id":7'))) {
          clearTimeout(t);
          resolve();
        }
      };
      child.stdout.on('data', check);
      check();
    });
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    const replies = out
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: unknown });
    expect(replies.filter((r) => r.error).map((r) => [r.id, r.error!.code])).toEqual([
      [null, -32700],
      [null, -32600],
    ]);
    expect(replies.find((r) => r.id === 7)?.result).toBeDefined();
    const lines = err.split('\n').filter((l) => l.startsWith('gitmem: error:'));
    expect(lines).toEqual([
      'gitmem: error: a line is not JSON; answered with -32700',
      'gitmem: error: a line is not a JSON-RPC message; answered with -32600',
    ]);
    expect(err).not.toContain('\u001b');
  });
});
