// The possible-conflict check (src/service/shared/conflict.ts compareClaims) on the labelled pairs of
// fixtures/conflicts/pairs.json: precision and recall of "conflict", on every pair and on each split
// (`tune`: the pairs the check was designed on; `held-out`: written before it changed, never used to
// choose its rules). Each pair is judged in both orders, as a new memory may be either one. Agreeing
// and merely related pairs are the negatives. Printed by `npm run bench` (scripts/bench.mjs, first
// section; `--only conflicts` for this alone) and asserted by test/unit/service/conflict.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareClaims } from '../src/service/shared/conflict.js';

export interface LabelledPair {
  readonly label: 'agree' | 'conflict' | 'related';
  readonly a: string;
  readonly b: string;
  readonly case?: string;
  readonly source?: string;
  readonly split?: 'tune' | 'held-out';
}

export interface PairScore {
  readonly pairs: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  /** tp / (tp + fp); 1 when nothing was flagged. */
  readonly precision: number;
  /** tp / (tp + fn); 1 when there is no conflict. */
  readonly recall: number;
  /** One line per wrong judgement: `false positive (<label>, <case>): a | b` or `missed (<case>): a | b`. */
  readonly wrong: readonly string[];
}

/** Goal of issue 41: precision at least this… */
export const PRECISION_GOAL = 0.95;
/** …at recall at least this. */
export const RECALL_GOAL = 0.9;

/** The labelled pairs under `repo`/fixtures/conflicts/pairs.json. */
export function loadPairs(repo: string): LabelledPair[] {
  const raw = JSON.parse(readFileSync(join(repo, 'fixtures', 'conflicts', 'pairs.json'), 'utf8')) as {
    pairs: LabelledPair[];
  };
  return raw.pairs;
}

/** Score `judge` (true = "these two contradict") on `pairs`, both orders each. */
export function scorePairs(
  pairs: readonly LabelledPair[],
  judge: (a: string, b: string) => boolean = (a, b) => compareClaims(a, b).reasons.length > 0,
): PairScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const wrong: string[] = [];
  for (const p of pairs) {
    for (const [x, y] of [
      [p.a, p.b],
      [p.b, p.a],
    ] as const) {
      const flagged = judge(x, y);
      if (flagged && p.label === 'conflict') tp++;
      else if (flagged) {
        fp++;
        wrong.push(`false positive (${p.label}, ${p.case ?? ''}): ${x} | ${y}`);
      } else if (p.label === 'conflict') {
        fn++;
        wrong.push(`missed (${p.case ?? ''}): ${x} | ${y}`);
      }
    }
  }
  return {
    pairs: pairs.length,
    tp,
    fp,
    fn,
    precision: tp + fp ? tp / (tp + fp) : 1,
    recall: tp + fn ? tp / (tp + fn) : 1,
    wrong,
  };
}

const fmt = (s: PairScore) =>
  `precision ${s.precision.toFixed(3)}, recall ${s.recall.toFixed(3)} (${s.pairs} pairs, both orders: tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`;

/** The bench lines: all pairs with the goal beside them, then each split, then every wrong judgement. */
export function conflictBenchLines(repo: string): string[] {
  const pairs = loadPairs(repo);
  const all = scorePairs(pairs);
  const counts = (l: string) => pairs.filter((p) => p.label === l).length;
  const met = all.precision >= PRECISION_GOAL && all.recall >= RECALL_GOAL;
  const lines = [
    `conflict check, ${pairs.length} labelled pairs (${counts('conflict')} conflict, ${counts('agree')} agree, ${counts('related')} related): ${fmt(all)}; goal precision >= ${PRECISION_GOAL} at recall >= ${RECALL_GOAL}: ${met ? 'met' : 'NOT met'}`,
  ];
  for (const split of ['tune', 'held-out'] as const) {
    const part = pairs.filter((p) => (p.split ?? 'tune') === split);
    if (part.length) lines.push(`  ${split}: ${fmt(scorePairs(part))}`);
  }
  for (const w of all.wrong) lines.push(`  ${w}`);
  return lines;
}
