// Unit tests for the front-matter writer (parse/serialize.ts) and the entry schema (R31,
// docs/bad-inputs.md): a string a YAML 1.1 reader would take for a boolean, null or number is
// written quoted, everything else as before (dates stay plain, B06), and what is written reads back
// identically; `tags: [2024]` and `title: 1.10`, which recall and rewrites accept, are not validate
// errors.
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { parseFrontMatter } from '../../../src/parse/front-matter.js';
import { renderWithFrontMatter, yamlFlowValue } from '../../../src/parse/serialize.js';
import { validateFrontMatter } from '../../../src/validate/schema.js';
import { makeDoc, md } from '../../support/validate-docs.js';

describe('renderWithFrontMatter quotes what YAML 1.1 would misread (R31)', () => {
  it('quotes yes/no/on/off/y/n/~ and 1.1 number forms; leaves words, dates and numbers plain', () => {
    const data = {
      title: 'yes',
      status: 'Off',
      tags: ['on', 'N', 'plain', '1:20', '0755', '1_000'],
      created: '2024-03-01',
      note: 'yesterday',
      priority: 3,
    };
    const text = renderWithFrontMatter(data, 'Body.\n');
    expect(text).toContain('title: "yes"\n');
    expect(text).toContain('status: "Off"\n');
    expect(text).toContain('  - "on"\n  - "N"\n  - plain\n  - "1:20"\n  - "0755"\n  - "1_000"\n');
    expect(text).toContain('created: 2024-03-01\n');
    expect(text).toContain('note: yesterday\n');
    expect(text).toContain('priority: 3\n');
    expect(parseFrontMatter(text, 'memory/entries/x.md' as RelPath).frontMatter?.data).toEqual(data);
  });

  it('a single-key value is quoted the same way', () => {
    expect(yamlFlowValue('no')).toBe('"no"');
    expect(yamlFlowValue(['y', 'kafka'])).toBe('["y", kafka]');
    expect(yamlFlowValue('kafka')).toBe('kafka');
  });
});

describe('the entry schema takes what recall takes (R31)', () => {
  it('tags: [2024] and title: 1.10 are not errors', () => {
    const doc = makeDoc('memory/entries/x.md', md(['type: decision', 'title: 1.10', 'tags: [2024, release]'], '# T\n'));
    expect(validateFrontMatter(doc, 'entry').filter((d) => d.severity === 'error')).toEqual([]);
  });
});
