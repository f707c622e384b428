// The keyword query plan (indexes/lexical/lexical-scorer.ts Scorer.plan): which index terms are scored with
// which boost, and which constraints filter. The lunr-equality cases in lexical.test.ts build lunr's
// query from this same plan, so they cannot see a wrong plan; these cases state its rules directly.
import { describe, expect, it } from 'vitest';
import { LexicalIndex, parseQuery, stemOf, type LexicalHit } from '../../../../src/indexes/lexical/lexical.js';
import { Scorer } from '../../../../src/indexes/lexical/lexical-scorer.js';
import { View } from '../../../../src/indexes/lexical/lexical-segment.js';

const index = LexicalIndex.build([
  { ref: 'a', text: 'we deploy with blue-green releases' },
  { ref: 'b', text: 'the deployment runbook lists every release step' },
  { ref: 'c', text: 'postgres backups run nightly' },
  { ref: 'd', text: 'postgres deployment checklist' },
  { ref: 'e', text: 'the wiki holds the release checklist' },
]);
const scorer = new Scorer([new View(index.segment, undefined)]);
const plan = (q: string) => scorer.plan(parseQuery(q));
const byRef = (hits: LexicalHit[]) => new Map(hits.map((h) => [h.ref, h.score]));

describe('keyword query plan', () => {
  it('a prohibited term never adds to a score: the kept hits score as without it', () => {
    const without = byRef(index.search('deployment checklist'));
    const withProhibited = index.search('deployment checklist -postgres');
    expect(withProhibited.map((h) => h.ref).sort()).toEqual(['a', 'b', 'e']);
    for (const h of withProhibited) expect(h.score).toBe(without.get(h.ref));
    expect([...plan('deployment -postgres')!.scoring.keys()]).toEqual([stemOf('deployment')]);
  });

  it('a term reached twice scores at its highest boost, whatever the order of the words', () => {
    // `dep*` completes only to the stem of deploy/deployment (prefix boost 0.5); `deployment` is
    // the same index term exact (boost 1). The term keeps 1 either way, so the prefix adds nothing.
    const plain = index.search('deployment postgres');
    expect(plain.length).toBeGreaterThan(2);
    expect(index.search('dep* deployment postgres')).toEqual(plain);
    expect(index.search('deployment dep* postgres')).toEqual(plain);
    const deploy = stemOf('deployment');
    expect(plan('dep*')!.scoring).toEqual(new Map([[deploy, 0.5]]));
    expect(plan('dep* deployment postgres')!.scoring.get(deploy)).toBe(1);
  });

  it('a required prefix term is satisfied by any completion of it', () => {
    // `dep` itself is no indexed word: only its completions (deploy, deployment) meet `+dep*`.
    expect(new Set(index.search('+dep* postgres').map((h) => h.ref))).toEqual(new Set(['a', 'b', 'd']));
    expect(plan('+dep*')!.constraints).toEqual([{ presence: 'required', parts: [[stemOf('deployment')]] }]);
  });

  it('a required term the vocabulary lacks makes the plan empty (no match possible)', () => {
    // Equivalent for search results (the required-part filter would reject every document), but
    // the plan says it up front instead of scoring postings first.
    expect(plan('+nonexistentword postgres')).toBeUndefined();
    expect(plan('+postgres +nonexistentword')).toBeUndefined();
    expect(index.search('+nonexistentword postgres')).toEqual([]);
    expect(plan('postgres +deployment')!.constraints).toEqual([
      { presence: 'required', parts: [[stemOf('deployment')]] },
    ]);
  });
});
