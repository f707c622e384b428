// The settling rules of the gitmem merge driver, as pure logic: bullet hunks, front-matter keys and
// last-updated stamps (the real `git merge` runs are in test/integration/sync/merge-driver.test.ts).
import { describe, expect, it } from 'vitest';
import { mergeFrontMatter, mergeItems } from '../../../src/git/merge-front-matter.js';
import {
  alignCreated,
  alignStamps,
  DIFF3_MARKER_SIZE,
  resolveDiff3,
  resolveHunk,
} from '../../../src/git/merge-lines.js';

const L = { ours: 'ours', theirs: 'theirs' };

describe('resolveHunk', () => {
  it("keeps both sides' new bullets, ours first, each once", () => {
    expect(resolveHunk([], ['- a', '- shared'], ['- shared', '- b'])).toEqual(['- a', '- shared', '- b']);
  });

  it('agrees when both sides replace the same placeholder line', () => {
    expect(resolveHunk(['None'], ['- blocker a'], ['- blocker b'])).toEqual(['- blocker a', '- blocker b']);
  });

  it('reports one line of text replaced two ways as a conflict, not two values (G13)', () => {
    expect(resolveHunk(['design'], ['impl A'], ['impl B'])).toBeUndefined();
    expect(resolveHunk(['None'], ['impl A'], ['impl B'])).toBeUndefined();
    expect(
      resolveHunk(['We deploy on Fridays.'], ['We deploy on Mondays.'], ['We deploy on Tuesdays.']),
    ).toBeUndefined();
    // The same new text on both sides is agreement; bullets in a placeholder's place still merge.
    expect(resolveHunk(['None'], ['impl A'], ['impl A'])).toEqual(['impl A']);
    expect(resolveHunk(['None'], ['- a'], ['- b', 'more'])).toEqual(['- a', '- b', 'more']);
  });

  it("keeps one side's edit and the other side's additions", () => {
    expect(resolveHunk(['- x'], ['- x (edited)'], ['- x', '- y'])).toEqual(['- x (edited)', '- y']);
    expect(resolveHunk(['- x'], ['- x', '- y'], ['- x (edited)'])).toEqual(['- x (edited)', '- y']);
  });

  it('reports the same bullet edited two ways as a conflict', () => {
    expect(resolveHunk(['- x'], ['- x one way'], ['- x another way'])).toBeUndefined();
    // edited on one side, dropped on the other
    expect(resolveHunk(['- x'], ['- x edited'], [])).toBeUndefined();
    // different base lines removed on both sides
    expect(resolveHunk(['- x', '- y'], ['- y'], ['- x'])).toBeUndefined();
  });

  it("puts new lines before the primary side's trailing blank lines", () => {
    expect(resolveHunk([], ['- a', ''], ['- b'])).toEqual(['- a', '- b', '']);
  });
});

describe('resolveDiff3', () => {
  const M = (c: string) => c.repeat(DIFF3_MARKER_SIZE);
  it('settles bullet hunks and rewrites true conflicts with standard markers', () => {
    const text = [
      '# Memory',
      `${M('<')} ours`,
      '- a',
      `${M('|')} base`,
      `${M('=')}`,
      '- b',
      `${M('>')} theirs`,
      'middle',
      `${M('<')} ours`,
      '- x1',
      `${M('|')} base`,
      '- x',
      `${M('=')}`,
      '- x2',
      `${M('>')} theirs`,
      '',
    ].join('\n');
    const r = resolveDiff3(text, L);
    expect(r.conflicts).toBe(1);
    expect(r.text).toBe(
      ['# Memory', '- a', '- b', 'middle', '<<<<<<< ours', '- x1', '=======', '- x2', '>>>>>>> theirs', ''].join('\n'),
    );
  });

  it("leaves marker-like memory text alone (markers are longer than git's default)", () => {
    const text = '<<<<<<< not a marker\n=======\n';
    expect(resolveDiff3(text, L)).toEqual({ text, conflicts: 0 });
  });
});

