// Bad input R121 (docs/bad-inputs.md): the writer record (service/review/writers.ts) was a read,
// change and replace of `writers.json` with no lock. Two writers at once (two agents' MCP servers on
// one workspace, or two writes in one process) each read the old record and the last replace won:
// the other agent's file lost its record and read as a person's, `reviewed`, fit for injected
// blocks. Each update now holds the record's own lock in the index folder.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { readWriters, recordWriter } from '../../../src/service/review/writers.js';
import { committedFixture, noModelEnv, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

describe('the writer record under concurrent writers', () => {
  it('keeps every record when updates in one process overlap', async () => {
    const storage = createIndexStorage(join(tempDir(), 'index'));
    const paths = Array.from({ length: 12 }, (_, i) => `memory/notes/n${i}.md`);
    await Promise.all(paths.map((p) => recordWriter(storage, new Map([[p, `text ${p}\n`]]), 'agent', 'mcp')));
    const records = await readWriters(storage);
    expect(Object.keys(records).sort()).toEqual([...paths].sort());
    expect(Object.values(records).every((r) => r.writer === 'agent')).toBe(true);
  });

  describe('two MCP servers on one workspace', () => {
    let root = '';
    const servers: McpSession[] = [];
    beforeAll(async () => {
      requireBuiltCli();
      root = committedFixture('demo');
      for (let i = 0; i < 2; i++) servers.push(await startMcp(root, noModelEnv(root)));
    });
    afterAll(async () => {
      for (const s of servers) await s.close();
      if (root) rmSync(dirname(root), { recursive: true, force: true });
    });

    it("every agent write stays the agent's: each file awaits review", async () => {
      const calls = servers.flatMap((s, i) =>
        Array.from({ length: 8 }, (_, j) =>
          s.call('memory_remember', {
            type: 'learning',
            text: `Quokka ledger shard ${i}-${j} keeps its own retention window of ${10 + j} days.`,
          }),
        ),
      );
      const answers = await Promise.all(calls);
      for (const a of answers) expect(a.isError, a.text).toBe(false);
      const written = answers.map((a) => String(a.data.path));
      expect(new Set(written).size).toBe(16);

      const review = runCli(['review', '--json', '--dir', root], { env: noModelEnv(root) });
      expect(review.code, review.stderr).toBe(0);
      const pending = (review.json().pending as { path: string; state: string }[]).filter((p) =>
        written.includes(p.path),
      );
      expect(pending.map((p) => p.path).sort()).toEqual([...written].sort());
      expect(pending.every((p) => p.state === 'unreviewed')).toBe(true);
    });
  });
});
