// R34: the rule that puts a union-merged daily note in time order (docs/bad-inputs.md).
import { describe, expect, it } from 'vitest';
import { orderDailyBullets } from '../../../src/git/merge-daily.js';

describe('orderDailyBullets', () => {
  it('orders timed bullets; continuation lines and untimed lines move with the bullet before them', () => {
    const text = [
      '# 2026-11-20',
      '',
      'Intro line stays first.',
      '- 10:00 b',
      '  b continued',
      '- untimed after b',
      '- 09:00 a',
      '- 09:00:30 a2',
      '- 09:00 a3 same minute',
      '',
    ].join('\n');
    expect(orderDailyBullets(text)).toBe(
      [
        '# 2026-11-20',
        '',
        'Intro line stays first.',
        '- 09:00 a',
        '- 09:00 a3 same minute',
        '- 09:00:30 a2',
        '- 10:00 b',
        '  b continued',
        '- untimed after b',
        '',
      ].join('\n'),
    );
  });

  it('headings fence sections; fenced code, front-matter and CRLF are kept', () => {
    const text = [
      '---',
      'tags: [x]',
      '---',
      '# Morning',
      '- 11:00 late morning',
      '```',
      '- 01:00 not a bullet, code',
      '```',
      '- 08:00 early',
      '',
      '## Evening',
      '- 20:00 dinner',
      '- 19:00 walk',
      '',
    ].join('\r\n');
    expect(orderDailyBullets(text)).toBe(
      [
        '---',
        'tags: [x]',
        '---',
        '# Morning',
        '- 08:00 early',
        '- 11:00 late morning',
        '```',
        '- 01:00 not a bullet, code',
        '```',
        '',
        '## Evening',
        '- 19:00 walk',
        '- 20:00 dinner',
        '',
      ].join('\r\n'),
    );
  });

  it('leaves a note in order, and text that only looks like a time, as it is', () => {
    const inOrder = '# d\n\n- 08:00 a\n- 09:00 b\n';
    expect(orderDailyBullets(inOrder)).toBe(inOrder);
    const notTimes = '# d\n\n- 25:00 is not a time\n- 10:00 a\n- 1:2 nor this\n';
    expect(orderDailyBullets(notTimes)).toBe(notTimes);
  });
});
