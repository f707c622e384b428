// R131: a credential wrapped across a line end (`ghp_` at the end of one line, the rest at the start
// of the next) matched no pattern on either line, so it was shown as written, and every view that
// joins a section's lines (the session-start snapshot, recall's chunk text) put the halves together.
import { describe, expect, test } from 'vitest';
import { maskSecrets } from '../../../src/core/secret-mask.js';

const GH_REST = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const JWT_HEAD = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.';
const JWT_SIG = 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

/** Whether `shown` holds 8 consecutive characters of `secret`. */
function leaks(shown: string, secret: string): boolean {
  for (let i = 0; i + 8 <= secret.length; i++) if (shown.includes(secret.slice(i, i + 8))) return true;
  return false;
}

describe('a credential wrapped across a line end is masked on both lines (R131)', () => {
  test.each([
    ['a GitHub token cut after its prefix', 'The token is ghp_\n' + GH_REST + ' for CI', GH_REST],
    [
      'a GitHub token cut in its middle, the rest indented',
      'token ghp_AbCdEfGhIj\n    KlMnOpQrStUvWxYz0123456789\n',
      'KlMnOpQrStUvWxYz0123456789',
    ],
    ['a JWT cut before its signature', `Auth: ${JWT_HEAD}\r\n${JWT_SIG}`, JWT_SIG],
    [
      'a Stripe key cut in its middle',
      'Stripe sk_live_4eC39HqL\nyjWDarjtT1zdp7dc\n',
      'sk_live_4eC39HqLyjWDarjtT1zdp7dc'.slice(8),
    ],
  ])('%s', (_what, text, secret) => {
    const shown = maskSecrets(text);
    expect(leaks(shown, secret)).toBe(false);
    expect(shown).toContain('[redacted:');
    expect(shown.split(/\r\n|\r|\n/)).toHaveLength(text.split(/\r\n|\r|\n/).length);
  });

  test('a masked line keeps what is not the token, and text that only looks like a start is left alone', () => {
    expect(maskSecrets('The token is ghp_\n' + GH_REST + ' for CI')).toBe(
      'The token is ghp_…[redacted: GitHub token]\n[redacted: GitHub token] for CI',
    );
    const plain = 'We use the sk-\nlearn package and AKIA\nnames in docs.\n';
    expect(maskSecrets(plain)).toBe(plain);
  });

  test('a token whole on one line is masked once, as before', () => {
    expect(maskSecrets(`ghp_${GH_REST}\nnext line`)).toBe('ghp_…[redacted: GitHub token]\nnext line');
  });
});
