// Crash consistency at CI size (bench/reliability/crash.ts): real CLI writers SIGKILLed at random
// moments; nothing acknowledged is lost, no file is torn, recall and the next checkpoint still work.
// Needs dist/ (npm run build).
import { describe, expect, it } from 'vitest';
import { runCrash, printCrash } from '../../bench/reliability/crash.js';
import { printInterrupt, runInterrupt } from '../../bench/reliability/interrupt.js';
import { SIZES } from '../../bench/reliability/index.js';
import { EMBED_GROUP } from '../../src/engine/vectors/semantic.js';

describe('reliability: crash consistency (B05, B16, B23, docs/DESIGN.md §10)', () => {
  it('SIGKILLed remember/append/state set/index/checkpoint: lost 0, corrupt 0, nothing blocked, recall finds every checked write', async () => {
    const lines: string[] = [];
    const f = await runCrash({ kills: SIZES.ci.kills, log: (s) => lines.push(s) });
    printCrash(f, (s) => lines.push(s));
    console.log(lines.join('\n'));
    expect(f.failures).toEqual([]);
    expect(f.kills).toBeGreaterThanOrEqual(SIZES.ci.kills);
    expect(f.acknowledged).toBeGreaterThan(0);
    expect(f.lost).toBe(0);
    expect(f.corrupt).toBe(0);
    expect(f.blocked).toBe(0);
    expect(f.recallMisses).toBe(0);
    expect(f.recallChecks).toBeGreaterThan(0);
    expect(f.fsckClean).toBe(true);
  }, 240_000);

  it('SIGINT / SIGTERM / SIGKILL at 80 % of index keep the finished embeddings and the restart embeds only the rest (real model)', async () => {
    const lines: string[] = [];
    const f = await runInterrupt({ log: (s) => lines.push(s) });
    printInterrupt(f, (s) => lines.push(s));
    console.log(lines.join('\n'));
    expect(f.failures).toEqual([]);
    expect(f.runs.map((r) => r.signal)).toEqual(['SIGINT', 'SIGTERM', 'SIGKILL']);
    for (const r of f.runs) {
      expect(r.doneAtSignal).toBeGreaterThanOrEqual(0.8 * r.total);
      // Nothing saved is embedded again, nothing unsaved is skipped.
      expect(r.kept + r.reembedded).toBe(r.total);
      if (r.signal === 'SIGKILL') {
        // kill -9 keeps the last checkpoint: at most the group in flight is lost.
        expect(r.kept).toBeGreaterThanOrEqual(r.doneAtSignal - EMBED_GROUP);
        expect(r.reembedded).toBeLessThanOrEqual(r.total - r.doneAtSignal + EMBED_GROUP);
        continue;
      }
      expect([r.signal, r.signal === 'SIGINT' ? 130 : 143]).toContain(r.ended);
      // At 80 % done, the restart embeds at most the remaining 20 %.
      expect(r.kept).toBeGreaterThanOrEqual(r.doneAtSignal);
      expect(r.reembedded).toBeLessThanOrEqual(r.total - r.doneAtSignal);
    }
  }, 600_000);
});
