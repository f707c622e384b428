// The possible-conflict check against the labelled pairs the tests own (fixtures/conflicts/): every
// pair is judged, precision and recall of "conflict" are printed, and a floor is asserted. Agreeing
// and merely related pairs are the negatives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareClaims } from '../../../src/service/shared/conflict.js';
import { REPO } from '../../support/fixtures.js';

interface Pair {
  label: 'agree' | 'conflict' | 'related';
  a: string;
  b: string;
}
const { pairs } = JSON.parse(readFileSync(join(REPO, 'fixtures', 'conflicts', 'pairs.json'), 'utf8')) as {
  pairs: Pair[];
};

describe('possible-conflict check on the labelled pairs', () => {
  it('has precision and recall of at least 0.8 on conflicts (printed)', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(40);
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const wrong: string[] = [];
    for (const p of pairs) {
      // The check is symmetric in intent: judge both orders, as a new memory may be either one.
      for (const [x, y] of [
        [p.a, p.b],
        [p.b, p.a],
      ] as const) {
        const flagged = compareClaims(x, y).reasons.length > 0;
        if (flagged && p.label === 'conflict') tp++;
        else if (flagged) {
          fp++;
          wrong.push(`false positive (${p.label}): ${x} | ${y}`);
        } else if (p.label === 'conflict') {
          fn++;
          wrong.push(`missed: ${x} | ${y}`);
        }
      }
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    const counts = {
      conflict: pairs.filter((p) => p.label === 'conflict').length,
      agree: pairs.filter((p) => p.label === 'agree').length,
      related: pairs.filter((p) => p.label === 'related').length,
    };
    console.log(
      `conflict check on ${pairs.length} pairs (${JSON.stringify(counts)}, both orders): precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (tp ${tp}, fp ${fp}, fn ${fn})\n${wrong.join('\n')}`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.8);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });

  it('names why: a negation, a number, an opposite word, a substituted value', () => {
    expect(
      compareClaims('CI caches node_modules between runs.', 'CI does not cache node_modules between runs.').reasons,
    ).toContain('negation');
    expect(compareClaims('The pool holds 10 connections.', 'The pool holds 50 connections.').reasons).toEqual([
      'number',
    ]);
    expect(
      compareClaims('Feature flags are enabled in staging.', 'Feature flags are disabled in staging.').reasons,
    ).toEqual(['opposite']);
    expect(
      compareClaims('Production deploys run on Tuesday mornings.', 'Production deploys run on Friday afternoons.')
        .reasons,
    ).toEqual(['substitution']);
    expect(compareClaims('The pool holds 10 connections.', 'The pool holds 10 connections.').reasons).toEqual([]);
    expect(compareClaims('The pool holds 10 connections.', 'Webhook payloads are signed.').similarity).toBeLessThan(
      0.4,
    );
  });
});
