// The tag catalogue (tags.md) and the memory.tag.unknown hint: parsed sections, and the rule only
// reporting when a catalogue exists.
import { describe, expect, it } from 'vitest';
import { parseTagCatalogue } from '../../../src/core/tags.js';
import { validateWorkspace } from '../../../src/validate/validate.js';
import { makeWorkspace, md } from '../../support/validate-docs.js';

const CATALOGUE = [
  '# Tags',
  '',
  '## postgres',
  '- category: infrastructure',
  '- description: The staging and production databases.',
  '',
  '## lunr',
  'The keyword search library.',
  '',
  '## #search',
  '- category: feature',
  '',
].join('\n');

describe('parseTagCatalogue', () => {
  it('one ## section per tag: category and description bullets, or the first paragraph', () => {
    const tags = parseTagCatalogue(CATALOGUE);
    expect([...tags.values()]).toEqual([
      { name: 'postgres', category: 'infrastructure', description: 'The staging and production databases.', line: 2 },
      { name: 'lunr', category: null, description: 'The keyword search library.', line: 6 },
      { name: 'search', category: 'feature', description: null, line: 9 },
    ]);
    expect(parseTagCatalogue('no headings here\n').size).toBe(0);
    expect(parseTagCatalogue('\uFEFF## a b c\n').size).toBe(0); // a heading with spaces is not a tag name
  });
});

describe('memory.tag.unknown', () => {
  const entries = {
    'memory/entries/db.md': md(['type: decision', 'tags: [postgres, postgress]', 'created: 2026-11-29'], '# DB\n'),
    'memory/playbook/p.md': md(['category: misc', 'tags: [lunr]'], '# P\n'),
  };
  it('a tag the catalogue does not list is a hint on that tag', () => {
    const ds = validateWorkspace(makeWorkspace({ ...entries, 'memory/tags.md': CATALOGUE })).filter(
      (d) => d.code === 'memory.tag.unknown',
    );
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({
      path: 'memory/entries/db.md',
      severity: 'hint',
      message: 'tag "postgress" is not in memory/tags.md',
      data: { tag: 'postgress' },
    });
    expect(ds[0]!.range.start.line).toBe(2);
  });
  it('without a catalogue any tag is fine', () => {
    expect(validateWorkspace(makeWorkspace(entries)).filter((d) => d.code === 'memory.tag.unknown')).toEqual([]);
  });
});
