import { describe, expect, it } from 'vitest';
import { coverage, nearness, pickEvidence, queryWeights } from '../../../../src/indexes/evidence/evidence.js';
import { queryDates } from '../../../../src/indexes/query/query-dates.js';
import { tokenize } from '../../../../src/core/tokenize.js';

describe('evidence spans', () => {
  const lines = [
    '- Mel: How was the weekend?',
    '- Kate: Busy. Did you hear about my job?',
    '- Mel: No, tell me!',
    '- Kate: I got promoted to team lead at the bakery.',
    '- Mel: The award show outfits were wild.',
  ];

  it('picks the best-matching line and the line right after it, not the whole chunk', () => {
    const q = queryWeights(tokenize('Kate job'), (t) => (t === 'kate' ? 0.2 : 2));
    const ev = pickEvidence(q, 10, lines);
    expect([ev.startLine, ev.endLine]).toEqual([11, 12]);
    expect(ev.score).toBeGreaterThan(0);
  });

  it('falls back to the whole chunk when no line holds a query word', () => {
    const ev = pickEvidence(queryWeights(tokenize('zebra')), 3, lines);
    expect([ev.startLine, ev.endLine]).toEqual([3, 7]);
    expect(ev.score).toBe(0);
  });

  it('an anchor keeps the best line inside the chunk while the span grows past it', () => {
    // Lines 0–2 are the retrieved chunk, 3–4 the lines after it: the question is the chunk's last
    // line, the answer follows it.
    const q = queryWeights(tokenize('Kate job'), (t) => (t === 'kate' ? 0.2 : 2));
    const window = [lines[0]!, lines[2]!, lines[1]!, lines[3]!, lines[4]!];
    const ev = pickEvidence(q, 20, window, { joinRatio: 0.4, anchor: [0, 2] });
    expect([ev.startLine, ev.endLine]).toEqual([22, 23]);
    // A match outside the anchor neither moves the span there nor counts: the anchor is the span.
    const out = pickEvidence(queryWeights(tokenize('promoted')), 20, lines, { joinRatio: 0.4, anchor: [0, 1] });
    expect([out.startLine, out.endLine]).toEqual([20, 21]);
    expect(out.score).toBe(0);
    // No anchor line near a match: the anchor itself is the span.
    const none = pickEvidence(queryWeights(tokenize('zebra')), 20, lines, { anchor: [1, 3] });
    expect([none.startLine, none.endLine]).toEqual([21, 23]);
  });

  it('nearness decays after and more before a matching line', () => {
    const n = nearness(queryWeights(tokenize('promoted')), lines);
    expect(n[3]).toBe(1);
    expect(n[4]).toBeCloseTo(0.45);
    expect(n[2]).toBeCloseTo(0.225);
  });

  it('coverage is the share of the query idf a text holds', () => {
    const q = queryWeights(tokenize('sci-fi movies rated highly'), (t) => (t === 'highli' ? 0.5 : 3));
    expect(coverage(q, 'I highly recommend a tart pan')).toBeLessThan(0.1);
    expect(coverage(q, 'Blade Runner: sci-fi movies, rated 7')).toBeGreaterThan(0.9);
  });
});

describe('dates in queries', () => {
  const now = Date.UTC(2023, 6, 15); // 2023-07-15
  const ranges = (q: string) => queryDates(q, now).map((r) => [r.from, r.to]);
  it('resolves absolute dates', () => {
    expect(ranges('what happened on 2023-05-08?')).toEqual([['2023-05-08', '2023-05-08']]);
    expect(ranges('what did we decide in May 2023')).toEqual([['2023-05-01', '2023-05-31']]);
    expect(ranges('the meeting on 8 May 2023')).toEqual([['2023-05-08', '2023-05-08']]);
    expect(ranges('the meeting on May 8, 2023')).toEqual([['2023-05-08', '2023-05-08']]);
    expect(ranges('what we did in September')).toEqual([['2022-09-01', '2022-09-30']]);
    expect(ranges('anything from 2022?')).toEqual([['2022-01-01', '2022-12-31']]);
  });
  it('resolves relative dates against now', () => {
    expect(ranges('what did I do yesterday')).toEqual([['2023-07-14', '2023-07-14']]);
    expect(ranges('notes from last week')).toEqual([['2023-07-02', '2023-07-14']]);
    expect(ranges('two weeks ago')).toEqual([['2023-06-27', '2023-07-05']]);
    expect(ranges('last month')).toEqual([['2023-06-01', '2023-06-30']]);
  });
  it('does not read the verb "may" or plain numbers as dates', () => {
    expect(ranges('may I ask where the secrets are stored')).toEqual([]);
    expect(ranges('port 8080 and 12 retries')).toEqual([]);
  });
});
