// The one dedupe rule (service/shared/dedupe-policy.ts) over documents parsed by the real parser.
import { describe, expect, it } from 'vitest';
import { toRelPath } from '../../../src/core/paths.js';
import { parseDocument } from '../../../src/parse/parse-document.js';
import {
  dedupeText,
  duplicateMatch,
  findDuplicate,
  isDedupeCandidate,
} from '../../../src/service/shared/dedupe-policy.js';

const entry = (id: string, body: string, extra = '') =>
  parseDocument({
    path: toRelPath(`memory/entries/${id}.md`),
    kind: 'entry',
    text: `---\nid: ${id}\ntype: learning\ncreated: 2031-01-01\n${extra}---\n${body}\n`,
  });
const J = 0.8;

describe('dedupe policy: candidates', () => {
  it('takes live entries of the same type (any type when none is named)', () => {
    const d = entry('a', 'Use lunr for keyword search.');
    expect(isDedupeCandidate(d, 'learning')).toBe(true);
    expect(isDedupeCandidate(d, 'decision')).toBe(false);
    expect(isDedupeCandidate(d, undefined)).toBe(true);
  });
  it('skips entries marked duplicate_of, superseded or archived — for every caller alike', () => {
    const text = 'Use lunr for keyword search.';
    for (const extra of ['duplicate_of: z\n', 'status: superseded\n', 'status: archived\n']) {
      const d = entry('a', text, extra);
      expect(isDedupeCandidate(d, 'learning')).toBe(false);
      expect(findDuplicate([d], { text, type: 'learning' }, J)).toBeUndefined();
    }
    expect(findDuplicate([entry('a', text, 'status: active\n')], { text, type: 'learning' }, J)?.doc.meta.id).toBe('a');
  });
  it('ignores notes and other kinds', () => {
    const note = parseDocument({ path: toRelPath('memory/notes/x.md'), kind: 'note', text: 'Use lunr.\n' });
    expect(findDuplicate([note], { text: 'Use lunr.' }, J)).toBeUndefined();
  });
});

describe('dedupe policy: match', () => {
  it('same text after normalisation (case, spaces, trailing punctuation)', () => {
    expect(duplicateMatch(dedupeText('Use  LUNR for search.'), dedupeText('use lunr for search'), J)).toEqual({
      reason: 'same-text',
      similarity: 1,
    });
  });
  it('a near copy at or above the Jaccard threshold, not below it', () => {
    const a = dedupeText('the deploy script needs the staging token set before running');
    const near = dedupeText('the deploy script needs the staging token set before it runs');
    const m = duplicateMatch(a, near, 0.6);
    expect(m?.reason).toBe('jaccard');
    expect(m!.similarity).toBeGreaterThanOrEqual(0.6);
    expect(duplicateMatch(a, near, 0.99)).toBeUndefined();
    expect(duplicateMatch(a, dedupeText('postgres pool size is twenty'), 0.1)).toBeUndefined();
  });
  it('a near copy that changes a number is a possible conflict, not a duplicate', () => {
    const a = dedupeText('the connection pool size is 20 in production');
    const b = dedupeText('the connection pool size is 50 in production');
    expect(duplicateMatch(a, b, 0.5)).toBeUndefined();
  });
  it('empty texts never match', () => {
    expect(duplicateMatch(dedupeText(''), dedupeText(''), 0)).toBeUndefined();
  });
  it('findDuplicate returns the first candidate in order and compares the body', () => {
    const docs = [entry('a', 'Other text entirely.'), entry('b', 'Use lunr.'), entry('c', 'Use lunr.')];
    expect(findDuplicate(docs, { text: 'use lunr', type: 'learning' }, J)?.doc.meta.id).toBe('b');
  });
});
