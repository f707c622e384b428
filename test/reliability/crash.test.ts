// Crash consistency at CI size (bench/reliability/crash.ts): real CLI writers SIGKILLed at random
// moments; nothing acknowledged is lost, no file is torn, recall and the next checkpoint still work.
// Needs dist/ (npm run build).
import { describe, expect, it } from 'vitest';
import { runCrash, printCrash } from '../../bench/reliability/crash.js';
import { SIZES } from '../../bench/reliability/index.js';

describe('reliability: crash consistency (B05, B16, B23, DESIGN §10)', () => {
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
});
