// Unit tests for what a statement says about a subject (service/recall/statement-words.ts), through
// implicit supersession (restatement.ts restatements): a contraction never names a subject word
// ("I'd" is not "IDE": the tokenizer joins "I'd" into `id`, the stem of "IDE"), and rules that put
// their value in different places of a name (start, end, include) add to each other instead of
// replacing one another; a later rule about the same place still replaces the earlier one.
// Chunks are built by hand (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import { aspectsOf, otherPlaces, withoutContractions } from '../../../src/service/recall/statement-words.js';
import { dayChunk as day } from '../../support/recall-snapshot.js';
import { versionsOf } from '../../support/restatements.js';

describe('a contraction never names the subject', () => {
  it('"I\'d like you to …" about attribute names is no version of the IDE rule', () => {
    const ide = day('ide', '2024-01-07', [
      "- Juan: From now on, we'd like everyone to use Vim as their preferred IDE. It offers excellent flexibility.",
    ]);
    const attrs = day('attrs', '2024-01-19', [
      "- Juan: Perfect. Additionally, I'd like you to begin attribute names with 'xt_'. This prefix will help us.",
    ]);
    expect(versionsOf('Which IDE should be used?', [ide, attrs]).size).toBe(0);
  });

  it('a later IDE rule still replaces the earlier one', () => {
    const old = day('old', '2024-01-04', ['- Juan: Moving forward, I want you to use VSCode as your preferred IDE.']);
    const cur = day('cur', '2024-01-07', [
      "- Juan: From now on, we'd like everyone to use Vim as their preferred IDE.",
    ]);
    expect(versionsOf('Which IDE should be used?', [old, cur]).get('old')?.date).toBe('2024-01-07');
  });

  it('drops the tail of a contraction and keeps other apostrophes', () => {
    expect(withoutContractions("I'd like you to use Vim; we'll see, it's fine, don't")).toBe(
      'I like you to use Vim; we see, it fine, don',
    );
    expect(withoutContractions("start names with 'xt_' in O'Brien's module")).toBe(
      "start names with 'xt_' in O'Brien module",
    );
  });
});

describe('rules about different places of a name add up', () => {
  const chx = day('chx', '2024-02-03', [
    "- Sylvie: Going forward, I want you to include the string 'chx' in all attribute names.",
  ]);
  const at = day('at', '2024-02-07', [
    "- Sylvie: From now on, I need you to ensure that all attribute names in your code end with '_at'.",
  ]);
  const xt = day('xt', '2024-02-12', ["- Sylvie: From now on, I'd like you to start all attribute names with 'xt_'."]);
  const s = day('s', '2024-02-20', ["- Sylvie: Going forward, always begin attribute names with 's_' instead."]);

  it('a later "end with" rule does not replace an "include" rule, nor a "start with" one an "end with" one', () => {
    expect(versionsOf('What is the current rule for naming attributes?', [chx, at, xt]).size).toBe(0);
  });

  it('a later "start with" rule replaces an earlier one', () => {
    const r = versionsOf('What is the current rule for naming attributes?', [chx, at, xt, s]);
    expect(r.get('xt')?.date).toBe('2024-02-20');
    expect(r.has('chx')).toBe(false);
    expect(r.has('at')).toBe(false);
  });

  it('reads the place off the sentence', () => {
    expect([...aspectsOf("Always begin them with 's_'.")]).toEqual(['start']);
    expect([...aspectsOf("End all variable names with '_n'.")]).toEqual(['end']);
    expect([...aspectsOf('Always include a single digit in your method names and end them with _a.')]).toEqual([
      'end',
      'include',
    ]);
    expect([...aspectsOf("Starting method names with 'ud_' and including 'chx' in variable names.")]).toEqual([
      'start',
      'include',
    ]);
    expect(aspectsOf('I want you to start using a profiler.').size).toBe(0);
    expect(otherPlaces(new Set(['start']), new Set(['end']))).toBe(true);
    expect(otherPlaces(new Set(['start', 'end']), new Set(['end']))).toBe(false);
    expect(otherPlaces(new Set(), new Set(['end']))).toBe(false);
  });
});
