// Completion over a real parsed fixture: ids inside `[[`, enum values, tags in use, code files under
// `files:`, and front-matter keys; nothing in plain body text.
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';
import { complete, tagCounts } from '../../../src/editor/completion.js';
import { editorView } from '../../support/editor-view.js';

const p = (s: string) => s as RelPath;
const at = (line: number, character: number) => ({ line, character });
const NEW = 'memory/entries/new-one.md';
const entry = (...lines: string[]) => ['---', 'id: new-one', ...lines, '---', '', 'Body.', ''].join('\n');

describe('complete', () => {
  it('inside [[ offers entry ids matching what is typed, closing the link', () => {
    const v = editorView({ 'memory/MEMORY.md': '# M\n\n- see [[use\n' });
    const res = complete(v, p('memory/MEMORY.md'), at(2, 11));
    expect(res.items.map((i) => i.label)).toEqual(['use-lunr']);
    expect(res.items[0]).toMatchObject({ kind: 'id', insertText: 'use-lunr]]', range: range(2, 8, 2, 11) });
  });

  it('does not add ]] when the link is already closed', () => {
    const v = editorView({ 'memory/MEMORY.md': '# M\n\n- see [[use]]\n' });
    expect(complete(v, p('memory/MEMORY.md'), at(2, 11)).items[0]?.insertText).toBe('use-lunr');
  });

  it('offers every type value for a misspelt type, the closest first', () => {
    const v = editorView();
    const res = complete(v, p('memory/entries/typo-type.md'), at(2, 13));
    expect(res.items[0]).toMatchObject({ label: 'decision', kind: 'enum', range: range(2, 6, 2, 13) });
    expect(res.items.map((i) => i.label)).toContain('learning');
  });

  it('offers tags in use, most used first, with their usage', () => {
    const v = editorView({ [NEW]: entry('type: learning', 'tags: [se]') });
    const res = complete(v, p(NEW), at(3, 9));
    expect(res.items[0]).toMatchObject({ label: 'search', kind: 'tag', detail: 'used by 3 memories' });
    expect(res.items.map((i) => i.label)).not.toContain('lunr');
  });

  it('offers code files (not memory) under files:', () => {
    const v = editorView({ [NEW]: entry('type: learning', 'files:', '  - sr') });
    const res = complete(v, p(NEW), at(4, 6));
    expect(res.items.map((i) => [i.label, i.kind])).toEqual([
      ['src/app.ts', 'file'],
      ['src/search.ts', 'file'],
    ]);
    expect(res.incomplete).toBe(false);
  });

  it('offers the front-matter keys not yet present at the start of a line', () => {
    const v = editorView({ [NEW]: entry('type: learning', '') });
    const labels = complete(v, p(NEW), at(3, 0)).items.map((i) => i.label);
    expect(labels).toContain('title');
    expect(labels).toContain('tags');
    expect(labels).not.toContain('id');
    expect(labels).not.toContain('type');
  });

  it('offers nothing in plain body text', () => {
    const v = editorView();
    expect(complete(v, p('memory/entries/use-lunr.md'), at(12, 4))).toEqual({ items: [], incomplete: false });
  });
});

describe('tagCounts', () => {
  it('counts tags over the workspace, most used first', () => {
    expect(tagCounts(editorView().workspace)).toEqual([
      ['search', 3],
      ['lunr', 1],
    ]);
  });
});
