// Bad input B42 (docs/bad-inputs.md): an MCP memory_recall right after a large change. The real MCP
// server over stdio (`gitmem mcp`, the SDK's client), the real ONNX model: the workspace is indexed,
// 50 new entry files (300 chunks) are written, and a hybrid memory_recall is sent at once. Checked by
// the order of events, not by a clock: that first answer did not wait for the embedding (chunks are
// pending and the note names the background catch-up, not the inline limit); then, with only memory_stats calls (which
// never embed), the process's vectors reach the count a fresh index of the same files has, and a
// recall after that equals one from a copy indexed from scratch.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/fixtures.js';
import { startMcp } from '../../support/mcp.js';
import { BULK_QUERY, bulkEntry, rankedShape } from '../../support/bulk-update.js';
import { modelEnv } from '../../support/model.js';
import { workspace } from '../../support/watch.js';
import { until } from '../../support/wait.js';

describe('B42: MCP recall during a large change (real model)', { timeout: 400_000 }, () => {
  it('answers from the keyword index at once and catches the vectors up between calls', async () => {
    const root = workspace(
      {
        'memory/MEMORY.md': '# Memory\n\n- The staging database is reset every night.\n',
        'memory/entries/bulk-0.md': bulkEntry(0, 6),
      },
      { model: { enabled: true } },
    );
    const env = modelEnv();
    const initial = runCli(['index', '--json', '--dir', root], { env });
    expect(initial.code, initial.stderr).toBe(0);
    const before: number = initial.json().vectors.total;
    const mcp = await startMcp(root, env);
    const copy = join(tempDir('gitmem-b42-copy-'), 'ws');
    try {
      // The server's first look at the files (it walks when it starts): done before the change, so the
      // change below is found by the recall under test, not by that startup walk.
      const settled = await mcp.call('memory_stats');
      expect(settled.isError, settled.text).toBe(false);
      for (let i = 1; i <= 50; i++) writeFileSync(join(root, 'memory', 'entries', `bulk-${i}.md`), bulkEntry(i, 6));
      // The fresh index of the same files: how many vectors a caught-up process holds, and its answer.
      cpSync(root, copy, { recursive: true, filter: (p) => !p.includes('.gitmem') });
      const built = runCli(['index', '--json', '--dir', copy], { env });
      expect(built.code, built.stderr).toBe(0);
      const total: number = built.json().vectors.total;
      const fresh = runCli(['recall', BULK_QUERY, '--json', '--mode', 'hybrid', '--limit', '10', '--dir', copy], {
        env,
      });
      expect(fresh.code, fresh.stderr).toBe(0);

      // 1. The first recall after the change: the keyword index has the new files, no vector was embedded inline.
      const first = await mcp.call('memory_recall', { query: BULK_QUERY, mode: 'hybrid', limit: 10 });
      expect(first.isError, first.text).toBe(false);
      expect(first.data.degraded).toMatch(/being embedded in the background/);
      // More than one recall would embed inline (recall.inlineEmbedLimit); the catch-up may have done a group already.
      expect(total - before).toBeGreaterThan(256);
      expect(first.data.vectorsPending).toBeGreaterThan(0);
      expect(first.data.vectorsPending).toBeLessThanOrEqual(total - before);
      expect(first.data.results.some((r: any) => r.path.startsWith('memory/entries/bulk-'))).toBe(true);

      // 2. Between calls (memory_stats never embeds) the vectors catch up to the fresh index's count.
      // The server sends no event when the catch-up ends: ask memory_stats until it says so.
      await until(
        async () => {
          const stats = await mcp.call('memory_stats');
          expect(stats.isError, stats.text).toBe(false);
          return stats.data.model.vectors === total;
        },
        'the vectors to catch up',
        { everyMs: 200, deadlineMs: 300_000 },
      );
      const after = await mcp.call('memory_recall', { query: BULK_QUERY, mode: 'hybrid', limit: 10 });
      expect(after.data.degraded ?? null).toBeNull();
      expect(after.data.vectorsPending).toBeUndefined();
      expect(rankedShape(after.data)).toEqual(rankedShape(fresh.json()));
    } finally {
      await mcp.close();
      rmSync(dirname(copy), { recursive: true, force: true });
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});
