import { describe, expect, test } from 'vitest';
import { range } from '../../../src/core/position.js';
import { duplicateId } from '../../../src/validate/rules/duplicate-id.js';
import { validateWorkspace } from '../../../src/validate/validate.js';
import { makeWorkspace, md } from '../../support/validate-docs.js';

const only = (ws: ReturnType<typeof makeWorkspace>) => validateWorkspace(ws, { rules: [duplicateId] });

describe('duplicate-id rule', () => {
  test('two entries with the same id are both reported, at their `id:` key', () => {
    const ws = makeWorkspace({
      'memory/entries/a.md': md(['type: decision', 'id: use-lunr']),
      'memory/entries/b.md': md(['id: use-lunr', 'type: learning']),
      'memory/entries/c.md': md(['id: other', 'type: learning']),
    });
    const ds = only(ws);
    expect(ds.map((d) => [d.path, d.code, d.severity, d.range])).toEqual([
      ['memory/entries/a.md', 'memory.entry.duplicate-id', 'error', range(2, 0, 2, 2)],
      ['memory/entries/b.md', 'memory.entry.duplicate-id', 'error', range(1, 0, 1, 2)],
    ]);
    expect(ds[0]!.data).toEqual({ id: 'use-lunr', others: ['memory/entries/b.md'] });
    expect(ds[1]!.data).toEqual({ id: 'use-lunr', others: ['memory/entries/a.md'] });
  });

  test('an id that defaults to the slug collides too, reported at line 0', () => {
    const ws = makeWorkspace({
      'memory/entries/a.md': md(['id: pin-deps', 'type: decision']),
      'memory/playbook/pin-deps.md': '---\ncategory: dependencies\n---\n# Pin deps\n',
    });
    const ds = only(ws);
    expect(ds.map((d) => [d.path, d.range])).toEqual([
      ['memory/entries/a.md', range(1, 0, 1, 2)],
      ['memory/playbook/pin-deps.md', range(0, 0, 0, 3)],
    ]);
  });

  test('three-way duplicates list both other paths', () => {
    const ws = makeWorkspace({
      'memory/entries/a.md': md(['id: x', 'type: decision']),
      'memory/entries/b.md': md(['id: x', 'type: decision']),
      'memory/entries/c.md': md(['id: x', 'type: decision']),
    });
    const ds = only(ws);
    expect(ds).toHaveLength(3);
    expect(ds[1]!.data).toEqual({ id: 'x', others: ['memory/entries/a.md', 'memory/entries/c.md'] });
  });

  test('unique ids and non-entry documents are fine', () => {
    const ws = makeWorkspace({
      'memory/entries/a.md': md(['type: decision']),
      'memory/entries/b.md': md(['type: decision']),
      'memory/MEMORY.md': '# a\n',
      'memory/notes/a.md': '# a\n',
    });
    expect(only(ws)).toEqual([]);
  });

  test('with `paths`, only the asked document is reported, though the other one caused it', () => {
    const ws = makeWorkspace({
      'memory/entries/a.md': md(['id: x', 'type: decision']),
      'memory/entries/b.md': md(['id: x', 'type: decision']),
    });
    const ds = validateWorkspace(ws, { rules: [duplicateId], paths: ['memory/entries/b.md' as never] });
    expect(ds.map((d) => d.path)).toEqual(['memory/entries/b.md']);
  });
});
