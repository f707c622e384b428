// Navigation over a real parsed fixture: what a position refers to, where a memory is declared, and
// every place that refers to it.
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';
import { declarationRange, references, targetAt } from '../../../src/editor/navigation.js';
import { editorView } from '../../support/editor-view.js';

const p = (s: string) => s as RelPath;
const at = (line: number, character: number) => ({ line, character });

describe('targetAt', () => {
  const ws = editorView().workspace;

  it('a [[wikilink]] names the entry with that id', () => {
    const t = targetAt(ws, p('memory/MEMORY.md'), at(4, 5));
    expect(t?.kind).toBe('id');
    expect(t && t.kind === 'id' ? t.id : undefined).toBe('use-lunr');
    expect(t?.range).toEqual(range(4, 2, 4, 14));
    expect(t?.docs.map((d) => d.path)).toEqual(['memory/entries/use-lunr.md']);
  });

  it('an unresolved [[link]] is a target with no documents', () => {
    const t = targetAt(ws, p('memory/MEMORY.md'), at(6, 6));
    expect(t?.kind).toBe('id');
    expect(t?.docs).toEqual([]);
  });

  it('a relative markdown link resolves to the file', () => {
    const t = targetAt(ws, p('memory/MEMORY.md'), at(12, 10));
    expect(t?.kind).toBe('path');
    expect(t && t.kind === 'path' ? t.path : undefined).toBe('memory/entries/use-lunr.md');
    expect(t?.docs.map((d) => d.path)).toEqual(['memory/entries/use-lunr.md']);
  });

  it('a supersedes value in the front-matter names the entry', () => {
    const t = targetAt(ws, p('memory/entries/typo-type.md'), at(5, 15));
    expect(t && t.kind === 'id' ? t.id : undefined).toBe('use-lunr');
    expect(t?.docs.map((d) => d.path)).toEqual(['memory/entries/use-lunr.md']);
  });

  it('plain text refers to nothing', () => {
    expect(targetAt(ws, p('memory/MEMORY.md'), at(5, 6))).toBeUndefined();
    expect(targetAt(ws, p('memory/entries/use-lunr.md'), at(3, 3))).toBeUndefined();
  });
});

describe('declarationRange and references', () => {
  const ws = editorView().workspace;
  const lunr = ws.tryGet(p('memory/entries/use-lunr.md'))!;

  it('an entry is declared at its id: value', () => {
    expect(declarationRange(lunr)).toEqual(range(1, 4, 1, 12));
  });

  it('finds wiki links, relative links and supersedes values naming the entry', () => {
    const refs = references(ws, [lunr]).map((r) => `${r.path}:${r.range.start.line}:${r.range.start.character}`);
    expect(refs.sort()).toEqual(['memory/MEMORY.md:12:6', 'memory/MEMORY.md:4:2', 'memory/entries/typo-type.md:5:13']);
  });

  it('stops when cancelled', () => {
    expect(references(ws, [lunr], () => true)).toEqual([]);
  });
});
