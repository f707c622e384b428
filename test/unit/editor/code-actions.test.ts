// Code actions over a real parsed fixture: enum quick fixes, "mark as duplicate", and "move this
// bullet into a new entry" (deduped against existing entries, never for a secret, and the entry it
// writes validates).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';
import { codeActions } from '../../../src/editor/code-actions.js';
import { editorDiagnostics } from '../../../src/editor/diagnostics.js';
import { EDITOR_FIXTURE, NOW, editorView } from '../../support/editor-view.js';

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

// docs/bad-inputs.md U13: values an action copies from a file (an id, a tag, a title) are written as
// one YAML value each, a new file's name never leaves the entries folder, and no action offers a
// new file that would hold a credential.
describe('code actions over crafted front-matter (U13)', () => {
  const expired = (id: string, extra = '', body = 'Old text.') =>
    `---\nid: ${JSON.stringify(id)}\ntype: learning\n${extra}valid_until: 2026-01-01\n---\n\n${body}\n`;
  const supersede = (files: Record<string, string>, path: string) => {
    const v = editorView(files);
    const diags = editorDiagnostics(v, [p(path)]).get(p(path)) ?? [];
    return codeActions(v, p(path), line(3), diags, NOW).find((a) => a.title.startsWith('Supersede: new entry'));
  };
  const reread = (path: string, text: string) => editorView({ [path]: text }).workspace.tryGet(p(path))!;

  it('a tag or id holding a line break cannot forge keys in the superseding entry', () => {
    const path = 'memory/entries/old.md';
    const tag = 'a]\nsupersedes: [use-lunr';
    const sup = supersede({ [path]: expired('old', `tags: [${JSON.stringify(tag)}, b]\n`) }, path)!;
    const meta = reread(sup.create!.path, sup.create!.text).meta;
    expect(meta).toMatchObject({ id: '2026-12-01-old', tags: [tag, 'b'], supersedes: ['old'] });

    const forged = 'old3\nstatus: archived';
    const sup3 = supersede({ [path]: expired(forged) }, path)!;
    const meta3 = reread(sup3.create!.path, sup3.create!.text).meta;
    expect(meta3.supersedes).toEqual([forged]);
    expect(meta3.status).not.toBe('archived');
    expect(sup3.create!.path).toMatch(/^memory\/entries\/[^/]+\.md$/);
  });

  it('an id with ".." or "/" gives a file inside the entries folder, and the other actions stay', () => {
    const path = 'memory/entries/old2.md';
    const v = editorView({ [path]: expired('../../x') });
    const diags = editorDiagnostics(v, [p(path)]).get(p(path))!;
    const actions = codeActions(v, p(path), line(3), diags, NOW);
    expect(actions.map((a) => a.title.split(' ')[0])).toEqual(['Confirm:', 'Update:', 'Supersede:']);
    expect(actions[2]!.create!.path).toBe('memory/entries/2026-12-01-x.md');
    expect(reread(actions[2]!.create!.path, actions[2]!.create!.text).meta.supersedes).toEqual(['../../x']);
  });

  it('an entry holding a credential is not copied into a new file', () => {
    const path = 'memory/entries/old4.md';
    expect(supersede({ [path]: expired('old4', '', 'Deploy key AKIAABCDEFGHIJKLMNOP here.') }, path)).toBeUndefined();
  });

  it('"mark as duplicate" writes an id with a line break as one quoted value', () => {
    const evil = 'use-lunr\nstatus: archived';
    const v = editorView({
      'memory/entries/use-lunr.md': readFileSync(join(EDITOR_FIXTURE, 'memory/entries/use-lunr.md'), 'utf8').replace(
        'id: use-lunr',
        `id: ${JSON.stringify(evil)}`,
      ),
    });
    const path = p('memory/entries/lunr-again.md');
    const diags = editorDiagnostics(v, [path], new Set([path])).get(path)!;
    const mark = codeActions(v, path, line(1), diags, NOW).find((a) => a.title.startsWith('Mark as duplicate'))!;
    expect(mark.edits).toEqual([{ path, range: line(6), newText: `duplicate_of: ${JSON.stringify(evil)}\n` }]);
    // A bullet with that entry's text is not replaced by a link the id would break.
    const memory = '# M\n\n- Use lunr for keyword recall: BM25 ranking with no server and no native code.\n';
    const v2 = editorView({
      'memory/MEMORY.md': memory,
      'memory/entries/lunr-again.md': '---\nid: lunr-again\ntype: decision\n---\n\nOther.\n',
      'memory/entries/use-lunr.md': readFileSync(join(EDITOR_FIXTURE, 'memory/entries/use-lunr.md'), 'utf8').replace(
        'id: use-lunr',
        `id: ${JSON.stringify(evil)}`,
      ),
    });
    expect(codeActions(v2, p('memory/MEMORY.md'), line(2), [], NOW)).toEqual([]);
  });
});
