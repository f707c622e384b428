// The lead lines of a context block: before any line that is there only as context (a reply, a
// preamble, the next turn), each of the first results that states an answer in a line of its own
// gives that one line, in rank order. A question whose answer is several current statements (two
// rules that add up, a fact told in two sessions) then gets each of them before the first result's
// neighbours take the bytes; one line per result, so a rule repeated in a read-back is not shown
// twice ahead of another rule. Used by context-block.ts (renderContextBlock); pure logic.
// deps: none.

/** A candidate line as the lead pass sees it (context-block.ts Cand). */
export interface LeadCand {
  /** Index of its item (rank order). */
  readonly item: number;
  /** Its own match to the question: the line's BM25 score ÷ the best line of all items (0 when it matches nothing). */
  readonly own: number;
  /** Normalised text: lines with the same key are one line. */
  readonly key: string;
  /** An acknowledgement or pleasantry ("Good.", "Thanks, Mel!"). */
  readonly filler: boolean;
}

/** Only the first LEAD_ITEMS results give a lead line. */
export const LEAD_ITEMS = 5;
/** A lead line matches the question at least this share of the best line of all items… */
export const LEAD_OWN = 0.5;
/** …and its item weighs at least this much (its score ÷ the first's, squared; context-block.ts weight). */
export const LEAD_WEIGHT = 0.3;

/**
 * Indexes into `cands` of the lead lines, in rank order: for each of the first LEAD_ITEMS items
 * whose weight is at least LEAD_WEIGHT, its best matching line (highest `own`; the earlier line on
 * a tie) when that line is no filler, matches at least LEAD_OWN and is not the same text as an
 * earlier lead line.
 * @param weight item index → its weight in [0, 1] (1 for the first item).
 */
export function leadLines(cands: readonly LeadCand[], weight: (item: number) => number): number[] {
  const best = new Map<number, number>();
  cands.forEach((c, k) => {
    if (c.item >= LEAD_ITEMS || c.filler || c.own < LEAD_OWN) return;
    const b = best.get(c.item);
    if (b === undefined || c.own > cands[b]!.own) best.set(c.item, k);
  });
  const out: number[] = [];
  const keys = new Set<string>();
  for (const item of [...best.keys()].sort((a, b) => a - b)) {
    const k = best.get(item)!;
    if (weight(item) < LEAD_WEIGHT || keys.has(cands[k]!.key)) continue;
    keys.add(cands[k]!.key);
    out.push(k);
  }
  return out;
}
