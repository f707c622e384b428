// Fuzzing at CI size (bench/reliability/fuzz.ts, fast-check): parser, CURRENT_STATE parser, query
// parser, recall, path handling and the node file system over random hostile input: 0 failures.
import { describe, expect, it } from 'vitest';
import { printFuzz, runFuzz } from '../../bench/reliability/fuzz.js';
import { SIZES } from '../../bench/reliability/index.js';

describe('reliability: fuzzing (B01, B08, B10, B11, B14, B33)', () => {
  it('every property holds for random markdown, queries and paths', async () => {
    const lines: string[] = [];
    const f = await runFuzz({ runs: SIZES.ci.fuzzRuns, log: (s) => lines.push(s) });
    printFuzz(f, (s) => lines.push(s));
    console.log(lines.join('\n'));
    expect(f.properties.filter((p) => p.failures > 0)).toEqual([]);
    expect(f.failures).toBe(0);
    expect(f.cases).toBeGreaterThan(SIZES.ci.fuzzRuns * 5);
  }, 120_000);
});
