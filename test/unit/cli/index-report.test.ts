// The vectors line of `gitmem index`: an interrupted run must not claim every chunk is embedded.
import { describe, expect, it } from 'vitest';
import { vectorsLine } from '../../../src/cli/index-report.js';

describe('vectorsLine', () => {
  it('counts only the embedded chunks when some are missing (an interrupted index)', () => {
    const line = vectorsLine({ embedded: 0, missing: 2764, total: 2764, unavailable: null });
    expect(line).toBe('Vectors: 0 of 2764 chunks embedded (0 new, 2764 missing)');
    expect(vectorsLine({ embedded: 10, missing: 4, total: 14, unavailable: null })).toBe(
      'Vectors: 10 of 14 chunks embedded (10 new, 4 missing)',
    );
  });

  it('a complete run and an unusable model', () => {
    expect(vectorsLine({ embedded: 12, missing: 0, total: 388, unavailable: null })).toBe(
      'Vectors: 388 embedded chunks (12 new)',
    );
    expect(vectorsLine({ embedded: 0, missing: 0, total: 0, unavailable: 'model missing' })).toBe(
      'vectors: off — model missing',
    );
  });
});
