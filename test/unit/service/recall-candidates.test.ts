// Unit tests for recall's candidate lists (service/recall/candidates.ts plan): the mode decided from
// the request and the vector half, the filters built from options and in-query filters, the keyword
// list filtered on chunk metadata, and the top-k search widened to every match when filters or hidden
// memories leave too few. The index is a hand-built snapshot (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { plan, PRIOR_DEPTH } from '../../../src/service/recall/candidates.js';
import { DEFAULT_FUSION } from '../../../src/service/recall/types.js';
import { chunk, fakeSnapshot, fakeVectors, hitsOf } from '../../support/recall-snapshot.js';

const decision = (id: string, text: string) =>
  chunk(id, text, { kind: 'entry', entry: { id, type: 'decision', tags: [] } });
const warning = (id: string, text: string) =>
  chunk(id, text, { kind: 'entry', entry: { id, type: 'warning', tags: [] } });

describe('recall candidates: the mode', () => {
  const snap = fakeSnapshot([chunk('a', 'postgres pool size')], hitsOf(['a', 1]));

  it('keyword stays keyword; hybrid with a working vector half stays hybrid', () => {
    expect(plan(snap, 'postgres pool', { mode: 'keyword' }).mode).toBe('keyword');
    const p = plan(snap, 'postgres pool', { mode: 'hybrid' }, fakeVectors({}), DEFAULT_FUSION);
    expect(p.mode).toBe('hybrid');
    expect(p.degraded).toBeNull();
  });

  it('hybrid or vector without a vector half answers by keyword and says why', () => {
    const none = plan(snap, 'postgres pool', { mode: 'vector' });
    expect(none).toMatchObject({ mode: 'keyword', degraded: 'semantic recall is not available' });
    const off = plan(snap, 'postgres pool', { mode: 'hybrid' }, fakeVectors({}, 'model missing'));
    expect(off).toMatchObject({ mode: 'keyword', degraded: 'model missing' });
  });

  it('a single-token hybrid query is answered by keyword (no degraded note) when singleTokenKeyword is on', () => {
    const vectors = fakeVectors({});
    const on = plan(snap, 'postgres', { mode: 'hybrid' }, vectors, { ...DEFAULT_FUSION, singleTokenKeyword: true });
    expect(on).toMatchObject({ mode: 'keyword', degraded: null });
    const off = plan(snap, 'postgres', { mode: 'hybrid' }, vectors, { ...DEFAULT_FUSION, singleTokenKeyword: false });
    expect(off.mode).toBe('hybrid');
  });
});

describe('recall candidates: filters alone (R32)', () => {
  it('type:decision lists the decisions in every mode, as keyword mode does', () => {
    const snap = fakeSnapshot([decision('d1', 'deploy with blue green'), warning('w1', 'deploy freeze')], []);
    for (const mode of ['keyword', 'hybrid', 'vector'] as const) {
      const p = plan(snap, 'type:decision', { mode }, fakeVectors({}), DEFAULT_FUSION);
      expect(p.mode, mode).toBe('keyword');
      expect(p.degraded, mode).toBeNull();
      expect(
        p.keywordRanked.map((h) => h.ref),
        mode,
      ).toEqual(['d1']);
    }
  });
});