describe('alignStamps', () => {
  it("rewrites each version's stamp to the latest of the three", () => {
    const [b, o, t] = alignStamps([
      '> Last updated: 2026-11-01T00:00:00Z\n',
      '> Last updated: 2026-11-03T00:00:00Z\nx\n',
      '> Last updated: 2026-11-02T00:00:00Z\ny\n',
    ]);
    expect(b).toBe('> Last updated: 2026-11-03T00:00:00Z\n');
    expect(o).toBe('> Last updated: 2026-11-03T00:00:00Z\nx\n');
    expect(t).toBe('> Last updated: 2026-11-03T00:00:00Z\ny\n');
  });

  it("compares instants across offset formats; a tie keeps a side's own value, not the base's", () => {
    // As text, `…:56Z` sorts after `…:56+00:00` (the same second) and `…T17:00:00+02:00` (15:00 UTC)
    // after `…T16:00:00Z`.
    const [, o] = alignStamps([
      '> Last updated: 2026-12-01T16:42:56Z\n',
      '> Last updated: 2026-12-01T16:42:56+00:00\nx\n',
      '> Last updated: 2026-12-01T16:42:55+00:00\ny\n',
    ]);
    expect(o).toBe('> Last updated: 2026-12-01T16:42:56+00:00\nx\n');
    const [b] = alignStamps([
      '> Last updated: 2026-12-01T17:00:00+02:00\n',
      '> Last updated: 2026-12-01T16:00:00Z\n',
      '> Last updated: 2026-12-01T15:30:00Z\n',
    ]);
    expect(b).toBe('> Last updated: 2026-12-01T16:00:00Z\n');
  });

  it('leaves the stamps alone when a version has several of a kind', () => {
    const v = ['updated: 2026-01-01\nupdated: 2026-01-02\n', 'updated: 2026-02-01\n', 'updated: 2026-03-01\n'] as const;
    expect(alignStamps(v)).toEqual([...v]);
  });
});

describe('alignCreated (G10)', () => {
  it('gives an entry added on both sides the earlier created time', () => {
    const [b, o, t] = alignCreated([
      '',
      'id: x\ncreated: 2026-12-02T17:39:00Z\n',
      'id: x\ncreated: 2026-12-02T17:38:32Z\n',
    ]);
    expect(b).toBe('');
    expect(o).toBe('id: x\ncreated: 2026-12-02T17:38:32Z\n');
    expect(t).toBe('id: x\ncreated: 2026-12-02T17:38:32Z\n');
  });

  it('leaves an entry that already existed in the base alone', () => {
    const v = ['created: 2026-01-01\n', 'created: 2026-02-01\n', 'created: 2026-01-01\nx\n'] as const;
    expect(alignCreated(v)).toEqual([...v]);
  });
});

describe('mergeFrontMatter', () => {
  it('takes one-sided key changes and merges lists as sets', () => {
    const base = ['id: pb-1', 'status: active', 'supporting:', '  - m-1', 'tags: [a]'];
    const ours = ['id: pb-1', 'status: active', 'supporting:', '  - m-1', '  - m-2', 'tags: [a, b]'];
    const theirs = ['id: pb-1', 'status: archived', 'supporting:', '  - m-1', '  - m-3', 'tags: [a, c]', 'priority: 2'];
    const r = mergeFrontMatter(base, ours, theirs, L)!;
    expect(r.conflicts).toBe(0);
    expect(r.lines).toEqual([
      'id: pb-1',
      'status: archived',
      'supporting:',
      '  - m-1',
      '  - m-2',
      '  - m-3',
      'tags: [a, b, c]',
      'priority: 2',
    ]);
  });

  it('reports a scalar changed two ways as a conflict on that key only', () => {
    const r = mergeFrontMatter(['title: x', 'type: fact'], ['title: y', 'type: fact'], ['title: z', 'type: fact'], L)!;
    expect(r.conflicts).toBe(1);
    expect(r.lines).toEqual(['<<<<<<< ours', 'title: y', '=======', 'title: z', '>>>>>>> theirs', 'type: fact']);
  });

  it('drops a key removed on one side and unchanged on the other', () => {
    expect(mergeFrontMatter(['a: 1', 'b: 2'], ['a: 1', 'b: 2'], ['a: 1'], L)!.lines).toEqual(['a: 1']);
  });

  it('gives up (text merge) when a key repeats', () => {
    expect(mergeFrontMatter(['a: 1', 'a: 2'], ['a: 1'], ['a: 3'], L)).toBeUndefined();
  });

  it('mergeItems applies removals from either side', () => {
    expect(mergeItems(['a', 'b', 'c'], ['a', 'c', 'd'], ['b', 'c', 'e'])).toEqual(['c', 'd', 'e']);
  });
});
