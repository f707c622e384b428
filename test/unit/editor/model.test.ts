// EditorModel over a real Memory (node fs, index storage in a temp folder) on a copy of
// fixtures/editor: load, then edits, reloads and removals, each answering whether the document
// changed and which documents' diagnostics may differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import type { RelPath } from '../../../src/core/paths.js';
import { editorDiagnostics } from '../../../src/editor/diagnostics.js';
import { EditorModel } from '../../../src/editor/model.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory, type Memory } from '../../../src/service/memory.js';
import { EDITOR_FIXTURE, NOW } from '../../support/editor-view.js';
import { copyDir, tempDir } from '../../support/fixtures.js';

const p = (s: string) => s as RelPath;
const LUNR = p('memory/entries/use-lunr.md');
const sorted = (r: { affected: RelPath[] }) => [...r.affected].sort();

let root: string;
let memory: Memory;
let model: EditorModel;

beforeEach(async () => {
  root = copyDir(EDITOR_FIXTURE);
  const fs = createNodeFs(root);
  const indexDir = join(tempDir('gitmem-idx-'), 'index');
  memory = await createMemory({ fs, openStorage: () => createIndexStorage(indexDir), freshness: 'manual' });
  model = new EditorModel(memory, fs, () => NOW);
  await model.load();
});

afterEach(async () => {
  await memory.dispose();
});

describe('EditorModel', () => {
  it('load parses every memory file and lists every file of the root', () => {
    expect(model.loaded).toBe(true);
    expect(model.workspace.docs().map((d) => d.path)).toEqual([
      'memory/MEMORY.md',
      'memory/entries/lunr-again.md',
      'memory/entries/typo-type.md',
      'memory/entries/use-lunr.md',
    ]);
    expect(model.codeFiles()).toEqual(['README.md', 'src/app.ts', 'src/search.ts']);
    expect(model.kindOf('memory/MEMORY.md')).toBe('long_term');
    expect(model.kindOf('src/app.ts')).toBeUndefined();
  });

  it('the same text is no change; a body edit affects only the document itself', () => {
    const text = readFileSync(join(root, LUNR), 'utf8');
    expect(model.update(LUNR, text)).toEqual({ changed: false, affected: [LUNR] });
    const edited = model.update(LUNR, text.replace('no native code', 'no native code at all'));
    expect(edited).toEqual({ changed: true, affected: [LUNR] });
    expect(model.doc(LUNR)?.text).toContain('at all');
  });

  it('a new id affects every document that names the old or the new one', () => {
    const text = readFileSync(join(root, LUNR), 'utf8');
    const res = model.update(LUNR, text.replace('id: use-lunr', 'id: lunr-choice'));
    expect(res.changed).toBe(true);
    // MEMORY.md links to it by file name and path, typo-type supersedes the old id.
    expect(sorted(res)).toEqual(['memory/MEMORY.md', 'memory/entries/typo-type.md', LUNR]);
    expect(model.workspace.byId('lunr-choice').map((d) => d.path)).toEqual([LUNR]);
  });

  it('removing a document affects its linkers; their links are then unresolved', () => {
    const res = model.remove(LUNR);
    expect(res.changed).toBe(true);
    expect(sorted(res)).toEqual(['memory/MEMORY.md', 'memory/entries/typo-type.md', LUNR]);
    expect(model.doc(LUNR)).toBeUndefined();
    const d = editorDiagnostics(model, res.affected);
    expect(d.get(p('memory/MEMORY.md'))!.map((x) => x.code)).toContain(DiagnosticCode.unresolvedLink);
    expect(d.get(p('memory/entries/typo-type.md'))!.map((x) => x.code)).toContain(DiagnosticCode.supersedesUnknown);
  });

  it('reload reads the disk: a binary .md becomes a file finding, not a document', async () => {
    const blob = p('memory/entries/blob.md');
    writeFileSync(join(root, blob), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02]));
    const res = await model.reload(blob);
    expect(res.changed).toBe(true);
    expect(model.doc(blob)).toBeUndefined();
    expect(
      editorDiagnostics(model, [blob])
        .get(blob)!
        .map((d) => d.code),
    ).toEqual([DiagnosticCode.binaryFile]);
    // Fixed on disk: the finding goes and the document appears.
    writeFileSync(join(root, blob), '---\nid: blob\ntype: learning\n---\n\nNow text.\n');
    expect((await model.reload(blob)).changed).toBe(true);
    expect(model.fileDiagnostics.has(blob)).toBe(false);
    expect(model.doc(blob)?.meta.id).toBe('blob');
  });

  it('reload of a file gone from disk removes it', async () => {
    const res = await model.reload(p('memory/entries/not-there.md'));
    expect(res).toEqual({ changed: false, affected: [] });
  });

  it('a code file that appears or vanishes shows in codeFiles', () => {
    model.touchFile(p('src/new.ts'), true);
    expect(model.codeFiles()).toContain('src/new.ts');
    model.touchFile(p('src/new.ts'), false);
    expect(model.codeFiles()).not.toContain('src/new.ts');
  });
});