describe('recall candidates: filters and the keyword list', () => {
  it('type filters from options and from the query (any case) both apply to the keyword list', () => {
    const snap = fakeSnapshot(
      [
        decision('d1', 'deploy with blue green'),
        warning('w1', 'deploy freeze on fridays'),
        decision('d2', 'deploy docs'),
      ],
      hitsOf(['w1', 3], ['d1', 2], ['d2', 1]),
    );
    const byOption = plan(snap, 'deploy', { mode: 'keyword', types: ['Decision'] });
    expect(byOption.keywordRanked.map((h) => h.ref)).toEqual(['d1', 'd2']);
    const inQuery = plan(snap, 'deploy type:WARNING', { mode: 'keyword' });
    expect(inQuery.filters.types).toEqual(['warning']);
    expect(inQuery.keywordRanked.map((h) => h.ref)).toEqual(['w1']);
  });

  it('an unknown type or an impossible date range is a usage error, not an empty answer', () => {
    const snap = fakeSnapshot([chunk('a', 'x')], []);
    const usage = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isMemoryError(e) ? e.code : 'other';
      }
      return 'no error';
    };
    expect(usage(() => plan(snap, 'x', { types: ['decisions'] }))).toBe('usage');
    expect(usage(() => plan(snap, 'x', { since: '2026-05-02', until: '2026-05-01' }))).toBe('usage');
  });

  it('only filters and no words: in keyword mode every accepted chunk is a candidate; no words means no vector search', () => {
    const snap = fakeSnapshot([decision('d1', 'a'), warning('w1', 'b'), decision('d2', 'c')], []);
    const p = plan(snap, 'type:decision', { mode: 'keyword' });
    expect(p).toMatchObject({ onlyFilters: true, hasWords: false });
    expect(p.keywordRanked).toEqual([
      { ref: 'd1', score: 0 },
      { ref: 'd2', score: 0 },
    ]);
    expect(plan(snap, 'postgres', { mode: 'keyword' }).hasWords).toBe(true);
  });

  it('limit is clamped to 1…50', () => {
    const snap = fakeSnapshot([chunk('a', 'x')], []);
    expect(plan(snap, 'x', { limit: 500 }).limit).toBe(50);
    expect(plan(snap, 'x', { limit: 0 }).limit).toBe(1);
    expect(plan(snap, 'x', {}).limit).toBe(10);
  });
});

describe('recall candidates: top-k first, widened when too few are left', () => {
  // Six hidden (archived) chunks rank above two live ones.
  const hidden = Array.from({ length: 6 }, (_, i) => chunk(`h${i}`, 'deploy notes', { hidden: 'archived' }));
  const live = [chunk('l1', 'deploy runbook'), chunk('l2', 'deploy checklist')];
  const hits = hitsOf(...hidden.map((c, i): [string, number] => [c.id, 10 - i]), ['l1', 2], ['l2', 1]);

  it('an unfiltered keyword recall asks for 2 × limit × PRIOR_DEPTH hits, then every match when hidden hits fill them', () => {
    const snap = fakeSnapshot([...hidden, ...live], hits);
    const p = plan(snap, 'deploy', { mode: 'keyword', limit: 1 });
    expect(snap.searches).toEqual([2 * PRIOR_DEPTH, undefined]);
    expect(p.keywordRanked.map((h) => h.ref)).toEqual(['l1', 'l2']);
  });

  it('is not widened when the top k already holds enough live hits', () => {
    const snap = fakeSnapshot(
      [...live, ...hidden],
      hitsOf(['l1', 20], ['l2', 19], ...hidden.map((c): [string, number] => [c.id, 1])),
    );
    const p = plan(snap, 'deploy', { mode: 'keyword', limit: 1, includeHidden: true });
    expect(snap.searches).toEqual([2 * PRIOR_DEPTH]);
    expect(p.keywordRanked).toHaveLength(2 * PRIOR_DEPTH);
  });

  it('with a metadata filter the first search already ranks every match', () => {
    const snap = fakeSnapshot([...hidden, ...live], hits);
    plan(snap, 'deploy', { mode: 'keyword', kinds: ['note'] });
    expect(snap.searches).toEqual([undefined]);
  });

  it('hybrid asks for at least 200 keyword hits (fusion needs depth past the limit)', () => {
    const snap = fakeSnapshot(live, hitsOf(['l1', 2], ['l2', 1]));
    plan(snap, 'deploy runbook', { mode: 'hybrid', limit: 5 }, fakeVectors({}), DEFAULT_FUSION);
    expect(snap.searches).toEqual([400]);
  });
});
