import { describe, expect, it } from 'vitest';
import { asksWhen, mentionsTime } from '../../../../src/indexes/query/query-dates.js';

describe('time questions', () => {
  it('asksWhen: "when …", "what date/day/year …", "how long ago …"', () => {
    expect(asksWhen('When did Caroline go to the support group?')).toBe(true);
    expect(asksWhen('what year did we move the gateway')).toBe(true);
    expect(asksWhen('How long ago was the launch?')).toBe(true);
    expect(asksWhen('which database do we use')).toBe(false);
    expect(asksWhen('the whenever helper')).toBe(false);
  });

  it('mentionsTime: dates, months, weekdays and relative times; "may" the verb is not a month', () => {
    for (const t of [
      'I went to the group yesterday',
      'we shipped it on 2023-05-08',
      'back in 2019',
      'the trip in July',
      'moved on Monday',
      'two weeks ago we met',
      'last summer was busy',
      'on May 8 we left',
    ])
      expect(mentionsTime(t), t).toBe(true);
    for (const t of ['you may want the gateway', 'the gateway has 12 retries', 'a database for the team'])
      expect(mentionsTime(t), t).toBe(false);
  });
});
