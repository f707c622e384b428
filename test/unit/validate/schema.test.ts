import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { range } from '../../../src/core/position.js';
import {
  fieldName,
  frontMatterRange,
  isIsoDate,
  isIsoDateTime,
  SCHEMAS,
  validateConfig,
  validateFrontMatter,
} from '../../../src/validate/schema.js';
import { makeDoc, md } from '../../support/validate-docs.js';

const entry = (lines: string[], body = '# Title\n') => makeDoc('memory/entries/x.md', md(lines, body));
const playbook = (lines: string[], body = '# Guidance\n') => makeDoc('memory/playbook/p.md', md(lines, body));
const summary = (ds: ReturnType<typeof validateFrontMatter>) => ds.map((d) => [d.code, d.severity, d.range.start.line]);

describe('validateFrontMatter (entry)', () => {
  test('a complete, valid entry has no findings', () => {
    const doc = entry([
      'id: 2026-11-29-postgres-for-storage',
      'type: decision',
      'title: Use PostgreSQL for storage',
      'tags: [storage, postgres]',
      'files:',
      '  - { path: src/db/pool.ts, relation: modified, lines: [10, 42] }',
      '  - src/db/index.ts',
      'created: 2026-11-29T14:02:00Z',
      'updated: 2026-11-29',
      'source: { agent: claude-code, session: abc123, task: T-12, origin: complete-task }',
      'goal: pick a store',
      'result: postgres',
      'feedback: fine',
      'supersedes: [older-id]',
      'duplicate_of: other-id',
      'status: active',
    ]);
    expect(validateFrontMatter(doc, 'entry')).toEqual([]);
  });

  test('a type outside the enum is an error at the `type:` key', () => {
    const doc = entry(['title: T', 'type: choice']);
    const ds = validateFrontMatter(doc, 'entry');
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({
      code: 'memory.schema.invalid-value',
      severity: 'error',
      path: 'memory/entries/x.md',
    });
    expect(ds[0]!.range).toEqual(range(2, 0, 2, 4));
    expect(ds[0]!.data).toMatchObject({ pointer: '/type', keyword: 'enum' });
  });

  test('a type of the wrong JSON type is one error, not two', () => {
    const ds = validateFrontMatter(entry(['type: 5']), 'entry');
    expect(summary(ds)).toEqual([['memory.schema.invalid-value', 'error', 1]]);
  });

  test('an unknown key is a warning at that key', () => {
    const ds = validateFrontMatter(entry(['type: decision', 'mood: happy']), 'entry');
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ code: 'memory.schema.unknown-field', severity: 'warning' });
    expect(ds[0]!.range).toEqual(range(2, 0, 2, 4));
    expect(ds[0]!.data).toMatchObject({ pointer: '/mood', key: 'mood' });
  });

  test('unknown keys inside known objects are warnings too', () => {
    const ds = validateFrontMatter(
      entry(['type: decision', 'source:', '  agent: me', '  model: x', 'files:', '  - path: a.ts', '    why: because']),
      'entry',
    );
    expect(ds.map((d) => [d.code, (d.data as { pointer: string }).pointer, d.range.start.line])).toEqual([
      ['memory.schema.unknown-field', '/source/model', 4],
      ['memory.schema.unknown-field', '/files/0/why', 7],
    ]);
  });

  test('a missing type is `required`, on the opening --- line', () => {
    const ds = validateFrontMatter(entry(['title: No type']), 'entry');
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ code: 'memory.schema.required', severity: 'error' });
    expect(ds[0]!.range).toEqual(range(0, 0, 0, 3));
    expect(ds[0]!.data).toMatchObject({ key: 'type' });
  });

  test('an entry without any front-matter misses `type` at line 0', () => {
    const doc = makeDoc('memory/entries/plain.md', '# Just a note\n\nbody\n');
    const ds = validateFrontMatter(doc, 'entry');
    expect(summary(ds)).toEqual([['memory.schema.required', 'error', 0]]);
    expect(ds[0]!.range).toEqual(range(0, 0, 0, 13));
  });

  test('an empty front-matter block misses `type`', () => {
    const ds = validateFrontMatter(makeDoc('memory/entries/e.md', '---\n---\nbody\n'), 'entry');
    expect(summary(ds)).toEqual([['memory.schema.required', 'error', 0]]);
  });

  test('a date that is not ISO-8601 is a warning at that key', () => {
    const ds = validateFrontMatter(entry(['type: decision', 'created: yesterday', 'updated: 2026-02-30']), 'entry');
    expect(ds.map((d) => [d.code, d.severity, d.range])).toEqual([
      ['memory.schema.invalid-date', 'warning', range(2, 0, 2, 7)],
      ['memory.schema.invalid-date', 'warning', range(3, 0, 3, 7)],
    ]);
  });

  test('ISO dates and date-times in their common spellings are accepted', () => {
    for (const created of [
      '2026-11-29',
      '2026-11-29T14:02:00Z',
      '2026-11-29T14:02:00',
      '2026-11-29T14:02Z',
      '2026-11-29T14:02:00.123+01:00',
      '2026-11-29 14:02:00',
      '"2026-11-29T14:02:00-0500"',
      '2024-02-29',
    ]) {
      expect(validateFrontMatter(entry(['type: decision', `created: ${created}`]), 'entry'), created).toEqual([]);
    }
  });

  test('a date that is not a string is an invalid value (error), not a date warning', () => {
    const ds = validateFrontMatter(entry(['type: decision', 'created: 20261129']), 'entry');
    expect(summary(ds)).toEqual([['memory.schema.invalid-value', 'error', 2]]);
  });

  test('tags given as a number is an error at `tags:`', () => {
    const ds = validateFrontMatter(entry(['type: decision', 'tags: 3']), 'entry');
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ code: 'memory.schema.invalid-value', severity: 'error' });
    expect(ds[0]!.range).toEqual(range(2, 0, 2, 4));
    expect(ds[0]!.data).toMatchObject({ pointer: '/tags', keyword: 'type' });
  });

  test('a bad list item is reported at the item (no key: value range)', () => {
    const ds = validateFrontMatter(entry(['type: decision', 'tags: [ok, true]']), 'entry');
    expect(ds.map((d) => [d.code, d.range])).toEqual([['memory.schema.invalid-value', range(2, 11, 2, 15)]]);
  });

  test('file refs: bad relation, bad lines, wrong item type, missing path', () => {
    const ds = validateFrontMatter(
      entry([
        'type: decision',
        'files:',
        '  - { path: a.ts, relation: touched }',
        '  - { path: b.ts, lines: [10] }',
        '  - 7',
        '  - { relation: read }',
      ]),
      'entry',
    );
    expect(ds.map((d) => [d.code, (d.data as { pointer: string }).pointer, d.range.start.line])).toEqual([
      ['memory.schema.invalid-value', '/files/0/relation', 3],
      ['memory.schema.invalid-value', '/files/1/lines', 4],
      ['memory.schema.invalid-value', '/files/2', 5],
      ['memory.schema.required', '/files/3', 6],
    ]);
  });

  test('status outside its enum is an error', () => {
    const ds = validateFrontMatter(entry(['type: decision', 'status: deleted']), 'entry');
    expect(summary(ds)).toEqual([['memory.schema.invalid-value', 'error', 2]]);
  });

  test('a block that is not YAML, or did not parse, is left to the parser', () => {
    expect(validateFrontMatter(makeDoc('memory/entries/js.md', '---js\n{ type: 1 }\n---\n'), 'entry')).toEqual([]);
    const broken = makeDoc('memory/entries/b.md', '---\ntype: [unclosed\n---\n');
    expect(broken.diagnostics.map((d) => d.code)).toEqual(['memory.front-matter.invalid-yaml']);
    expect(validateFrontMatter(broken, 'entry')).toEqual([]);
  });

  test('an unclosed block (reported by the parser) gets no schema findings on top', () => {
    const plain = makeDoc('memory/entries/u.md', '---\ntitle: never closed\n\nbody\n');
    expect(plain.frontMatter).toBeUndefined();
    expect(summary(validateFrontMatter(plain, 'entry'))).toEqual([['memory.schema.required', 'error', 0]]);
    const unclosed = {
      ...plain,
      diagnostics: [
        {
          path: plain.path,
          range: range(0, 0, 0, 3),
          severity: 'warning' as const,
          code: DiagnosticCode.unclosedFrontMatter,
          message: 'unclosed',
        },
      ],
    };
    expect(validateFrontMatter(unclosed, 'entry')).toEqual([]);
  });

  test('ranges are UTF-16 columns', () => {
    const ds = validateFrontMatter(entry(['title: 🧠 mémoire', 'type: decision', 'ключ: 1']), 'entry');
    expect(ds.map((d) => [d.code, d.range])).toEqual([['memory.schema.unknown-field', range(3, 0, 3, 4)]]);
  });
});

