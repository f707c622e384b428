// Document symbols (the heading tree), the document summaries, and hover previews, over a real
// parsed fixture.
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';
import { preview } from '../../../src/editor/hover.js';
import { documentSummaries, headings } from '../../../src/editor/symbols.js';
import type { HeadingSymbol } from '../../../src/editor/types.js';
import { editorView } from '../../support/editor-view.js';

const p = (s: string) => s as RelPath;
const tree = (hs: readonly HeadingSymbol[]): unknown[] =>
  hs.map((h) => (h.children.length ? { [h.name]: tree(h.children) } : h.name));

describe('headings', () => {
  const ws = editorView().workspace;

  it('nests headings by depth; each range runs to the line before the next heading of its level', () => {
    const hs = headings(ws, p('memory/MEMORY.md'));
    expect(tree(hs)).toEqual([{ Memory: ['Decisions', { Learnings: ['Tokens'] }] }]);
    const decisions = hs[0]!.children[0]!;
    expect(decisions.depth).toBe(2);
    expect(decisions.selectionRange).toEqual(range(2, 0, 2, 12));
    expect(decisions.range).toEqual(range(2, 0, 7, 0));
    expect(hs[0]!.children[1]!.range.end.line).toBe(14);
  });

  it('a document without headings, or not in the workspace, has none', () => {
    expect(headings(ws, p('memory/entries/use-lunr.md'))).toEqual([]);
    expect(headings(ws, p('memory/nothing.md'))).toEqual([]);
  });
});

describe('documentSummaries', () => {
  it('lists every memory document; ids only for entries and playbook entries', () => {
    const s = documentSummaries(editorView().workspace);
    expect(s.map((d) => d.path)).toEqual([
      'memory/MEMORY.md',
      'memory/entries/lunr-again.md',
      'memory/entries/typo-type.md',
      'memory/entries/use-lunr.md',
    ]);
    expect(s[0]).toEqual({ path: 'memory/MEMORY.md', kind: 'long_term' });
    expect(s[3]).toMatchObject({ id: 'use-lunr', kind: 'entry', type: 'decision' });
  });
});

describe('preview', () => {
  const ws = editorView().workspace;

  it('shows title, type, tags, provenance, status, created and the body', () => {
    const pv = preview(ws.tryGet(p('memory/entries/use-lunr.md'))!);
    expect(pv).toEqual({
      path: 'memory/entries/use-lunr.md',
      kind: 'entry',
      id: 'use-lunr',
      title: 'Use lunr for keyword recall',
      type: 'decision',
      tags: ['search', 'lunr'],
      status: 'active',
      created: '2026-11-01T09:00:00Z',
      source: { agent: 'claude', origin: 'cli' },
      excerpt: 'Use lunr for keyword recall: BM25 ranking with no server and no native code.',
    });
  });

  it('caps the excerpt at maxLines and marks the cut', () => {
    const pv = preview(ws.tryGet(p('memory/MEMORY.md'))!, 3);
    expect(pv.excerpt).toBe('# Memory\n\n## Decisions\n…');
  });
});
