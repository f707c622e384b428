// The wait between two `gitmem sync` rounds after a lost push race (service/git-ops/sync-rounds.ts):
// it doubles each round up to the cap, and its random share spreads clones that lost together.
import { describe, expect, it } from 'vitest';
import { RETRY_BASE_MS, RETRY_CAP_MS, retryDelayMs } from '../../../../src/service/git-ops/sync-rounds.js';

describe('retryDelayMs', () => {
  it('lies between half the ceiling and the ceiling, which doubles each round', () => {
    for (let round = 1; round <= 8; round++) {
      const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** (round - 1));
      expect(retryDelayMs(round, 0)).toBe(ceiling / 2);
      expect(retryDelayMs(round, 0.999999)).toBe(ceiling);
      expect(retryDelayMs(round, 0.5)).toBe((3 * ceiling) / 4);
    }
    expect(retryDelayMs(2, 0)).toBe(2 * retryDelayMs(1, 0));
  });

  it('never exceeds the cap, and a random value out of [0, 1) is clamped', () => {
    expect(retryDelayMs(40, 1)).toBe(RETRY_CAP_MS);
    expect(retryDelayMs(1, -3)).toBe(RETRY_BASE_MS / 2);
    expect(retryDelayMs(1, 7)).toBe(RETRY_BASE_MS);
  });
});
