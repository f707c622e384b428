// Unit tests for what makes markdown a note (core/layout-evidence.ts notesByText): a typed entry's
// front-matter, or a [[wikilink]] in prose (the vendored Foam docs: linked notes without a vault
// marker or daily note); a project's docs that show the syntax in code are not notes (R50).
import { describe, expect, it } from 'vitest';
import { notesByText } from '../../../src/core/layout-evidence.js';

describe('notesByText', () => {
  it('a [[wikilink]] in prose makes a note; the link is named', () => {
    expect(notesByText('user/features/tags.md', '# Tags\n\nSee [[note-properties]] for more.\n')).toBe(
      'a note linking others by wikilink (user/features/tags.md: [[note-properties]])',
    );
  });

  it('the syntax shown in a code span or a fenced block is not a link', () => {
    const docs = '# Editors\n\nType `[[` to complete a `[[note]]` link.\n\n```md\nSee [[other]].\n```\n';
    expect(notesByText('docs/editors.md', docs)).toBeUndefined();
    expect(notesByText('README.md', '# P\n\nA project. See docs/api.md.\n')).toBeUndefined();
  });

  it("a typed entry's front-matter still makes a note", () => {
    expect(notesByText('x/a.md', '---\ntype: decision\n---\nUse lunr.\n')).toBe(
      'a typed entry (x/a.md, type decision)',
    );
  });
});