describe('validateFrontMatter (playbook)', () => {
  test('a valid playbook entry has no findings', () => {
    const doc = playbook([
      'id: pin-deps',
      'category: dependencies',
      'priority: 3',
      'tags: [npm]',
      'supporting: [use-lunr, 2026-11-29-postgres]',
      'active: true',
      'created: 2026-11-29',
      'created_by: curator',
    ]);
    expect(validateFrontMatter(doc, 'playbook')).toEqual([]);
  });

  test('a bad category is an error at `category:`', () => {
    const ds = validateFrontMatter(playbook(['category: misc']), 'playbook');
    expect(ds.map((d) => [d.code, d.severity, d.range])).toEqual([
      ['memory.schema.invalid-value', 'error', range(1, 0, 1, 8)],
    ]);
  });

  test('category is required; priority must be an integer; active a boolean', () => {
    const ds = validateFrontMatter(playbook(['priority: 1.5', 'active: "yes"']), 'playbook');
    expect(summary(ds)).toEqual([
      ['memory.schema.required', 'error', 0],
      ['memory.schema.invalid-value', 'error', 1],
      ['memory.schema.invalid-value', 'error', 2],
    ]);
  });

  test('entry-only keys are unknown in a playbook', () => {
    const ds = validateFrontMatter(playbook(['category: testing', 'type: decision']), 'playbook');
    expect(summary(ds)).toEqual([['memory.schema.unknown-field', 'warning', 2]]);
  });
});

