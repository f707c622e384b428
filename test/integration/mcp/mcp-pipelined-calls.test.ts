// Bad input R58 (docs/bad-inputs.md): an agent that sends memory_remember and then memory_recall
// without waiting for the first answer (MCP allows requests in flight together). The real server over
// stdio (`gitmem mcp`, the SDK's client), keyword only: the recall sent after the write sees it, and a
// write sent after a read is still made. Checked by the answers, not by a clock.
import { dirname } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, noModelEnv } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

const root = committedFixture('demo');
let mcp: McpSession | undefined;
afterAll(async () => {
  await mcp?.close();
  rmSync(dirname(root), { recursive: true, force: true });
});

describe('R58: calls in flight together are answered in the order they were sent', () => {
  it('a recall sent right after a remember finds what the remember wrote', async () => {
    mcp = await startMcp(root, noModelEnv(root));
    for (let i = 0; i < 3; i++) {
      const word = `quokkabridge${i}`;
      const [written, found] = await Promise.all([
        mcp.call('memory_remember', { text: `The ${word} service restarts at noon.`, type: 'learning' }),
        mcp.call('memory_recall', { query: word, mode: 'keyword' }),
      ]);
      expect(written.isError, written.text).toBe(false);
      expect(written.data.status).toBe('created');
      expect(found.isError, found.text).toBe(false);
      expect(found.data.results.map((r: { path: string }) => r.path)).toEqual([written.data.path]);
    }
  });

  it('a write sent after a read is made, and two identical writes in flight make one entry', async () => {
    const [, a, b] = await Promise.all([
      mcp!.call('memory_recall', { query: 'anything', mode: 'keyword' }),
      mcp!.call('memory_remember', { text: 'The wombatgate cache holds ten entries.', type: 'learning' }),
      mcp!.call('memory_remember', { text: 'The wombatgate cache holds ten entries.', type: 'learning' }),
    ]);
    expect([a.data.status, b.data.status]).toEqual(['created', 'duplicate']);
  });
});
