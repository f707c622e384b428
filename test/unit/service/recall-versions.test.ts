// Unit tests for versions of one thing (service/recall/versions.ts, merged by restatement.ts
// restatements): a later directive about the same subject supersedes an earlier one even when it
// announces no change ("I think it would be best if you …") and ranks above it (newerFirst); the kind
// word of a "which … system" question may go unnamed. Negative cases: a rule about another subject
// that shares a word (method vs function names), the same words in another phrase (function names vs
// function argument names, even with "from now on"), a later question, encouragement and chat that
// direct nothing, and two statements of the same day. Chunks are built by hand
// (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import { newerFirst } from '../../../src/service/recall/restatement.js';
import { elidedKind, isDirective } from '../../../src/service/recall/versions.js';
import { dayChunk as day } from '../../support/recall-snapshot.js';
import { versionsOf } from '../../support/restatements.js';

describe('a later statement of the same thing, without change words', () => {
  const old = day('old', '2024-01-05', [
    "- Harena: Also, when declaring function argument names, I want you to start them with 'e_' as a prefix.",
    "- Jacob: Alright. I'll remember to use the 'e_' prefix for function argument names.",
  ]);
  const later = day('later', '2024-01-15', [
    "- Harena: Good. I think it would be best if you start function argument names with 'f_'. It keeps signatures clear.",
  ]);

  it('supersedes the earlier statement (path:line, date of the newer one)', () => {
    const r = versionsOf('What is the current rule for naming function arguments?', [old, later]);
    expect(r.get('old')).toEqual({ path: 'memory/2024-01-15.md', line: 3, date: '2024-01-15' });
    expect(r.has('later')).toBe(false);
  });

  it('a tool named in other words: "we use Bitbucket" then "I\'d like you to use GitLab"', () => {
    const a = day('a', '2024-01-02', [
      '- Juan: We use Bitbucket as our main version control system here, so get comfortable with it.',
    ]);
    const b = day('b', '2024-01-11', [
      '- Juan: At our company we mainly use GitLab for version control, and I would like you to set it up today.',
    ]);
    const r = versionsOf('Which version control system should be used?', [a, b]);
    expect(r.get('a')?.path).toBe('memory/2024-01-11.md');
  });

  it("the newer statement takes the earlier one's slot, and the hit between them keeps its own", () => {
    const other = day('other', '2024-01-09', ['- Harena: The weekly sync moves to Thursday.']);
    const chunks = [old, other, later];
    const byId = new Map(chunks.map((c) => [c.id, c]));
    const r = versionsOf('What is the current rule for naming function arguments?', chunks);
    const hits = [
      { ref: 'old', score: 3 },
      { ref: 'other', score: 2 },
      { ref: 'later', score: 1 },
    ];
    const ranked = newerFirst(hits, r, (ref) => byId.get(ref));
    expect(ranked.map((h) => h.ref)).toEqual(['later', 'other', 'old']);
    expect(ranked.map((h) => h.score)).toEqual([3, 2, 1]);
    // A question that asks no norm ("when did …") keeps the hit between them above the newer one.
    const when = newerFirst(hits, r, (ref) => byId.get(ref), hits.length, 'When did Harena name function arguments?');
    expect(when.map((h) => h.ref)).toEqual(['other', 'later', 'old']);
  });
});

describe('what is not a version of the same thing', () => {
  it('a later rule about another subject that shares a word (function names vs method names)', () => {
    const methods = day('m', '2024-01-02', ["- Carlos: Always end method names with '_o'; it is a team convention."]);
    const functions = day('f', '2024-01-09', ["- Carlos: I'd like you to end function names with '_b' from today."]);
    const r = versionsOf('What is the current rule for naming methods?', [methods, functions]);
    expect(r.size).toBe(0);
  });

  it('the same words in another phrase: function names vs function argument names, even "from now on"', () => {
    const fn = day('fn', '2024-01-22', ["- Naivo: Going forward, I want you to start function names with 'x_'."]);
    const args = day('args', '2024-01-27', ["- Naivo: From now on, for function argument names, end them with '_h'."]);
    expect(versionsOf('What is the current rule for naming functions?', [fn, args]).size).toBe(0);
  });

  it('a later question about the old rule', () => {
    const rule = day('r', '2024-01-12', [
      '- Djibril: Going forward, we will use Microsoft Teams for internal communication.',
    ]);
    const ask = day('q', '2024-01-13', ['- Jorge: Should I still use Microsoft Teams for internal communication?']);
    const r = versionsOf('Which tool should be used for internal communication?', [rule, ask]);
    expect(r.size).toBe(0);
  });

  it('chat that directs nothing, and statements of the same day', () => {
    const a = day('a', '2024-03-01', ['- Mel: I went hiking with my dog at the lake, it was lovely.']);
    const b = day('b', '2024-03-08', ['- Mel: Hiking with my dog at the lake again made my week.']);
    expect(versionsOf('Where does Mel go hiking with her dog?', [a, b]).size).toBe(0);
    const c = day('c', '2024-03-08', ['- Mo: I want you to keep the hiking log in the shared folder.']);
    const d = day('d', '2024-03-08', ['- Mo: Please keep the hiking log in the team drive.']);
    expect(versionsOf('Where should the hiking log be kept?', [c, d]).size).toBe(0);
  });

  it('a directive is read off a sentence that is not a question', () => {
    expect(isDirective('I think it would be best if you use TabNine.')).toBe(true);
    expect(isDirective("Let's use Trello going forward.")).toBe(true);
    expect(isDirective('Should I be using Slack for all my communications from now on?')).toBe(false);
    expect(isDirective('I have always loved painting sunsets.')).toBe(false);
    expect(isDirective('Keep it up!')).toBe(false);
    expect(isDirective("Don't worry, you'll get there.")).toBe(false);
    expect(isDirective("Let's go for it!")).toBe(false);
  });

  it('encouragement in two chats about the same hobby supersedes nothing', () => {
    const a = day('a', '2023-05-11', ['- Gina: Dancing is my passion, I love contemporary dance. Keep it up!']);
    const b = day('b', '2023-06-16', ['- Jon: Contemporary dance is my passion too. Keep going!']);
    expect(versionsOf("What is Gina's favorite style of dance?", [a, b]).size).toBe(0);
  });

  it('the kind word of a "which … system" question is the last word of a phrase of two or more', () => {
    expect([...elidedKind('Which version control system should be used?')]).toEqual(['system']);
    expect(elidedKind('Which IDE should be used?').size).toBe(0);
    expect(elidedKind('What is the current rule about debuggers?').size).toBe(0);
  });
});
