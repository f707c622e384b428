// The language server runs the dream schedule as `gitmem watch` does: a Fusion workspace in git with
// insightExtraction* enabled (cron `0 2 * * *`), the real server in-process with a clock the test
// moves past the next 02:00. The pass writes DREAMS.md and memory-insights.md (nothing committed,
// MEMORY.md untouched), the server logs it, and recall finds the new proposal after the re-index.
// Only the check interval is shortened (GITMEM_DREAM_CHECK_MS, read for tests).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../../support/fixtures.js';
import { fusionDreamWorkspace } from '../../support/dream-workspace.js';
import { createLspPair, type LspPair } from '../../support/lsp.js';

function fusionWorkspace(enabled: boolean): string {
  return fusionDreamWorkspace('gitmem-lsp-dreams-', {
    insightExtractionEnabled: enabled,
    insightExtractionSchedule: '0 2 * * *',
  });
}

const saved = process.env.GITMEM_DREAM_CHECK_MS;
beforeAll(() => {
  process.env.GITMEM_DREAM_CHECK_MS = '50';
});
afterAll(() => {
  if (saved === undefined) delete process.env.GITMEM_DREAM_CHECK_MS;
  else process.env.GITMEM_DREAM_CHECK_MS = saved;
});

describe('the language server runs scheduled dreams', () => {
  it('at the next occurrence: proposals written, uncommitted, logged and re-indexed', async () => {
    const root = fusionWorkspace(true);
    const memoryBefore = readFileSync(join(root, '.fusion/memory/MEMORY.md'), 'utf8');
    let now = new Date('2026-12-01T00:30:00Z');
    const p: LspPair = createLspPair(root, { clock: { now: () => now }, reindexDelayMs: 30 });
    try {
      await p.start();
      await p.inbox.until(
        () => p.inbox.logs.some((l) => l.startsWith('gitmem: dreams on "0 2 * * *"')),
        'the schedule',
      );
      const updates = p.server.updates();
      now = new Date('2026-12-03T00:30:00Z');
      await p.inbox.until(() => p.inbox.logs.some((l) => l.startsWith('gitmem: dream: ')), 'the dream pass');
      const line = p.inbox.logs.find((l) => l.startsWith('gitmem: dream: '))!;
      expect(line).toMatch(/^gitmem: dream: 1 new proposals, 1 awaiting review \(.*\.fusion\/memory\/DREAMS\.md/);
      const dreams = readFileSync(join(root, '.fusion/memory/DREAMS.md'), 'utf8');
      const id = /- id: (\S+)/.exec(dreams)?.[1];
      expect(id).toBeDefined();
      expect(readFileSync(join(root, '.fusion/memory/memory-insights.md'), 'utf8')).toContain(`## ${id}: promote`);
      expect(readFileSync(join(root, '.fusion/memory/MEMORY.md'), 'utf8')).toBe(memoryBefore);
      // Nothing committed: the pass only proposes.
      expect(git(root, 'status', '--porcelain')).toContain('DREAMS.md');
      await p.inbox.until(() => p.server.updates() > updates, 'the re-index of the written files');
    } finally {
      await p.close();
    }
  });

  it('off by default: no schedule, no pass', async () => {
    const root = fusionWorkspace(false);
    let now = new Date('2026-12-01T00:30:00Z');
    const p: LspPair = createLspPair(root, { clock: { now: () => now } });
    try {
      await p.start();
      now = new Date('2026-12-03T00:30:00Z');
      // The session's start line is logged after the schedule is started or left off (server.ts):
      // once it is here, a schedule that was started has said so ("dreams on"), and with none there
      // is no timer left to run a pass.
      await p.inbox.until(() => p.inbox.logs.some((l) => / ready in \d+ ms/.test(l)), 'the session start line');
      await p.client.sendRequest('gitmem/getStatus', {});
      expect(p.inbox.logs.filter((l) => l.includes('dream'))).toEqual([]);
    } finally {
      await p.close();
    }
  });
});
