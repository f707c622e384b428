// Bad input U59 (docs/bad-inputs.md): an option value the CLI refuses is repeated in its error as a
// quoted, escaped and shortened literal, never raw: a value with a line break and a terminal escape
// sequence (`--limit $'5\n\x1b[2J'`) used to be echoed as is, so the error spanned two lines and the
// terminal obeyed the escape. Real CLI processes over a copied fixture.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownValue } from '../../../src/core/errors.js';
import { runCli, gitFixture, requireBuiltCli } from '../../support/fixtures.js';

let root: string;
beforeAll(() => {
  requireBuiltCli();
  root = gitFixture('demo');
});
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

const hostile = '5\n\u001b[2Jgitmem: ok';
const cases: Array<[string, string[]]> = [
  ['recall --limit', ['recall', 'x', '--limit', hostile]],
  ['recall --budget', ['recall', 'x', '--budget', hostile]],
  ['recall --since', ['recall', 'x', '--since', hostile]],
  ['recall --context', ['recall', 'x', '--context', hostile]],
  ['context --limit', ['context', 'x', '--limit', hostile]],
  ['log --limit', ['log', '--limit', hostile]],
];

describe('a refused option value is shown escaped, on one line', () => {
  it.each(cases)('%s', (_name, args) => {
    const r = runCli([...args, '--dir', root]);
    expect(r.code).toBe(2);
    const line = r.stderr.split('\n').find((l) => l.startsWith('gitmem: error:'));
    expect(line).toBeDefined();
    // The value appears as a JSON literal: the break and the escape character written out.
    expect(line).toContain('"5\\n\\u001b[2Jgitmem: ok"');
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toMatch(/^gitmem: ok/m);
  });

  it('a long value is cut to 80 characters and its length said', () => {
    const long = '9'.repeat(5000) + 'x';
    const r = runCli(['recall', 'x', '--limit', long, '--dir', root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"${'9'.repeat(80)}"… (5001 chars)`);
    expect(r.stderr.length).toBeLessThan(1000);
    expect(shownValue('abc')).toBe('"abc"');
  });
});
