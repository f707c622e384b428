// Editor diagnostics over a real parsed fixture (fixtures/editor): the workspace rules, per-file read
// findings, and the near-duplicate check that runs only for open documents.
import { describe, expect, it } from 'vitest';
import { DiagnosticCode, type Diagnostic } from '../../../src/core/diagnostics.js';
import { range } from '../../../src/core/position.js';
import type { RelPath } from '../../../src/core/paths.js';
import { NEAR_DUPLICATE, editorDiagnostics } from '../../../src/editor/diagnostics.js';
import { editorView } from '../../support/editor-view.js';

const p = (s: string) => s as RelPath;
const codes = (m: Map<RelPath, Diagnostic[]>, path: string) => (m.get(p(path)) ?? []).map((d) => d.code);

describe('editorDiagnostics', () => {
  it('reports the workspace rules per file, and every asked-for path has an entry (empty when clean)', () => {
    const v = editorView();
    const all = editorDiagnostics(v);
    expect([...all.keys()].sort()).toEqual([
      'memory/MEMORY.md',
      'memory/entries/lunr-again.md',
      'memory/entries/typo-type.md',
      'memory/entries/use-lunr.md',
    ]);
    expect(codes(all, 'memory/MEMORY.md')).toEqual([DiagnosticCode.unresolvedLink]);
    expect(all.get(p('memory/MEMORY.md'))![0]!.range).toEqual(range(6, 2, 6, 19));
    expect(codes(all, 'memory/entries/typo-type.md')).toEqual([DiagnosticCode.invalidValue]);
    expect(codes(all, 'memory/entries/use-lunr.md')).toEqual([]);
  });

  it('asked for some paths, answers only those', () => {
    const v = editorView();
    const some = editorDiagnostics(v, [p('memory/entries/use-lunr.md'), p('memory/entries/typo-type.md')]);
    expect([...some.keys()]).toEqual(['memory/entries/use-lunr.md', 'memory/entries/typo-type.md']);
  });

  it('flags a near-duplicate only for open documents, and only on the later one of the pair', () => {
    const v = editorView();
    const closed = editorDiagnostics(v);
    expect(codes(closed, 'memory/entries/lunr-again.md')).toEqual([]);
    const open = new Set([p('memory/entries/lunr-again.md'), p('memory/entries/use-lunr.md')]);
    const withOpen = editorDiagnostics(v, undefined, open);
    expect(codes(withOpen, 'memory/entries/use-lunr.md')).toEqual([]);
    const dup = withOpen.get(p('memory/entries/lunr-again.md'))!;
    expect(dup.map((d) => d.code)).toEqual([NEAR_DUPLICATE]);
    expect(dup[0]!.data).toEqual({
      duplicateOf: 'use-lunr',
      otherPath: 'memory/entries/use-lunr.md',
      similarity: 1,
      reason: 'same-text',
    });
    // At the `id:` key of the later entry.
    expect(dup[0]!.range).toEqual(range(1, 0, 1, 2));
  });

  it('an entry already marked duplicate_of is not flagged again', () => {
    const marked = [
      '---',
      'id: lunr-again',
      'type: decision',
      'created: 2026-11-20T09:00:00Z',
      'duplicate_of: use-lunr',
      '---',
      '',
      'Use lunr for keyword recall: BM25 ranking with no server and no native code.',
      '',
    ].join('\n');
    const v = editorView({ 'memory/entries/lunr-again.md': marked });
    const d = editorDiagnostics(v, [p('memory/entries/lunr-again.md')], new Set([p('memory/entries/lunr-again.md')]));
    expect(codes(d, 'memory/entries/lunr-again.md')).not.toContain(NEAR_DUPLICATE);
  });

  it('adds per-file read findings (a binary .md) to the file, also when it has no parsed document', () => {
    const skipped: Diagnostic = {
      path: p('memory/entries/blob.md'),
      range: range(0, 0, 0, 0),
      severity: 'warning',
      code: DiagnosticCode.binaryFile,
      message: 'binary',
    };
    const v = editorView({}, new Map([[p('memory/entries/blob.md'), [skipped]]]));
    const all = editorDiagnostics(v);
    expect(codes(all, 'memory/entries/blob.md')).toEqual([DiagnosticCode.binaryFile]);
  });

  it('a link fixed in the text clears the unresolved-link finding', () => {
    const v = editorView({ 'memory/MEMORY.md': '# Memory\n\n- [[use-lunr]] and [[typo-type]]\n' });
    expect(codes(editorDiagnostics(v, [p('memory/MEMORY.md')]), 'memory/MEMORY.md')).toEqual([]);
  });
});
