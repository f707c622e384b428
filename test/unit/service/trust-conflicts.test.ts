// The recall-side labeller (service/trust/conflicts.ts) on hand-made views: which result is newer
// (supersedes, dates, line order, rank), the order it gives, and what is never labelled.
import { describe, expect, it } from 'vitest';
import { applyConflictLabels, labelConflicts, type ConflictView } from '../../../src/service/trust/conflicts.js';

const TEN = 'The database connection pool holds 10 connections.';
const FIFTY = 'The database connection pool holds 50 connections.';
const entry = (id: string, text: string, extra: Partial<ConflictView> = {}): ConflictView => ({
  path: `memory/entries/${id}.md`,
  startLine: 9,
  text,
  entryId: id,
  ...extra,
});

describe('labelConflicts', () => {
  it('puts the later-created entry first and labels the other with its id', () => {
    const views = [
      entry('pool-ten', TEN, { date: '2026-11-20T10:00:00Z' }),
      entry('pool-fifty', FIFTY, { date: '2026-11-20T10:00:05Z' }),
    ];
    const l = labelConflicts(views);
    expect(l.order).toEqual([1, 0]);
    expect([...l.conflictsWith]).toEqual([[0, ['pool-fifty']]]);
  });

  it('supersession decides over dates, and works without any contradiction in the text', () => {
    const views = [
      entry('deploy-new', 'Deploys run from the pipeline.', { date: '2026-01-01', supersedes: ['deploy-old'] }),
      entry('deploy-old', 'Ship by hand on Fridays.', { date: '2026-06-01' }),
    ];
    const l = labelConflicts(views);
    expect(l.order).toEqual([0, 1]);
    expect(l.conflictsWith.get(1)).toEqual(['deploy-new']);
  });

  it('two prose lines are never compared by claims (an entry on one side at least); a newer prose line is referenced as path:line', () => {
    const prose: ConflictView[] = [
      { path: 'MEMORY.md', startLine: 4, text: `- ${FIFTY}` },
      { path: 'MEMORY.md', startLine: 40, text: `- ${TEN}` },
    ];
    const p = labelConflicts(prose);
    expect(p.order).toEqual([0, 1]);
    expect(p.conflictsWith.size).toBe(0);
    const mixed: ConflictView[] = [
      entry('pool-fifty', FIFTY, { date: '2026-01-01T00:00:00Z' }),
      { path: 'memory/2026-06-01.md', startLine: 7, text: `- ${TEN}`, date: '2026-06-01' },
    ];
    const l = labelConflicts(mixed);
    expect(l.order).toEqual([1, 0]);
    expect(l.conflictsWith.get(0)).toEqual(['memory/2026-06-01.md:7']);
  });

  it('a date in the headings above a line counts; without any date the better-ranked stays first', () => {
    const dated: ConflictView[] = [
      { path: 'MEMORY.md', startLine: 150, text: FIFTY, headingPath: ['Memory', 'Promoted (2026-05-01)'] },
      entry('pool-ten', TEN, { date: '2026-12-07T03:20:29Z' }),
    ];
    expect(labelConflicts(dated).conflictsWith.get(0)).toEqual(['pool-ten']);
    const undated: ConflictView[] = [entry('pool-ten', TEN), { path: 'b.md', startLine: 7, text: FIFTY }];
    const l = labelConflicts(undated);
    expect(l.order).toEqual([0, 1]);
    expect(l.conflictsWith.get(1)).toEqual(['pool-ten']);
  });

  it('never labels agreeing or unrelated results, two spans of one entry, or a compatible_with pair', () => {
    expect(
      labelConflicts([
        entry('a', TEN),
        entry('b', 'Each instance keeps its database connection pool at 10 connections.'),
        entry('c', 'Slow queries are logged when they take over 200 ms.'),
      ]).conflictsWith.size,
    ).toBe(0);
    expect(labelConflicts([entry('x', TEN), { ...entry('x', FIFTY), startLine: 12 }]).conflictsWith.size).toBe(0);
    expect(labelConflicts([entry('a', TEN, { compatibleWith: ['b'] }), entry('b', FIFTY)]).conflictsWith.size).toBe(0);
  });
});

describe('applyConflictLabels', () => {
  it('reorders items, marks the labelled one and lifts a moved newer item to the older one’s score', () => {
    const l = labelConflicts([
      entry('old', TEN, { date: '2026-01-01' }),
      entry('other', 'Webhook payloads are signed.'),
      entry('new', FIFTY, { date: '2026-02-01' }),
    ]);
    const items = [
      { id: 'old', score: 0.9 },
      { id: 'other', score: 0.8 },
      { id: 'new', score: 0.5 },
    ];
    const out = applyConflictLabels(items, [0, 1, 2], l, (x, w) => ({ ...x, w }), {
      score: (x) => x.score,
      set: (x, score) => ({ ...x, score }),
    });
    expect(out.map((x) => x.id)).toEqual(['new', 'old', 'other']);
    expect(out[0]!.score).toBe(0.9);
    expect(out[1]).toMatchObject({ id: 'old', w: ['new'] });
    // Items that are not in the list (a view without an item) are skipped.
    expect(applyConflictLabels(items.slice(0, 2), [0, 1], l, (x) => x).map((x) => x.id)).toEqual(['old', 'other']);
  });
});
