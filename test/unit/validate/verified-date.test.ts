// Rule memory.code.verified-date (R90): which `verified:` values the code check ignores, on a fixed day.
import { describe, expect, test } from 'vitest';
import { verifiedDate } from '../../../src/validate/rules/verified-date.js';
import { validateWorkspace } from '../../../src/validate/validate.js';
import { makeWorkspace, md } from '../../support/validate-docs.js';

const TODAY = '2026-12-07';
const run = (verified: string, today: string | undefined = TODAY) =>
  validateWorkspace(makeWorkspace({ 'memory/entries/e.md': md(['type: decision', `verified: ${verified}`], 'x') }), {
    rules: [verifiedDate],
    ...(today ? { today } : {}),
  }).map((d) => d.message);

describe('verified-date rule', () => {
  test('today, tomorrow, a past day and a date-time are quiet', () => {
    for (const v of ['2026-12-07', '2026-12-08', '2020-01-31', '2026-12-07T23:30:00+02:00', "'2026-12-06'"])
      expect(run(v), v).toEqual([]);
  });

  test('the day after tomorrow is in the future (across a month and a year end too)', () => {
    expect(run('2026-12-09')).toEqual([
      'verified date 2026-12-09 is in the future; it is ignored when checking whether cited code changed',
    ]);
    expect(run('2027-01-01', '2026-12-31')).toEqual([]);
    expect(run('2027-01-02', '2026-12-31')).toHaveLength(1);
  });

  test('a value that names no real day is reported even without today; an empty one is no claim', () => {
    expect(run('2026-02-30', undefined)).toEqual([
      'verified value "2026-02-30" is not a date (write YYYY-MM-DD); it is ignored when checking whether cited code changed',
    ]);
    expect(run('12')).toEqual([
      'verified value "12" is not a date (write YYYY-MM-DD); it is ignored when checking whether cited code changed',
    ]);
    expect(run('[2026-12-01]')).toHaveLength(1);
    expect(run('')).toEqual([]);
  });
});
