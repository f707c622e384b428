// Unit tests for when two statements of one subject both hold (service/recall/statement-words.ts
// bothHold, ruleShape; applied by restatement.ts and versions.ts): a later statement replaces an
// earlier one only when it sets the same one-value place of the subject (a name's start, its end,
// its letter case) or takes the earlier one back ("instead", "no longer", "stop", "switch to");
// an addition (include, add, import) stands beside the earlier rules. Negative cases: the same
// place with another value, and an addition taken back, still replace. Chunks are built by hand
// (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import { addsTo, aspectsOf, bothHold, ruleShape } from '../../../src/service/recall/statement-words.js';
import { dayChunk as day } from '../../support/recall-snapshot.js';
import { versionsOf } from '../../support/restatements.js';

const CLASSES = 'Which decorator must be added to all classes?';
const MODULES = 'Which module must always be imported, even when it is not used?';
const NAMING_CLASSES = 'What is the current rule for naming classes?';
const NAMING_FUNCTIONS = 'What is the current rule for naming functions?';

describe('an addition stands beside the earlier rules', () => {
  it('a second decorator for all classes does not replace the first', () => {
    const timer = day('timer', '2024-01-06', [
      "- Harena: Also, going forward, make sure you add the '@timer_class' decorator from the 'pedantic' module to all your classes.",
    ]);
    const trace = day('trace', '2024-01-07', [
      "- Harena: Now, moving on to some coding instructions. From now on, I want you to start implementing the '@trace_class' decorator from the 'pedantic' module to all your classes.",
    ]);
    expect(versionsOf(CLASSES, [timer, trace]).size).toBe(0);
  });

  it('a second module to import does not replace the first', () => {
    const gzip = day('gzip', '2024-01-05', [
      "- Maria: Also, I want you to always import the 'gzip' module, even if you don't end up using it.",
    ]);
    const bz2 = day('bz2', '2024-02-02', [
      "- Maria: Going forward, I want you to always import the 'bz2' module, even if you don't think you'll be using it.",
    ]);
    expect(versionsOf(MODULES, [gzip, bz2]).size).toBe(0);
  });

  it('an addition taken back is replaced', () => {
    const gzip = day('gzip', '2024-01-05', ["- Maria: From now on, always import the 'gzip' module in every script."]);
    const bz2 = day('bz2', '2024-02-02', [
      "- Maria: Going forward, always import the 'bz2' module in every script instead of the 'gzip' module.",
    ]);
    expect(versionsOf(MODULES, [gzip, bz2]).get('gzip')?.date).toBe('2024-02-02');
  });

  it('a later "include" rule adds to a letter-case rule', () => {
    const upper = day('upper', '2024-01-12', [
      '- Luis: From now on, I want you to use all uppercase letters for class names. It helps with readability.',
    ]);
    const digit = day('digit', '2024-02-09', [
      '- Luis: From now on, I need you to include a single digit in your class names. This will help us.',
    ]);
    expect(versionsOf(NAMING_CLASSES, [upper, digit]).size).toBe(0);
  });
});

describe('one-value places of a name', () => {
  it('a letter-case rule and a "start with" rule both hold', () => {
    const camel = day('camel', '2024-01-03', ['- Luis: Going forward, always use CamelCase for class names.']);
    const prefix = day('prefix', '2024-01-09', ["- Luis: From now on, I'd like you to start class names with 'c_'."]);
    expect(versionsOf(NAMING_CLASSES, [camel, prefix]).size).toBe(0);
  });

  it('a later letter-case rule replaces the earlier one', () => {
    const snake = day('snake', '2024-02-14', ['- Jean: From now on, use snake_case for all class names.']);
    const camel = day('camel', '2024-03-08', ['- Jean: From now on, I want you to use CamelCase for all class names.']);
    expect(versionsOf(NAMING_CLASSES, [snake, camel]).get('snake')?.date).toBe('2024-03-08');
  });

  it('a turn that names the subject first and gives the rule next is read as that rule', () => {
    const end = day('end', '2024-02-01', ["- Luis: From now on, end all your function names with '_x'."]);
    const start = day('start', '2024-02-18', [
      "- Luis: Another thing I wanted to mention is about function names. Going forward, I'd like you to start function names with 'a_' instead.",
    ]);
    expect(versionsOf(NAMING_FUNCTIONS, [end, start]).size).toBe(0);
  });

  it('reads "start ending … with" and "append" as the end, "prepend" as the start', () => {
    expect([...aspectsOf("I'd like you to start ending your function names with '_a'.")]).toEqual(['end']);
    expect([...aspectsOf("I'll append '_a' to all my function names.")]).toEqual(['end']);
    expect([...aspectsOf("Prepend 'x_' to method names.")]).toEqual(['start']);
    expect([...aspectsOf('Use all uppercase letters for class names.')]).toEqual(['case']);
  });

  it('reads an addition off a directive or a promise, never off another subject', () => {
    expect(addsTo("- Harena: Add the '@retry' decorator to all functions.")).toBe(true);
    expect(addsTo("Also, I want you to always import the 'gzip' module.")).toBe(true);
    expect(addsTo("Understood. I'll incorporate 'chx' in attribute names going forward.")).toBe(true);
    expect(addsTo("I'd like to add that the sync moves to Thursday.")).toBe(false);
    expect(addsTo('I want you to avoid virtual environments; they only add overhead for us.')).toBe(false);
    expect(addsTo('The benefits include flexible hours.')).toBe(false);
  });
});

describe('bothHold', () => {
  const shape = (aspects: string[], adds = false, retracts = false) => ({ aspects: new Set(aspects), adds, retracts });
  it('judges additions, places and retractions', () => {
    expect(bothHold(shape(['include'], true), shape([]))).toBe(true);
    expect(bothHold(shape([]), shape([], true))).toBe(true);
    expect(bothHold(shape(['start']), shape(['start'], true))).toBe(false);
    expect(bothHold(shape(['start']), shape(['start']))).toBe(false);
    expect(bothHold(shape([]), shape([]))).toBe(false);
    expect(bothHold(shape(['include'], true), shape(['include'], true, true))).toBe(false);
    expect(bothHold(shape(['end']), shape(['start'], false, true))).toBe(true);
  });

  it("takes a statement's places from the turn when its own sentence names none", () => {
    const turn = ['Another thing is about function names.', "Start function names with 'a_' instead."];
    const r = ruleShape(turn[0]!, turn, () => true);
    expect([...r.aspects]).toEqual(['start']);
    expect(r.retracts).toBe(true);
    expect(ruleShape(turn[0]!, turn, () => false).aspects.size).toBe(0);
  });
});
