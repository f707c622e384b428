// The one dedupe rule (service/shared/dedupe-policy.ts) over documents parsed by the real parser.
import { describe, expect, it } from 'vitest';
import { toRelPath } from '../../../src/core/paths.js';
import { parseDocument } from '../../../src/parse/parse-document.js';
import {
  dedupeText,
  duplicateMatch,
  findDuplicate,
  guidanceRepeats,
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

describe('dedupe policy: guidance for the playbook (guidanceRepeats)', () => {
  const pb = (id: string, body: string, extra = 'active: true\n') =>
    parseDocument({
      path: toRelPath(`memory/playbook/${id}.md`),
      kind: 'playbook',
      text: `---\nid: ${id}\ncategory: testing\n${extra}---\n\n${body}\n`,
    });
  const T = { jaccard: 0.9, cosine: 0.95 };
  const text = 'Queue tests must use real timers because fake timers freeze the BullMQ clock.';
  it('finds the active entry a text repeats; not one marked duplicate_of, inactive or skipped', () => {
    expect(guidanceRepeats([pb('a', text)], T).of(text)).toMatchObject({ id: 'a', reason: 'same-text' });
    expect(guidanceRepeats([pb('a', text, 'duplicate_of: z\n')], T).of(text)).toBeUndefined();
    expect(guidanceRepeats([pb('a', text, 'active: false\n')], T).of(text)).toBeUndefined();
    expect(guidanceRepeats([pb('a', text)], T).of(text, new Set(['a']))).toBeUndefined();
    // A changed number is a possible conflict, not a repeat.
    expect(
      guidanceRepeats([pb('a', 'Keep lock timeouts at 30 seconds for every worker.')], T).of(
        'Keep lock timeouts at 5 seconds for every worker.',
      ),
    ).toBeUndefined();
  });
  it('two texts of one task: by text, else by the cosine of their probes, never across a conflict', () => {
    const a = 'Wrap database writes in a transaction so partial failures roll back.';
    const b = 'Use a transaction around database writes so a partial failure is rolled back.';
    const c = 'Keep Redis lock timeouts at 30 seconds so a crashed worker releases its lock.';
    const d = 'Keep Redis lock timeouts at 5 seconds so a crashed worker releases its lock.';
    const unit = new Float32Array([1, 0]);
    const probes = new Map([a, b, c, d].map((t) => [t, unit] as const));
    const vectors = { storedVector: () => undefined };
    expect(guidanceRepeats([], T).between(a, `${a}!`)).toBe(true);
    expect(guidanceRepeats([], T).between(a, b)).toBe(false);
    expect(guidanceRepeats([], T, { vectors, probes }).between(a, b)).toBe(true);
    expect(guidanceRepeats([], T, { vectors, probes }).between(c, d)).toBe(false);
    expect(guidanceRepeats([], { ...T, cosine: 1 }, { vectors, probes }).between(a, b)).toBe(false);
  });
  it("by meaning: the probe against the entries' stored vectors", () => {
    const other = 'Flaky queue specs usually mean the BullMQ clock was frozen by mocked time.';
    const unit = new Float32Array([1, 0]);
    const vectors = { storedVector: () => unit };
    const probes = new Map([[other, unit]]);
    expect(guidanceRepeats([pb('a', text)], T).of(other)).toBeUndefined();
    expect(guidanceRepeats([pb('a', text)], T, { vectors, probes }).of(other)).toMatchObject({
      id: 'a',
      reason: 'meaning',
      similarity: 1,
    });
  });
});
