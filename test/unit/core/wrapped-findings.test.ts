// R141: the finder (validate, checkpoint, the write guards) scanned one line at a time, so a token
// wrapped across a line end, or cut by a blank within a line (`ghp_ AbCd…`, as complete-task's
// one-line rendering of a wrapped result leaves it), was never reported; masking missed the latter.
import { describe, expect, test } from 'vitest';
import { maskSecrets } from '../../../src/core/secret-mask.js';
import { findSecretsInText, secretsInWrite } from '../../../src/core/secrets.js';

const REST = 'a1B2c3D4e5'.repeat(3) + 'f6G7h8';

describe('a wrapped or blank-cut credential is found and masked (R141)', () => {
  test.each([
    ['wrapped after its prefix', `The token is ghp_\n${REST} for CI`, 1, 14],
    ['wrapped in its middle, the rest indented', `token ghp_${REST.slice(0, 10)}\n    ${REST.slice(10)}`, 1, 7],
    ['cut by a blank within the line', `- result: The token is ghp_ ${REST} for CI`, 1, 24],
    ['an AWS key id cut by a blank', `key AKIA ${'Z7QW3RT5YU8OP2LK'} here`, 1, 5],
  ])('%s', (_what, text, line, column) => {
    const found = findSecretsInText('m.md', text);
    expect(found.map((f) => [f.line, f.column])).toEqual([[line, column]]);
    expect(found[0]!.preview).toMatch(/^(ghp_|AKIA)…$/);
    expect(maskSecrets(text)).not.toContain(REST.slice(-12));
    expect(maskSecrets(text)).not.toContain('Z7QW3RT5');
  });

  test('the write guard reports a wrapped token when either line is new, not when both were there', () => {
    const text = `The token is ghp_\n${REST}\n`;
    expect(secretsInWrite('m.md', text, 'The token is ghp_\n')).toHaveLength(1);
    expect(secretsInWrite('m.md', text, `${REST}\n`)).toHaveLength(1);
    expect(secretsInWrite('m.md', `${text}more\n`, text)).toHaveLength(0);
  });

  test('prose that names a prefix is not reported', () => {
    for (const text of [
      'GitHub tokens start with ghp_ and are 40 characters long',
      'The AKIA prefix marks an access key id; ASIA a temporary one',
      'Stripe keys: sk_live_ for live, sk_test_ for test mode',
      'a JWT starts with eyJ\nbecause its header is JSON',
    ])
      expect(findSecretsInText('m.md', text)).toEqual([]);
  });
});
