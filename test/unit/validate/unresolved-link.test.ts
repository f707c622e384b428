import { describe, expect, test } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';
import { unresolvedLink } from '../../../src/validate/rules/unresolved-link.js';
import { validateWorkspace } from '../../../src/validate/validate.js';
import { makeWorkspace, md } from '../../support/validate-docs.js';

const FROM = 'memory/entries/from.md';

function check(body: string, extra: Record<string, string> = {}, exists?: (p: RelPath) => boolean) {
  const ws = makeWorkspace({
    [FROM]: md(['type: decision'], body),
    'memory/entries/x.md': md(['type: learning']),
    'memory/entries/named.md': md(['id: existing-id', 'type: learning']),
    'memory/2026-11-29.md': '# 2026-11-29\n- note\n',
    'memory/MEMORY.md': '# Memory\n',
    ...extra,
  });
  return validateWorkspace(ws, { rules: [unresolvedLink], paths: [FROM as RelPath], ...(exists ? { exists } : {}) });
}

describe('unresolved-link rule', () => {
  test('[[missing-id]] is unresolved, at the link range', () => {
    const ds = check('# T\nsee [[missing-id]] here\n');
    expect(ds.map((d) => [d.code, d.severity, d.range])).toEqual([
      ['memory.link.unresolved', 'warning', range(4, 4, 4, 18)],
    ]);
    expect(ds[0]!.data).toEqual({ kind: 'wiki', target: 'missing-id' });
  });

  test('[x](./missing.md) is unresolved, at the link range', () => {
    const ds = check('# T\n\nsee [x](./missing.md).\n');
    expect(ds.map((d) => [d.code, d.range])).toEqual([['memory.link.unresolved', range(5, 4, 5, 21)]]);
    expect(ds[0]!.data).toEqual({ kind: 'markdown', target: './missing.md' });
  });

  test('[[existing-id]], [[file-slug]] and [ok](../entries/x.md) resolve', () => {
    const body = [
      '# T',
      'by id: [[existing-id]]',
      'by slug: [[x]] and [[2026-11-29]] and [[named]]',
      'with label and anchor: [[existing-id#Why|why]] [[MEMORY]]',
      'relative: [ok](../entries/x.md) [same folder](./x.md) [bare](x.md) [up](../MEMORY.md)',
      'with anchor: [a](./x.md#details) and encoded [b](../2026-11-29.md?plain=1)',
      'extensionless: [c](./x)',
      'in-page: [[#T]] [top](#t)',
    ].join('\n');
    expect(check(body)).toEqual([]);
  });

  test('URLs, mail and absolute paths are ignored', () => {
    const body = '# T\n[a](https://example.com/missing.md) [b](mailto:x@y.z) [c](/abs/missing.md) [d](vscode://x)\n';
    expect(check(body)).toEqual([]);
  });

  test('every unresolved link is reported, in order', () => {
    const ds = check('# T\n[[nope]] and [[also-nope|label]]\n[y](../entries/y.md)\n');
    expect(ds.map((d) => [d.range.start.line, d.range.start.character, (d.data as { target: string }).target])).toEqual(
      [
        [4, 0, 'nope'],
        [4, 13, 'also-nope'],
        [5, 0, '../entries/y.md'],
      ],
    );
  });

  test('a link that escapes the workspace root is unresolved', () => {
    expect(check('# T\n[z](../../../../outside.md)\n').map((d) => d.code)).toEqual(['memory.link.unresolved']);
  });

  test('links to non-markdown files are not judged without a file probe', () => {
    expect(check('# T\n[pool](../../src/db/pool.ts)\n')).toEqual([]);
  });

  test('with a file probe, links to code files resolve only when the file exists', () => {
    const exists = (p: RelPath) => p === 'src/db/pool.ts' || p === 'README.md';
    const ds = check(
      '# T\n[pool](../../src/db/pool.ts) [gone](../../src/db/gone.ts) [readme](../../README.md)\n',
      {},
      exists,
    );
    expect(ds.map((d) => (d.data as { target: string }).target)).toEqual(['../../src/db/gone.ts']);
  });

  test('a wiki link resolves once the target document appears', () => {
    const body = '# T\n[[later]]\n';
    expect(check(body)).toHaveLength(1);
    expect(check(body, { 'memory/entries/later.md': md(['type: learning']) })).toEqual([]);
  });
});
