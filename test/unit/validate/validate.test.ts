import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DiagnosticCode, type Diagnostic } from '../../../src/core/diagnostics.js';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';
import { RULES, tryGetRule } from '../../../src/validate/rules/index.js';
import { affectedPaths, hasErrors, validateWorkspace } from '../../../src/validate/validate.js';
import { makeDoc, makeWorkspace, md } from '../../support/validate-docs.js';

const rel = (p: string) => p as RelPath;
const brief = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.path}:${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.code}`);

const byPath = (a: Diagnostic, b: Diagnostic) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function brokenWorkspace() {
  return makeWorkspace({
    'memory/MEMORY.md': '# Memory\n- see [[use-lunr]] and [[gone]]\n',
    'memory/entries/use-lunr.md': md(['type: decision', 'mood: calm'], '# Use lunr\n'),
    'memory/entries/dup-a.md': md(['id: dup', 'type: choice'], '# A\n'),
    'memory/entries/dup-b.md': md(['id: dup', 'type: learning', 'created: soon'], '# B\n[x](./missing.md)\n'),
    'memory/entries/bad-yaml.md': '---\ntype: [oops\n---\n# Bad\n',
    'memory/playbook/p.md': md(['category: misc'], '# P\n'),
    'memory/2026-02-30.md': '# Notes\n',
  });
}

describe('validateWorkspace', () => {
  test('a clean workspace has no diagnostics', () => {
    const ws = makeWorkspace({
      'memory/MEMORY.md': '# Memory\n- we use [[use-lunr]]\n',
      'memory/entries/use-lunr.md': md(['type: decision', 'tags: [search]', 'created: 2026-11-29'], '# Use lunr\n'),
      'memory/playbook/pin.md': md(
        ['category: dependencies', 'supporting: [use-lunr]'],
        '# Pin\n[why](../entries/use-lunr.md)\n',
      ),
      'memory/2026-11-29.md': '# 2026-11-29\n- 10:00 [decision] lunr\n',
    });
    expect(validateWorkspace(ws)).toEqual([]);
  });

  test('parse diagnostics and every rule, sorted by path, position, code', () => {
    const ds = validateWorkspace(brokenWorkspace());
    expect(brief(ds)).toEqual([
      'memory/2026-02-30.md:0:0 warning memory.daily.invalid-date',
      'memory/MEMORY.md:1:23 warning memory.link.unresolved',
      'memory/entries/bad-yaml.md:0:0 error memory.front-matter.invalid-yaml',
      'memory/entries/dup-a.md:1:0 error memory.entry.duplicate-id',
      'memory/entries/dup-a.md:2:0 error memory.schema.invalid-value',
      'memory/entries/dup-b.md:1:0 error memory.entry.duplicate-id',
      'memory/entries/dup-b.md:3:0 warning memory.schema.invalid-date',
      'memory/entries/dup-b.md:6:0 warning memory.link.unresolved',
      'memory/entries/use-lunr.md:2:0 warning memory.schema.unknown-field',
      'memory/playbook/p.md:1:0 error memory.schema.invalid-value',
    ]);
    expect(hasErrors(ds)).toBe(true);
  });

  test('`paths` limits the output, not what the rules see', () => {
    const ws = brokenWorkspace();
    const ds = validateWorkspace(ws, { paths: [rel('memory/entries/dup-b.md'), rel('memory/not-there.md')] });
    expect(brief(ds)).toEqual([
      'memory/entries/dup-b.md:1:0 error memory.entry.duplicate-id',
      'memory/entries/dup-b.md:3:0 warning memory.schema.invalid-date',
      'memory/entries/dup-b.md:6:0 warning memory.link.unresolved',
    ]);
    expect(ds[0]!.data).toEqual({ id: 'dup', others: ['memory/entries/dup-a.md'] });
    // the same diagnostics as in a full run
    const full = validateWorkspace(ws).filter((d) => d.path === 'memory/entries/dup-b.md');
    expect(ds).toEqual(full);
  });

  test('severity overrides by code and by code family; `off` drops', () => {
    const ds = validateWorkspace(brokenWorkspace(), {
      severities: {
        'memory.schema': 'hint',
        'memory.schema.invalid-value': 'warning',
        [DiagnosticCode.unresolvedLink]: 'off',
        'memory.front-matter': 'off',
      },
      paths: [rel('memory/entries/dup-a.md'), rel('memory/entries/dup-b.md'), rel('memory/entries/bad-yaml.md')],
    });
    expect(brief(ds)).toEqual([
      'memory/entries/dup-a.md:1:0 error memory.entry.duplicate-id',
      'memory/entries/dup-a.md:2:0 warning memory.schema.invalid-value',
      'memory/entries/dup-b.md:1:0 error memory.entry.duplicate-id',
      'memory/entries/dup-b.md:3:0 hint memory.schema.invalid-date',
    ]);
  });

  test('only errors make hasErrors true', () => {
    const ws = makeWorkspace({ 'memory/entries/a.md': md(['type: decision', 'extra: 1']) });
    const ds = validateWorkspace(ws);
    expect(ds.map((d) => d.code)).toEqual(['memory.schema.unknown-field']);
    expect(hasErrors(ds)).toBe(false);
    expect(hasErrors([])).toBe(false);
  });

  test('front-matter schema applies to entries and playbook only', () => {
    const ws = makeWorkspace({
      'memory/MEMORY.md': md(['whatever: 1', 'type: nonsense']),
      'memory/notes/n.md': md(['tags: 3']),
      'memory/CURRENT_STATE.md': md(['objective: x']),
    });
    expect(validateWorkspace(ws)).toEqual([]);
  });
});

describe('rule registry', () => {
  test('ids are diagnostic codes (or a code family) and every rule is documented', () => {
    const codes = new Set<string>(Object.values(DiagnosticCode));
    expect(RULES.map((r) => r.id)).toEqual([
      'memory.schema',
      'memory.entry.duplicate-id',
      'memory.entry.unlinkable-id',
      'memory.link.unresolved',
      'memory.daily.invalid-date',
      'memory.secret.suspected',
      'memory.injection.suspect',
      'memory.merge.conflict-markers',
      'memory.entry.supersession',
      'memory.entry.expired',
      'memory.load.over-budget',
      'memory.tag.unknown',
      'memory.file.same-name-forms',
      'memory.code.verified-date',
    ]);
    for (const rule of RULES) {
      expect(rule.codes.length).toBeGreaterThan(0);
      for (const c of rule.codes) {
        expect(codes.has(c)).toBe(true);
        expect(c === rule.id || c.startsWith(`${rule.id}.`)).toBe(true);
      }
      expect(rule.docs.length).toBeGreaterThan(20);
      expect(tryGetRule(rule.id)).toBe(rule);
    }
    expect(tryGetRule('nope')).toBeUndefined();
  });

  test('each rule file carries ok / not-ok examples in its header', () => {
    for (const file of ['front-matter-schema', 'duplicate-id', 'unresolved-link', 'daily-date']) {
      const src = readFileSync(new URL(`../../../src/validate/rules/${file}.ts`, import.meta.url), 'utf8');
      const header = src.slice(0, src.indexOf('\nimport '));
      expect(header, file).toMatch(/^\/\/ ok\b/m);
      expect(header, file).toMatch(/^\/\/ not ok\b/m);
    }
  });

  test('the validate layer imports only core, ajv and the schemas', () => {
    for (const file of [
      'schema',
      'validate',
      'rules/index',
      'rules/front-matter-schema',
      'rules/duplicate-id',
      'rules/unresolved-link',
      'rules/daily-date',
    ]) {
      const src = readFileSync(new URL(`../../../src/validate/${file}.ts`, import.meta.url), 'utf8');
      for (const m of src.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)) {
        const spec = m[1]!;
        const allowed =
          spec === 'ajv' ||
          spec === 'ajv-formats' ||
          /\/schemas\/[a-z-]+\.schema\.json$/.test(spec) ||
          /^\.\.?\//.test(spec);
        expect(allowed, `${file}: ${spec}`).toBe(true);
        expect(spec, `${file}: ${spec}`).not.toMatch(/\/(parse|indexes|service|cli|platform|server|git)\//);
      }
    }
  });
});

describe('affectedPaths', () => {
  test('changed docs, docs sharing their id, and docs linking to them', () => {
    const files = {
      'memory/MEMORY.md': '# M\n- [[target]] and [[other-thing]]\n',
      'memory/notes/rel.md': '# R\n[t](../entries/target.md)\n',
      'memory/notes/unrelated.md': '# U\n[[somewhere-else]]\n',
      'memory/entries/target.md': md(['type: decision'], '# T\n'),
      'memory/entries/twin.md': md(['id: target', 'type: decision'], '# Twin\n'),
    };
    const before = makeWorkspace(files);
    // An id of its own: twin.md stops being a duplicate of it, [[target]] may now resolve elsewhere.
    const after = before.withDoc(makeDoc('memory/entries/target.md', md(['id: renamed', 'type: learning'], '# T2\n')));
    expect(affectedPaths(before, after, [rel('memory/entries/target.md')])).toEqual([
      'memory/MEMORY.md',
      'memory/entries/target.md',
      'memory/entries/twin.md',
      'memory/notes/rel.md',
    ]);
  });

  test('a change that keeps kind, id and supersedes affects only the document itself', () => {
    const files = {
      'memory/MEMORY.md': '# M\n- [[target]]\n',
      'memory/entries/target.md': md(['type: decision'], '# T\n'),
      'memory/entries/twin.md': md(['id: target', 'type: decision'], '# Twin\n'),
    };
    const before = makeWorkspace(files);
    const touched = [rel('memory/entries/target.md')];
    const after = before.withDoc(makeDoc(touched[0]!, md(['type: learning'], '# T2\n[[nowhere]]\n')));
    expect(affectedPaths(before, after, touched)).toEqual(['memory/entries/target.md']);
    const kept = validateWorkspace(before).filter((d) => d.path !== touched[0]);
    const redone = validateWorkspace(after, { paths: affectedPaths(before, after, touched) });
    expect([...kept, ...redone].sort(byPath)).toEqual(validateWorkspace(after));
  });

  test('closing a supersession cycle re-validates every document on it', () => {
    const before = makeWorkspace({
      'memory/entries/a.md': md(['id: a', 'type: decision'], '# A\n'),
      'memory/entries/b.md': md(['id: b', 'type: decision', 'supersedes: [c]'], '# B\n'),
      'memory/entries/c.md': md(['id: c', 'type: decision', 'supersedes: [a]'], '# C\n'),
      'memory/entries/d.md': md(['id: d', 'type: decision'], '# D\n'),
    });
    const touched = [rel('memory/entries/a.md')];
    const after = before.withDoc(makeDoc(touched[0]!, md(['id: a', 'type: decision', 'supersedes: [b]'], '# A\n')));
    expect(affectedPaths(before, after, touched)).toEqual([
      'memory/entries/a.md',
      'memory/entries/b.md',
      'memory/entries/c.md',
    ]);
    const kept = validateWorkspace(before).filter((d) => !affectedPaths(before, after, touched).includes(d.path));
    const redone = validateWorkspace(after, { paths: affectedPaths(before, after, touched) });
    expect(redone.filter((d) => d.code === DiagnosticCode.supersessionCycle).map((d) => d.path)).toEqual([
      'memory/entries/a.md',
      'memory/entries/b.md',
      'memory/entries/c.md',
    ]);
    expect([...kept, ...redone].sort(byPath)).toEqual(validateWorkspace(after));
  });

  test('removing a document re-validates its linkers but not itself', () => {
    const before = makeWorkspace({
      'memory/MEMORY.md': '# M\n- [[gone]]\n',
      'memory/entries/gone.md': md(['type: decision']),
    });
    const gone = [rel('memory/entries/gone.md')];
    const after = before.withoutDoc(gone[0]!);
    expect(affectedPaths(before, after, gone)).toEqual(['memory/MEMORY.md']);
    expect(brief(validateWorkspace(after, { paths: affectedPaths(before, after, gone) }))).toEqual([
      'memory/MEMORY.md:1:2 warning memory.link.unresolved',
    ]);
  });

  test('an edit of the tag catalogue re-validates every tagged entry', () => {
    const before = makeWorkspace({
      'memory/tags.md': '# Tags\n\n## search\n\ncategory: tech\n',
      'memory/entries/a.md': md(['type: decision', 'tags: [search]'], '# A\n'),
      'memory/entries/b.md': md(['type: decision', 'tags: [postgres]'], '# B\n'),
      'memory/entries/c.md': md(['type: decision'], '# C\n'),
    });
    const touched = [rel('memory/tags.md')];
    const after = before.withDoc(makeDoc(touched[0]!, '# Tags\n\n## postgres\n\ncategory: tech\n'));
    expect(affectedPaths(before, after, touched)).toEqual([
      'memory/entries/a.md',
      'memory/entries/b.md',
      'memory/tags.md',
    ]);
    const kept = validateWorkspace(before).filter((d) => !affectedPaths(before, after, touched).includes(d.path));
    const redone = validateWorkspace(after, { paths: affectedPaths(before, after, touched) });
    expect(redone.filter((d) => d.code === DiagnosticCode.unknownTag).map((d) => d.path)).toEqual([
      'memory/entries/a.md',
    ]);
    expect([...kept, ...redone].sort(byPath)).toEqual(validateWorkspace(after));
  });

  test('nothing touched affects nothing', () => {
    const ws = makeWorkspace({ 'memory/MEMORY.md': '# M\n' });
    expect(affectedPaths(ws, ws, [])).toEqual([]);
  });

  test('incremental re-validation of affected paths equals a full run', () => {
    const before = brokenWorkspace();
    const touched = [rel('memory/entries/dup-b.md')];
    const after = before.withDoc(makeDoc(touched[0]!, md(['id: gone', 'type: learning'], '# B\n')));
    const kept = validateWorkspace(before).filter((d) => !affectedPaths(before, after, touched).includes(d.path));
    const redone = validateWorkspace(after, { paths: affectedPaths(before, after, touched) });
    expect([...kept, ...redone].sort(byPath)).toEqual(validateWorkspace(after));
  });
});

test('range helper sanity', () => {
  expect(range(1, 2, 3, 4)).toEqual({ start: { line: 1, character: 2 }, end: { line: 3, character: 4 } });
});
