// Scheduled dreams in a REAL `gitmem watch` process (dist/cli.cjs; `npm run build` first) on a Fusion
// workspace in git: the Fusion setting names, a schedule of every minute (cron `* * * * *`) and a
// 90 s minimum interval. The first minute boundary runs the dream pass — DREAMS.md gets the proposal,
// memory-insights.md lists it, memory-audit.md gets one dated section, all uncommitted and shown by
// `gitmem diff HEAD`, MEMORY.md untouched (nothing promoted) — and the next boundary is skipped.
// Real time: up to ~2 minutes. Only the check interval is shortened (GITMEM_DREAM_CHECK_MS, read
// for tests) so the process notices each boundary within 250 ms; the schedule itself is real.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, runCli } from '../../support/fixtures.js';
import { startWatchJson } from '../../support/watch-process.js';
import { fusionDreamWorkspace } from '../../support/dream-workspace.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function fusionWorkspace(): string {
  const root = fusionDreamWorkspace('gitmem-dream-sched-', {
    insightExtractionEnabled: true,
    insightExtractionSchedule: '* * * * *',
    insightExtractionMinIntervalMs: 90_000,
  });
  roots.push(dirname(root));
  return root;
}

describe('gitmem watch runs dreams on a schedule (Fusion layout)', () => {
  it(
    'every minute with a 90 s minimum interval: the first tick writes insights and audit, the second is skipped',
    { timeout: 200_000 },
    async () => {
      const root = fusionWorkspace();
      const memoryBefore = readFileSync(join(root, '.fusion/memory/MEMORY.md'), 'utf8');
      const w = startWatchJson(root, { GITMEM_DREAM_CHECK_MS: '250' });
      const { child, lines } = w;
      const exited = w.exited.then((e) => e.code);
      // The first line of `event`, already read or still to come.
      const next = (event: string, timeoutMs: number): Promise<any> =>
        Promise.resolve(lines.find((l) => l.event === event) ?? w.next((l) => l.event === event, timeoutMs));
      try {
        const ready = await next('ready', 30_000);
        expect(ready.dreams).toMatchObject({
          schedule: '* * * * *',
          minIntervalMs: 90_000,
          next: expect.stringMatching(/:00\.000Z$/),
        });

        const ran = await next('dream', 75_000);
        expect(new Date(ran.at).getSeconds()).toBeLessThan(5);
        expect(ran.result.proposed).toHaveLength(1);
        const id: string = ran.result.proposed[0];
        expect(ran.result.files).toEqual([
          '.fusion/memory/DREAMS.md',
          '.fusion/memory/memory-insights.md',
          '.fusion/memory/memory-audit.md',
        ]);
        const insights = readFileSync(join(root, '.fusion/memory/memory-insights.md'), 'utf8');
        expect(insights).toMatch(/^# Memory insights\n/);
        expect(insights).toContain(`## ${id}: promote`);
        expect(insights).toContain('.fusion/memory/2026-11-20.md:3');
        const audit = readFileSync(join(root, '.fusion/memory/memory-audit.md'), 'utf8');
        expect(audit.match(/^## \d{4}-\d\d-\d\d \d\d:\d\d UTC$/gm)).toHaveLength(1);
        expect(audit).toContain(
          `- proposed: 1 (${id})\n- promoted: 0\n- rejected: 0\n- pruned: 0\n- awaiting review: 1\n`,
        );
        expect(readFileSync(join(root, '.fusion/memory/DREAMS.md'), 'utf8')).toContain(`- id: ${id}`);
        // Nothing promoted, nothing committed: the run is reviewed in the work tree.
        expect(readFileSync(join(root, '.fusion/memory/MEMORY.md'), 'utf8')).toBe(memoryBefore);
        expect(git(root, 'log', '--oneline').trim().split('\n')).toHaveLength(1);
        const diff = runCli(['diff', 'HEAD', '--dir', root]);
        expect(diff.stdout).toContain('memory-insights.md');
        expect(diff.stdout).toContain('memory-audit.md');

        const skipped = await next('dream-skipped', 75_000);
        expect(skipped.lastRun).toBe(ran.at);
        expect(Date.parse(skipped.allowedAt) - Date.parse(ran.at)).toBe(90_000);
        expect(lines.filter((l) => l.event === 'dream')).toHaveLength(1);
        expect(readFileSync(join(root, '.fusion/memory/memory-audit.md'), 'utf8')).toBe(audit);
      } finally {
        child.kill('SIGINT');
        expect(await exited).toBe(0);
      }
    },
  );
});
