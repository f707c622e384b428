// Code actions over a real parsed fixture: enum quick fixes, "mark as duplicate", and "move this
// bullet into a new entry" (deduped against existing entries, never for a secret, and the entry it
// writes validates).
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';
import { codeActions } from '../../../src/editor/code-actions.js';
import { editorDiagnostics } from '../../../src/editor/diagnostics.js';
import { NOW, editorView } from '../../support/editor-view.js';

const p = (s: string) => s as RelPath;
const line = (n: number) => range(n, 0, n, 0);

describe('codeActions', () => {
  it('an invalid type gets one fix per value, the closest preferred first', () => {
    const v = editorView();
    const path = p('memory/entries/typo-type.md');
    const diags = editorDiagnostics(v, [path]).get(path)!;
    const actions = codeActions(v, path, line(2), diags, NOW);
    expect(actions[0]).toMatchObject({ title: 'Change type to "decision"', kind: 'quickfix', isPreferred: true });
    expect(actions[0]!.edits).toEqual([{ path, range: range(2, 6, 2, 13), newText: 'decision' }]);
    expect(actions.filter((a) => a.title.startsWith('Change type')).length).toBe(7);
  });

  it('a near-duplicate gets "mark as duplicate", inserted before the closing ---', () => {
    const v = editorView();
    const path = p('memory/entries/lunr-again.md');
    const diags = editorDiagnostics(v, [path], new Set([path])).get(path)!;
    const actions = codeActions(v, path, line(1), diags, NOW);
    const mark = actions.find((a) => a.title === 'Mark as duplicate of use-lunr');
    expect(mark?.edits).toEqual([{ path, range: line(6), newText: 'duplicate_of: use-lunr\n' }]);
  });

  it('moves a bullet into a new entry that validates, leaving a link behind', () => {
    const v = editorView();
    const path = p('memory/MEMORY.md');
    const actions = codeActions(v, path, line(5), [], NOW);
    const move = actions.find((a) => a.create);
    expect(move).toBeDefined();
    const target = move!.create!.path;
    expect(target).toBe('memory/entries/2026-12-01-keep-embeddings-on-this-machine.md');
    const id = target.slice('memory/entries/'.length, -3);
    expect(move!.edits).toContainEqual({ path, range: range(5, 0, 6, 0), newText: `- [[${id}]]\n` });
    // The file it creates is a valid entry, and the link it leaves resolves to it.
    const after = editorView({ [target]: move!.create!.text, [path]: `# Memory\n\n- [[${id}]]\n` });
    const diags = editorDiagnostics(after, [target, path]);
    expect(diags.get(target)).toEqual([]);
    expect(diags.get(path)).toEqual([]);
    expect(after.workspace.tryGet(target)?.meta).toMatchObject({
      id,
      type: 'learning',
      title: 'Keep embeddings on this machine',
    });
  });

  it('a bullet whose text an entry already holds is linked to that entry, not moved', () => {
    // Without its near-duplicate, the one entry holding the text is use-lunr.
    const v = editorView({
      'memory/entries/lunr-again.md': '---\nid: lunr-again\ntype: decision\n---\n\nOther text.\n',
    });
    const actions = codeActions(v, p('memory/MEMORY.md'), line(13), [], NOW);
    expect(actions.map((a) => a.title)).toEqual(['Replace this bullet with a link to the existing entry use-lunr']);
    expect(actions[0]!.edits).toEqual([
      { path: 'memory/MEMORY.md', range: range(13, 0, 14, 0), newText: '- [[use-lunr]]\n' },
    ]);
  });

  it('offers no move for a bullet that is only a link, for a heading, or for a bullet holding a secret', () => {
    const v = editorView({ 'memory/MEMORY.md': '# M\n\n- [[use-lunr]]\n- deploy with AKIAABCDEFGHIJKLMNOP here\n' });
    const path = p('memory/MEMORY.md');
    expect(codeActions(v, path, line(2), [], NOW)).toEqual([]);
    expect(codeActions(v, path, line(0), [], NOW)).toEqual([]);
    expect(codeActions(v, path, line(3), [], NOW)).toEqual([]);
  });

  it('entries do not offer the bullet move', () => {
    const v = editorView({
      'memory/entries/list.md': '---\nid: list\ntype: learning\n---\n\n- a bullet in an entry\n',
    });
    expect(codeActions(v, p('memory/entries/list.md'), line(5), [], NOW)).toEqual([]);
  });
});
