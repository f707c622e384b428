// invalidUtf8Offset (core/text.ts): where bytes stop being UTF-8, as a decoder would first put
// U+FFFD; the offset the R55 write refusal names (docs/bad-inputs.md R55).
import { describe, expect, it } from 'vitest';
import { invalidUtf8Offset } from '../../../src/core/text.js';

const b = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('invalidUtf8Offset', () => {
  it('is undefined for valid UTF-8 (ASCII, BOM, 2-4 byte characters, empty)', () => {
    expect(invalidUtf8Offset(b(''))).toBeUndefined();
    expect(invalidUtf8Offset(b([0xef, 0xbb, 0xbf], '# café — 日本 😀\n'))).toBeUndefined();
  });

  it('names the first byte of the first sequence a decoder would replace', () => {
    expect(invalidUtf8Offset(b('Ren', [0xe9], ' caf', [0xe9]))).toBe(3); // Latin-1 é
    expect(invalidUtf8Offset(b('ab', [0x80]))).toBe(2); // a lone continuation byte
    expect(invalidUtf8Offset(b('x', [0xc0, 0xaf]))).toBe(1); // overlong
    expect(invalidUtf8Offset(b('x', [0xed, 0xa0, 0x80]))).toBe(1); // a surrogate
    expect(invalidUtf8Offset(b('x', [0xf4, 0x90, 0x80, 0x80]))).toBe(1); // past U+10FFFF
    expect(invalidUtf8Offset(b('é', [0xe6, 0x97]))).toBe(2); // cut off at the end
    expect(invalidUtf8Offset(b('ok ', [0xe6, 0x41, 0x42]))).toBe(3); // a lead byte without its tail
  });
});
