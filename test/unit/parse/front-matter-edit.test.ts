// The one front-matter key editor (parse/front-matter-edit.ts): the editor's quick fix and the
// text ACE, dedupe and the dream pass write are the same bytes, quoted by the YAML library's rules.
import { describe, expect, it } from 'vitest';
import type { DocKind } from '../../../src/core/document.js';
import { classify, layoutPreset } from '../../../src/core/layout.js';
import { toRelPath } from '../../../src/core/paths.js';
import { LineIndex } from '../../../src/core/position.js';
import { setFrontMatterKey } from '../../../src/editor/front-matter.js';
import { frontMatterKeyEdit, withFrontMatterKey, withListItem } from '../../../src/parse/front-matter-edit.js';
import { parseDocument } from '../../../src/parse/parse-document.js';

const layout = layoutPreset('default');
const doc = (text: string, path = 'memory/entries/a.md') =>
  parseDocument({ path: toRelPath(path), kind: classify(path, layout) as DocKind, text });
const ENTRY = (extra = '') => `---\nid: a\ntype: learning\n${extra}---\n\nBody.\n`;

/** `text` with the editor's edit applied. */
function applyEdit(text: string, edit: { range: { start: any; end: any }; newText: string }): string {
  const li = new LineIndex(text);
  return text.slice(0, li.offsetAt(edit.range.start)) + edit.newText + text.slice(li.offsetAt(edit.range.end));
}

describe('front-matter key editor', () => {
  it('the editor quick fix and the written text agree, byte for byte, and read back as the value', () => {
    const values = ['café', 'yes', 'a: b', '2026-12-01', 'x # y', "it's", '[x', 'on'];
    for (const extra of ['', 'duplicate_of: old\n', 'duplicate_of:\n']) {
      for (const v of values) {
        const d = doc(ENTRY(extra));
        const written = withFrontMatterKey(d, 'duplicate_of', v)!;
        const edit = setFrontMatterKey(d, 'duplicate_of', v)!;
        expect(applyEdit(d.text, edit), `${extra} ${v}`).toBe(written);
        expect(doc(written).frontMatter!.data!.duplicate_of, `${extra} ${v}`).toBe(v);
      }
    }
  });

  it('a key with no value gets `key: value` on its own line, never `key:value`', () => {
    const d = doc(ENTRY('updated:\n'));
    expect(withFrontMatterKey(d, 'updated', '2026-12-01')).toBe(ENTRY('updated: 2026-12-01\n'));
    expect(frontMatterKeyEdit(d, 'updated', '2026-12-01')!.newText).toBe(': 2026-12-01');
  });

  it('list items take the flow-list quoting, in flow and block lists alike', () => {
    const flow = withListItem(doc(ENTRY('tags: [a]\n')), 'tags', 'b, c')!;
    expect(flow).toContain('tags: [a, "b, c"]\n');
    expect(doc(flow).meta.tags).toEqual(['a', 'b, c']);
    const block = withListItem(doc(ENTRY('tags:\n  - a\n')), 'tags', 'b, c')!;
    expect(doc(block).meta.tags).toEqual(['a', 'b, c']);
    expect(withListItem(doc(ENTRY()), 'supersedes', 'old')).toBe(ENTRY('supersedes: [old]\n'));
  });
});
