// The injection policy (service/trust/inject-policy.ts) and the stage's pure rules
// (service/trust/stage.ts): which classes are held back by default, a flagged line withholds only
// itself, the one-line note, the review state of a file's lines, and the block's compact label.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import { decideInjection, withheldNote } from '../../../src/service/trust/inject-policy.js';
import { blockLabel, reviewStateOf } from '../../../src/service/trust/stage.js';
import type { FileFacts } from '../../../src/service/trust/provenance.js';

const policy = DEFAULT_CONFIG.recall.inject;
const committed = (date: string, commit = 'a1b2c3d4e5') =>
  ({ commit, short: commit.slice(0, 7), author: 'Ana', date, writer: 'person' }) as const;

describe('recall.inject', () => {
  it('by default holds back incoming memories and injection lines, lets reviewed and unreviewed in', () => {
    expect(decideInjection(policy, 'reviewed').withheldBy).toBeUndefined();
    expect(decideInjection(policy, 'unreviewed').withheldBy).toBeUndefined();
    expect(decideInjection(policy, 'incoming').withheldBy).toBe('incoming');
    const d = decideInjection(policy, 'reviewed', [{ class: 'injection', text: 'instructions', lines: [7] }]);
    expect(d.withheldBy).toBeUndefined();
    expect([...d.lines]).toEqual([7]);
    expect(decideInjection(policy, 'reviewed', [{ class: 'injection', text: 'instructions' }]).withheldBy).toBe(
      'injection',
    );
    expect(decideInjection({ ...policy, incoming: true, unreviewed: false }, 'incoming').withheldBy).toBeUndefined();
    expect(decideInjection({ ...policy, unreviewed: false }, 'unreviewed').withheldBy).toBe('unreviewed');
  });

  it('says what was withheld in one line, with the command that reviews it', () => {
    expect(withheldNote(new Map())).toBeUndefined();
    expect(withheldNote(new Map([['incoming', 1]]))).toBe('1 unreviewed incoming memory withheld: gitmem review');
    expect(
      withheldNote(
        new Map([
          ['unreviewed', 2],
          ['injection', 3],
        ]),
      ),
    ).toBe('2 unreviewed memories, 3 lines flagged as instructions withheld: gitmem review, gitmem validate');
  });
});

describe('review state and label', () => {
  const facts = (f: Partial<FileFacts>): FileFacts => ({
    path: 'memory/x.md',
    attribution: undefined,
    writer: 'person',
    approved: false,
    ...f,
  });
  const marks = { approved: {}, incoming: { f00dcafe00: '2026-11-03T00:00:00Z' }, incomingFiles: {} };

  it("a person's lines are reviewed; an agent's write is unreviewed until approved; a synced commit is incoming", () => {
    expect(reviewStateOf(facts({}), committed('2026-11-02T10:00:00.000Z'), marks)).toBe('reviewed');
    const agent = facts({ writer: 'agent', writtenAt: '2026-11-02T12:00:00.000Z' });
    expect(reviewStateOf(agent, { commit: 'uncommitted', writer: 'agent' }, marks)).toBe('unreviewed');
    // Committed after the agent's write (by the agent's memory_checkpoint): still unreviewed…
    expect(reviewStateOf(agent, committed('2026-11-02T12:00:05.000Z'), marks)).toBe('unreviewed');
    // …lines a person committed before it are not.
    expect(reviewStateOf(agent, committed('2026-11-01T09:00:00.000Z'), marks)).toBe('reviewed');
    expect(reviewStateOf(facts({ writer: 'agent', approved: true }), undefined, marks)).toBe('reviewed');
    expect(reviewStateOf(facts({}), committed('2026-11-03T00:00:00.000Z', 'f00dcafe00'), marks)).toBe('incoming');
    expect(reviewStateOf(facts({ approved: true }), committed('2026-11-03T00:00:00.000Z', 'f00dcafe00'), marks)).toBe(
      'reviewed',
    );
  });

  it('labels a file compactly: commit, author, day, review state and the other labels', () => {
    expect(
      blockLabel({
        provenance: committed('2026-11-02T10:00:00.000Z'),
        review: 'unreviewed',
        labels: [{ class: 'stale', text: 'code-changed' }],
      }),
    ).toBe('a1b2c3d Ana 2026-11-02 · unreviewed · code-changed');
    expect(
      blockLabel({ provenance: { commit: 'uncommitted', writer: 'agent' }, review: 'unreviewed', labels: [] }),
    ).toBe('uncommitted · unreviewed');
    expect(blockLabel({ review: 'reviewed', labels: [] })).toBe('');
  });

  it('says only what the path does not: first name, no day a daily note already names, no "reviewed"', () => {
    const ana = { ...committed('2026-11-02T18:00:00.000Z'), author: 'Ana Lima Souza' };
    // A daily note committed on its own day: the path holds the day, a person reviewed it.
    expect(blockLabel({ provenance: ana, review: 'reviewed', labels: [] }, 'memory/2026-11-02.md')).toBe('a1b2c3d Ana');
    // Committed on a later day, or a file with no day in its name: the day stays.
    expect(blockLabel({ provenance: ana, review: 'reviewed', labels: [] }, 'memory/2026-11-01.md')).toBe(
      'a1b2c3d Ana 2026-11-02',
    );
    expect(blockLabel({ provenance: ana, review: 'reviewed', labels: [] }, 'memory/MEMORY.md')).toBe(
      'a1b2c3d Ana 2026-11-02',
    );
    // The exceptions an agent must weigh are always said.
    expect(blockLabel({ provenance: ana, review: 'incoming', labels: [] }, 'memory/2026-11-02.md')).toBe(
      'a1b2c3d Ana · incoming',
    );
  });
});
