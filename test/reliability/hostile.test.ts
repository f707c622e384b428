// Big and hostile files at CI size (bench/reliability/hostile.ts): a 50 MB note, a 1 MB single line,
// binary and invalid UTF-8 notes, deep nesting and 1,000 files in one folder; bounded time and memory,
// a clear diagnostic, and the rest keeps working. Needs dist/ (npm run build).
import { describe, expect, it } from 'vitest';
import { printHostile, runHostile } from '../../bench/reliability/hostile.js';
import { SIZES } from '../../bench/reliability/index.js';

describe('reliability: big and hostile files (B34, docs/DESIGN.md §10)', () => {
  it('B34: every hostile file is indexed or skipped with a diagnostic; no crash; recall keeps working', async () => {
    const lines: string[] = [];
    const f = await runHostile({
      manyFiles: SIZES.ci.manyFiles,
      depth: SIZES.ci.depth,
      underCapMb: SIZES.ci.underCapMb,
      log: (s) => lines.push(s),
    });
    printHostile(f, (s) => lines.push(s));
    console.log(lines.join('\n'));
    expect(f.cases.filter((c) => !c.ok).map((c) => `${c.name}: ${c.problems.join('; ')}`)).toEqual([]);
    expect(f.crashes).toBe(0);
    // Bounded memory: no step comes near the 50 MB note's size times ten.
    expect(f.maxRss).toBeLessThan(1024 * 1024 * 1024);
    const big = f.cases.find((c) => c.name.startsWith('50 MB'))!;
    expect(big.diagnostic).toMatch(/too-large/);
    expect(big.indexMs).toBeLessThan(30_000);
  }, 240_000);
});
