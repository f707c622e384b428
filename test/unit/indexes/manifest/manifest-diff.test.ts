// indexes/manifest/manifest-diff.ts: the one place that says what changed between two file sets (a manifest
// and a stat walk, the live index and a batch). Every kind of change, the order of the lists and of
// the callback, and the plain-record adapter.
import { describe, expect, it } from 'vitest';
import {
  changeOf,
  contentUnchanged,
  diffFiles,
  fileSetOf,
  type FileKey,
} from '../../../../src/indexes/manifest/manifest-diff.js';

describe('changeOf', () => {
  it('tells added, changed, removed, restat and same apart', () => {
    const a: FileKey = { hash: 'h1', stat: 's1' };
    expect(changeOf(undefined, a)).toBe('added');
    expect(changeOf(a, { hash: 'h2', stat: 's1' })).toBe('changed');
    expect(changeOf(a, null)).toBe('removed');
    expect(changeOf(a, undefined)).toBe('removed');
    expect(changeOf(undefined, null)).toBe('same');
    expect(changeOf(a, { hash: 'h1', stat: 's2' })).toBe('restat');
    expect(changeOf(a, { hash: 'h1' })).toBe('restat'); // racy now: its key is dropped
    expect(changeOf({ hash: 'h1' }, { hash: 'h1' })).toBe('same');
    expect(changeOf(a, { hash: 'h1', stat: 's1' })).toBe('same');
  });
});

describe('diffFiles', () => {
  const before = new Map<string, FileKey>([
    ['a.md', { hash: '1', stat: 'x' }],
    ['b.md', { hash: '2', stat: 'y' }],
    ['c.md', { hash: '3', stat: 'z' }],
    ['d.md', { hash: '4' }],
  ]);

  it('lists each path once under its change, removals after the current paths', () => {
    const after = fileSetOf({ 'a.md': '1', 'b.md': '9', 'd.md': '4', 'e.md': '5' }, { 'a.md': 'x2', 'b.md': 'y' });
    const seen: string[] = [];
    const d = diffFiles(before, after, (p, c) => seen.push(`${c}:${p}`));
    expect(d).toEqual({ added: ['e.md'], changed: ['b.md'], removed: ['c.md'], restat: ['a.md'] });
    expect(seen).toEqual(['restat:a.md', 'changed:b.md', 'added:e.md', 'removed:c.md']);
    expect(contentUnchanged(d)).toBe(false);
  });

  it('an untouched set is unchanged; a touch alone is content-unchanged but not empty', () => {
    const same = fileSetOf(
      { 'a.md': '1', 'b.md': '2', 'c.md': '3', 'd.md': '4' },
      { 'a.md': 'x', 'b.md': 'y', 'c.md': 'z' },
    );
    expect(diffFiles(before, same)).toEqual({ added: [], changed: [], removed: [], restat: [] });
    const touched = fileSetOf(
      { 'a.md': '1', 'b.md': '2', 'c.md': '3', 'd.md': '4' },
      { 'a.md': 'x', 'b.md': 'y', 'c.md': 'z', 'd.md': 'w' },
    );
    const d = diffFiles(before, touched);
    expect(d.restat).toEqual(['d.md']);
    expect(contentUnchanged(d)).toBe(true);
  });

  it('fileSetOf reads only own keys (a path named like an Object method is a path)', () => {
    const set = fileSetOf({ constructor: 'h' });
    expect(set.get('constructor')).toEqual({ hash: 'h', stat: undefined });
    expect(set.get('toString')).toBeUndefined();
    expect(diffFiles(new Map(), set).added).toEqual(['constructor']);
  });
});
