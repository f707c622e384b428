import { describe, expect, test } from 'vitest';
import { range } from '../../../src/core/position.js';
import { dailyDate } from '../../../src/validate/rules/daily-date.js';
import { validateWorkspace } from '../../../src/validate/validate.js';
import { makeDoc, makeWorkspace } from '../../support/validate-docs.js';

const run = (files: Record<string, string>) => validateWorkspace(makeWorkspace(files), { rules: [dailyDate] });

describe('daily-date rule', () => {
  test('a file named after a date that does not exist is a warning on line 0', () => {
    const ds = run({ 'memory/2026-02-30.md': '# Notes\n- x\n' });
    expect(ds.map((d) => [d.path, d.code, d.severity, d.range])).toEqual([
      ['memory/2026-02-30.md', 'memory.daily.invalid-date', 'warning', range(0, 0, 0, 7)],
    ]);
    expect(ds[0]!.data).toEqual({ date: '2026-02-30', source: 'file-name' });
  });

  test('real dates, leap days and suffixed names are fine', () => {
    expect(
      run({
        'memory/2026-02-28.md': '# 2026-02-28\n',
        'memory/2024-02-29.md': '# 2024-02-29\n',
        'memory/2026-11-29-standup.md': '# Standup\n',
      }),
    ).toEqual([]);
  });

  test('a date-like first heading must be a real date too', () => {
    const ds = run({ 'memory/2026-03-01.md': '# 2026-13-01\n- x\n' });
    expect(ds.map((d) => [d.code, d.range])).toEqual([['memory.daily.invalid-date', range(0, 0, 0, 12)]]);
    expect(ds[0]!.data).toEqual({ date: '2026-13-01', source: 'heading' });
  });

  test('only daily notes are checked', () => {
    const doc = makeDoc('memory/entries/2026-02-30-thing.md', '---\ntype: decision\n---\n');
    expect(doc.kind).toBe('entry');
    expect(dailyDate.check(doc, { workspace: makeWorkspace({}) })).toEqual([]);
  });
});