describe('frontMatterRange', () => {
  test('walks up to the nearest recorded node', () => {
    const doc = entry(['type: decision', 'source: { agent: me }']);
    expect(frontMatterRange(doc, '/source/agent')).toEqual(range(2, 10, 2, 15));
    expect(frontMatterRange(doc, '/source/agent/deeper/still')).toEqual(range(2, 10, 2, 15));
    expect(frontMatterRange(doc, '/nothing')).toEqual(range(0, 0, 0, 3));
  });
});

describe('date and field helpers', () => {
  test('isIsoDate / isIsoDateTime', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-1-2')).toBe(false);
    expect(isIsoDateTime('2026-11-29T24:00:00Z')).toBe(false);
    expect(isIsoDateTime('2026-11-29T23:59:60Z')).toBe(true);
    expect(isIsoDateTime('2026-11-29')).toBe(false);
    expect(isIsoDateTime('2026-11-29T10:00:00+25:00')).toBe(false);
  });

  test('fieldName', () => {
    expect(fieldName('/files/0/relation')).toBe('files[0].relation');
    expect(fieldName('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(fieldName('')).toBe('front-matter');
  });
});

describe('validateConfig', () => {
  test('accepts the defaults, as an object and as JSON', () => {
    expect(validateConfig(DEFAULT_CONFIG)).toEqual({ ok: true, errors: [] });
    expect(validateConfig(JSON.parse(JSON.stringify(DEFAULT_CONFIG)))).toEqual({ ok: true, errors: [] });
    expect(validateConfig({})).toEqual({ ok: true, errors: [] });
  });

  test('accepts every documented key', () => {
    const full = {
      $schema: './node_modules/gitmem/schemas/config.schema.json',
      version: 1,
      layout: 'openclaw',
      kinds: { long_term: ['MEMORY.md'], daily: ['notes/*.md'], note: [] },
      ignore: ['archive/**'],
      index: { dir: '.cache/gitmem' },
      recall: { limit: 50, snippetChars: 200 },
      chunking: { maxLines: 8, maxChars: 2000 },
      limits: { maxFileBytes: 1024 },
      dedupe: { jaccard: 0 },
    };
    expect(validateConfig(full)).toEqual({ ok: true, errors: [] });
  });

  test('rejects recall.limit: 500', () => {
    const r = validateConfig({ recall: { limit: 500 } });
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => e.pointer)).toEqual(['/recall/limit']);
  });

  test('rejects unknown keys, at any depth', () => {
    const r = validateConfig({ recal: { limit: 5 }, recall: { limt: 5 }, kinds: { notes: ['*.md'] } });
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => e.pointer).sort()).toEqual(['/kinds/notes', '/recal', '/recall/limt']);
  });

  test('rejects wrong types and enum values', () => {
    const r = validateConfig({
      version: 2,
      layout: 'obsidian',
      ignore: 'x',
      dedupe: { jaccard: 1.5 },
      index: { dir: 3 },
    });
    expect(r.errors.map((e) => e.pointer).sort()).toEqual([
      '/dedupe/jaccard',
      '/ignore',
      '/index/dir',
      '/layout',
      '/version',
    ]);
  });

  test('rejects a non-object', () => {
    expect(validateConfig([]).errors.map((e) => e.pointer)).toEqual(['']);
    expect(validateConfig(null).ok).toBe(false);
  });

  test('covers every key of MemoryConfig', () => {
    const props = Object.keys((SCHEMAS.config as { properties: object }).properties).filter((k) => k !== '$schema');
    expect(props.sort()).toEqual(Object.keys(DEFAULT_CONFIG).sort());
  });
});

describe('the published schemas', () => {
  test('each is a valid JSON Schema (the run-time validators skip this meta-schema check)', async () => {
    const { Ajv } = await import('ajv');
    const ajv = new Ajv({ strict: false, logger: false });
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    }
    // A schema that breaks the meta-schema is caught by that check.
    expect(ajv.validateSchema({ type: 'no-such-type' })).toBe(false);
  });
});
