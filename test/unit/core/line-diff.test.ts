import { describe, expect, it } from 'vitest';
import { diffLineOps, MAX_EDIT_LENGTH, patchHunks, splitLines } from '../../../src/core/line-diff.js';

describe('core/line-diff (jsdiff)', () => {
  it('splitLines: CRLF and LF alike, BOM dropped, final newline gives no empty line', () => {
    expect(splitLines('\uFEFFa\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });

  it('diffLineOps keeps the common lines and marks the rest', () => {
    expect(diffLineOps(['a', 'b', 'c'], ['a', 'x', 'b', 'c', 'y'])).toEqual([
      { t: ' ', s: 'a' },
      { t: '+', s: 'x' },
      { t: ' ', s: 'b' },
      { t: ' ', s: 'c' },
      { t: '+', s: 'y' },
    ]);
  });

  it('a total rewrite past the edit bound is undefined (callers treat it as remove-all, add-all)', () => {
    const n = MAX_EDIT_LENGTH;
    const a = Array.from({ length: n }, (_, i) => `old ${i}`);
    const b = Array.from({ length: n }, (_, i) => `new ${i}`);
    expect(diffLineOps(a, b)).toBeUndefined();
    const [h, ...rest] = patchHunks(a, b, 3);
    expect(rest).toEqual([]);
    expect(h).toMatchObject({ oldStart: 1, oldLines: n, newStart: 1, newLines: n });
  });

  it('patchHunks: an added file starts at 0 on the old side', () => {
    expect(patchHunks([], ['x'], 3)).toEqual([{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ['+x'] }]);
    expect(patchHunks(['x'], ['x'], 3)).toEqual([]);
  });
});
