// Unit tests for versions of one thing in date order (service/recall/version-order.ts, applied by
// restatement.ts newerFirst): when several hits are statements of the same rule, every later one
// ranks above every earlier one — not only the newest above the rest — over the rank slots they
// already hold among the results returned, so other hits keep their places, the set returned stays
// the same and scores stay in rank order. Negative cases: hits outside a group, versions of one day,
// and a version below the cut keep their places. Chunks are built by hand
// (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { queryWeights } from '../../../src/indexes/evidence/evidence.js';
import { tokenize } from '../../../src/core/tokenize.js';
import { newerFirst, restatements, type Restatement } from '../../../src/service/recall/restatement.js';
import { versionsNewestFirst } from '../../../src/service/recall/version-order.js';
import { chunk } from '../../support/recall-snapshot.js';

/** A daily-note chunk of `date` holding `lines` from line 3. */
const day = (id: string, date: string, lines: string[]): ChunkRecord =>
  chunk(id, lines.join('\n'), { path: `memory/${date}.md`, kind: 'daily', date });

const ATTRIBUTES = 'What is the current rule for naming attributes?';
const s1 = day('s', '2024-01-09', ["- Juan: From now on, please start your attribute names with 's_'."]);
const t2 = day('t', '2024-01-10', ["- Juan: We now have a new convention for attribute names. Start them with 't_'."]);
const xt3 = day('xt', '2024-01-19', ["- Juan: Additionally, I'd like you to begin attribute names with 'xt_'."]);
// Names the subject, later than every version, and states no value: the judge may take it for the newest.
const vague = day('vague', '2024-01-20', [
  '- Juan: We primarily use clear attribute names across the team, and consistent naming helps reviews.',
]);
const other = day('other', '2024-01-12', ['- Juan: The weekly sync moves to Thursday.']);
const byId = new Map([s1, t2, xt3, vague, other].map((c) => [c.id, c]));
const get = (ref: string) => byId.get(ref);
const dayOf = (ref: string) => get(ref)?.date?.slice(0, 10) ?? '';
const at = (c: ChunkRecord): Restatement => ({ path: c.path, line: c.startLine, date: c.date! });

describe('versions of one thing, newest first', () => {
  it('an earlier version never ranks above a later one moved below the same newest statement', () => {
    const hits = [
      { ref: 's', score: 5 },
      { ref: 't', score: 4 },
      { ref: 'other', score: 3 },
      { ref: 'xt', score: 2 },
    ];
    const restated = new Map([
      ['s', at(xt3)],
      ['t', at(xt3)],
    ]);
    const ranked = newerFirst(hits, restated, get);
    // The versions take the slots they hold, newest first; the hit between them keeps its slot.
    expect(ranked.map((h) => h.ref)).toEqual(['xt', 't', 'other', 's']);
    const scores = ranked.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('a vague later statement taken for the newest: the versions below it still go newest first', () => {
    const restated = restatements(
      [s1, t2, xt3, vague].map((c) => ({ ref: c.id })),
      get,
      queryWeights(tokenize(ATTRIBUTES)),
      4,
      ATTRIBUTES,
    );
    // The judge links the three versions to the vague statement, the latest that names the subject.
    expect([...restated.keys()].sort()).toEqual(['s', 't', 'xt']);
    for (const r of restated.values()) expect(r.path).toBe(vague.path);
    const hits = [
      { ref: 'vague', score: 9 },
      { ref: 's', score: 8 },
      { ref: 'other', score: 7 },
      { ref: 'xt', score: 6 },
      { ref: 't', score: 5 },
    ];
    const ranked = newerFirst(hits, restated, get);
    // The versions take the slots they held (2, 4, 5), newest first; `other` keeps slot 3.
    expect(ranked.map((h) => h.ref)).toEqual(['vague', 'xt', 'other', 't', 's']);
    expect(ranked.map((h) => h.score)).toEqual([9, 8, 7, 6, 5]);
  });

  it('hits outside a group and versions of one day keep their order', () => {
    const a = day('a', '2024-02-01', ['- Mo: Use Jira.']);
    const b = day('b', '2024-02-01', ['- Mo: Use Jira for tasks.']);
    const n = day('n', '2024-02-05', ['- Mo: Use Trello.']);
    const m = new Map([a, b, n, other].map((c) => [c.id, c]));
    const hits = [
      { ref: 'a', score: 4 },
      { ref: 'other', score: 3 },
      { ref: 'b', score: 2 },
      { ref: 'n', score: 1 },
    ];
    const links = new Map([
      ['a', 'n'],
      ['b', 'n'],
    ]);
    const ranked = versionsNewestFirst(hits, links, (ref) => m.get(ref)?.date ?? '');
    expect(ranked.map((h) => h.ref)).toEqual(['n', 'other', 'a', 'b']);
    expect(ranked[0]).toEqual({ ref: 'n', score: 4 });
    expect(versionsNewestFirst(hits, new Map(), dayOf)).toEqual(hits);
  });

  it('only the results returned trade places: a later version below the cut stays there', () => {
    const hits = [
      { ref: 's', score: 4 },
      { ref: 'other', score: 3 },
      { ref: 't', score: 2 },
      { ref: 'xt', score: 1 },
    ];
    const links = new Map([
      ['s', 'xt'],
      ['t', 'xt'],
    ]);
    // Three results returned: `xt` (4th) does not come in, `s` does not go out; `t` and `s` swap.
    expect(versionsNewestFirst(hits, links, dayOf, 3).map((h) => h.ref)).toEqual(['t', 'other', 's', 'xt']);
    expect(versionsNewestFirst(hits, links, dayOf).map((h) => h.ref)).toEqual(['xt', 'other', 't', 's']);
  });

  it('a chain of versions (each pointing at the next) is one group', () => {
    const hits = [
      { ref: 's', score: 3 },
      { ref: 't', score: 2 },
      { ref: 'xt', score: 1 },
    ];
    const ranked = versionsNewestFirst(
      hits,
      new Map([
        ['s', 't'],
        ['t', 'xt'],
      ]),
      dayOf,
    );
    expect(ranked.map((h) => h.ref)).toEqual(['xt', 't', 's']);
  });
});
