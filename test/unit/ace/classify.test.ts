// Classification quality over the labelled table (test/unit/ace/labelled.ts): reports accuracy and
// the per-type confusion, asserts at least 85 %.
import { describe, expect, it } from 'vitest';
import { ENTRY_TYPES } from '../../../src/core/document.js';
import { classifyTask } from '../../../src/ace/classify.js';
import { LABELLED } from './labelled.js';

describe('classifyTask over the labelled table', () => {
  it('covers every type with at least 40 examples', () => {
    expect(LABELLED.length).toBeGreaterThanOrEqual(40);
    for (const t of ENTRY_TYPES) expect(LABELLED.filter((x) => x.type === t).length).toBeGreaterThanOrEqual(5);
  });

  it('classifies at least 85 % correctly', () => {
    const misses: string[] = [];
    for (const t of LABELLED) {
      const c = classifyTask(t);
      if (c.type !== t.type)
        misses.push(`${t.type} → ${c.type}: ${t.goal} ${JSON.stringify(c.scores)} ${c.rules.join(',')}`);
    }
    const accuracy = (LABELLED.length - misses.length) / LABELLED.length;
    console.log(
      `ACE classification accuracy: ${(accuracy * 100).toFixed(1)} % (${LABELLED.length - misses.length}/${LABELLED.length})`,
    );
    for (const m of misses) console.log(`  miss: ${m}`);
    expect(accuracy).toBeGreaterThanOrEqual(0.85);
  });
});
