// Concurrent writers at CI size (bench/reliability/concurrent.ts): processes started at the same
// moment never lose an acknowledged write, and a stale expected hash is a CONFLICT, never a silent
// overwrite. Needs dist/ (npm run build).
import { describe, expect, it } from 'vitest';
import { printConcurrent, runConcurrent } from '../../bench/reliability/concurrent.js';
import { SIZES } from '../../bench/reliability/index.js';

describe('reliability: concurrent writers (B38, docs/DESIGN.md §10)', () => {
  it('same-title remember, daily appends and state set from several processes: lost 0, conflicts reported, no silent overwrite', async () => {
    const lines: string[] = [];
    const f = await runConcurrent({ writers: SIZES.ci.writers, rounds: SIZES.ci.rounds, log: (s) => lines.push(s) });
    printConcurrent(f, (s) => lines.push(s));
    console.log(lines.join('\n'));
    expect(f.failures).toEqual([]);
    expect(f.lost).toBe(0);
    expect(f.overwrites).toBe(0);
    expect(f.errors).toBe(0);
    const by = Object.fromEntries(f.scenarios.map((s) => [s.name, s]));
    // Plain writers all succeed; with one shared expected hash exactly one wins and the rest conflict.
    expect(by['same-title remember']!.acknowledged).toBe(SIZES.ci.writers * SIZES.ci.rounds);
    expect(by['daily append']!.acknowledged).toBe(SIZES.ci.writers * SIZES.ci.rounds);
    expect(by['daily append --expect-hash']!.acknowledged).toBe(SIZES.ci.rounds);
    expect(by['daily append --expect-hash']!.conflicts).toBe((SIZES.ci.writers - 1) * SIZES.ci.rounds);
    expect(by['state set --expect-hash']!.acknowledged).toBe(SIZES.ci.rounds);
    expect(by['state set --expect-hash']!.conflicts).toBe((SIZES.ci.writers - 1) * SIZES.ci.rounds);
  }, 240_000);
});
