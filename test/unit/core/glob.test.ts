import { describe, expect, it } from 'vitest';
import { globMatcher, matchesAny, matchesAnyOf } from '../../../src/core/glob.js';

describe('core/glob', () => {
  it.each([
    ['memory/**', 'memory/entries/a.md', true],
    ['memory/**/*.md', 'memory/a.md', true],
    ['memory/*.md', 'memory/entries/a.md', false],
    ['memory/[0-9][0-9][0-9][0-9]-*.md', 'memory/2026-01-05.md', true],
    ['memory/[0-9][0-9][0-9][0-9]-*.md', 'memory/notes.md', false],
    ['{MEMORY,DREAMS}.md', 'DREAMS.md', true],
    ['{MEMORY,DREAMS}.md', 'OTHER.md', false],
    ['.fusion/memory/**', '.fusion/memory/MEMORY.md', true],
    ['**/*.md', 'memory/.hidden.md', true],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['notes/**', 'notes/a (draft).md', true],
  ])('%s vs %s → %s', (glob, path, want) => {
    expect(globMatcher(glob).test(path)).toBe(want);
  });

  it('matchesAny is true when one glob matches', () => {
    expect(matchesAny('memory/archive/x.md', ['docs/**', 'memory/archive/**'])).toBe(true);
    expect(matchesAny('memory/x.md', ['docs/**'])).toBe(false);
  });
});

describe('matchesAnyOf', () => {
  it('gives the same answers as matchesAny over a compiled list', () => {
    const lists = [
      ['memory/entries/**/*.md', 'memory/*.md'],
      ['**/node_modules/**', '.gitmem/**', '**/.git/**'],
      ['MEMORY.md'],
      ['**/*.draft.md', 'memory/**/2024-*.md', '**/dist/**'],
      ['memory/daily/[0-9]*.md', '**/dist/**'],
      [],
    ];
    const paths = [
      'memory/entries/a.md',
      'memory/entries/x/y/b.md',
      'memory/top.md',
      'memory/.hidden.md',
      'a/node_modules/b.md',
      '.gitmem/x.md',
      'MEMORY.md',
      'docs/MEMORY.md',
      'other.txt',
      'memory/daily/2024-01-02.md',
      'memory/2024-x.md',
      'a/b.draft.md',
      'distx/a.md',
      'dist/a.md',
      'a/dist/b/c.md',
      'memory/daily/x.md',
    ];
    for (const globs of lists)
      for (const p of paths) expect(matchesAnyOf(p, globs), `${p} in ${globs.join(',')}`).toBe(matchesAny(p, globs));
  });
});
