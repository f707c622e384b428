// The block carries every current statement that answers the question before context lines (issue 45):
// each of the first results that states an answer gives its best line, in rank order, before the
// first result's neighbours (a reply, the next turn) take the bytes.
import { describe, expect, it } from 'vitest';
import { renderContextBlock, type ContextItem } from '../../../src/service/recall/context-block.js';
import { leadLines, type LeadCand } from '../../../src/service/recall/context-block-lead.js';
import { queryWeights } from '../../../src/indexes/evidence/evidence.js';
import { tokenize } from '../../../src/core/tokenize.js';

const terms = (q: string) => queryWeights(tokenize(q));

/** A long turn (about 250 bytes) that matches nothing of the question. */
const talk = (who: string, n: number) =>
  `- ${who}: Turn ${n} is about the release plan, the review queue and who takes the on-call rotation next week, ` +
  `because the team wants every reviewer to have a quiet week before the conference and nobody to carry two rotations.`;

describe('lead lines', () => {
  it('a second result that states the rule is in the block before the first result’s neighbours', () => {
    const q = terms('which decorator must be added to all classes');
    const first: ContextItem = {
      path: 'memory/2024-01-07.md',
      startLine: 9,
      endLine: 9,
      text: "- Harena: Add the '@trace_class' decorator from the 'pedantic' module to all your classes.",
      score: 10,
      around: [
        { line: 8, text: talk('Jacob', 8) },
        { line: 9, text: "- Harena: Add the '@trace_class' decorator from the 'pedantic' module to all your classes." },
        { line: 10, text: talk('Jacob', 10) },
        { line: 11, text: talk('Harena', 11) },
        { line: 12, text: talk('Jacob', 12) },
      ],
    };
    const second: ContextItem = {
      path: 'memory/2024-01-06.md',
      startLine: 9,
      endLine: 9,
      text: "- Harena: Also add the '@timer_class' decorator to all your classes, for profiling.",
      score: 6,
      around: [
        { line: 9, text: "- Harena: Also add the '@timer_class' decorator to all your classes, for profiling." },
      ],
    };
    const block = renderContextBlock([first, second], 480, { terms: q });
    expect(block.text).toContain('@trace_class');
    expect(block.text).toContain('@timer_class');
    expect(block.items).toBe(2);
    // Rank order: the first result's file comes first.
    expect(block.text.indexOf('2024-01-07')).toBeLessThan(block.text.indexOf('2024-01-06'));
  });

  it('one line per result, each distinct text once, only matching non-filler lines of weighty results', () => {
    const c = (item: number, own: number, key: string, filler = false): LeadCand => ({ item, own, key, filler });
    const cands = [
      c(0, 1, 'rule a'),
      c(0, 0.9, 'read-back of rule a'),
      c(1, 0.8, 'rule b'),
      c(2, 0.7, 'rule a'), // same text as item 0's lead line
      c(3, 0.2, 'barely matches'),
      c(4, 0.9, 'thanks!', true),
      c(5, 1, 'beyond the first five'),
    ];
    expect(leadLines(cands, () => 1)).toEqual([0, 2]);
    // A distant result (weight below the share) gives no lead line.
    expect(leadLines(cands, (i) => (i === 1 ? 0.1 : 1))).toEqual([0]);
  });

  it('a history block (by date) keeps its own order', () => {
    const q = terms('which decorator for classes');
    const items: ContextItem[] = [
      {
        path: 'memory/b.md',
        startLine: 1,
        endLine: 1,
        text: "- The '@trace_class' decorator for classes.",
        score: 2,
        date: '2024-01-07',
      },
      {
        path: 'memory/a.md',
        startLine: 1,
        endLine: 1,
        text: "- The '@timer_class' decorator for classes.",
        score: 1.9,
        date: '2024-01-06',
      },
    ];
    const block = renderContextBlock(items, 800, { terms: q, byDate: true });
    expect(block.text.indexOf('memory/a.md')).toBeLessThan(block.text.indexOf('memory/b.md'));
  });
});
