// Bad input T16 (docs/bad-inputs.md): a recall or context call with an impossible date, an unknown
// filter or an out-of-range number is refused (exit 2, `gitmem: error:`) before the index is loaded,
// built or embedded: a fresh clone that is handed `recall --since 2026-13-45 x` is left with no
// index, no vectors. Real CLI processes, the shipped model, a fresh git repository.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, gitFixture, requireBuiltCli } from '../../support/fixtures.js';

let root: string;
let indexDir: string;
const env = () => ({ GITMEM_INDEX_DIR: indexDir });

/** What the calls left in the index folder, less the CLI's own code cache. */
const derived = () =>
  existsSync(indexDir) ? readdirSync(indexDir).filter((f) => !f.startsWith('code-cache-') && f !== '.gitignore') : [];

beforeAll(() => {
  requireBuiltCli();
  root = gitFixture('demo');
  indexDir = join(tempDir(), 'index');
});
afterAll(() => {
  rmSync(dirname(root), { recursive: true, force: true });
  rmSync(dirname(indexDir), { recursive: true, force: true });
});

const cases: Array<[string, string[], RegExp]> = [
  ['impossible --since', ['recall', '--since', '2026-13-45', 'x'], /since must be a real calendar date.*"2026-13-45"/],
  ['February 30 --until', ['recall', 'x', '--until', '2026-02-30'], /until must be a real calendar date/],
  ['since after until', ['recall', 'x', '--since', '2026-12-01', '--until', '2026-11-01'], /is after until/],
  ['--type bogus', ['recall', 'x', '--type', 'bogus'], /unknown memory type "bogus"/],
  ['in-query type:bogus', ['recall', 'x type:bogus'], /unknown memory type "bogus"/],
  ['in-query kind:bogus', ['recall', 'x kind:bogus'], /unknown kind "bogus"/],
  ['impossible --now', ['recall', 'x', '--now', '2026-02-30'], /--now must be a real date/],
  ['--limit 0', ['recall', 'x', '--limit', '0'], /--limit must be a positive integer/],
  ['--limit 2.5', ['recall', 'x', '--limit', '2.5'], /--limit must be a positive integer/],
  ['--budget 10', ['recall', 'x', '--budget', '10'], /--budget must be a whole number of bytes/],
  ['--context 99', ['recall', 'x', '--context', '99'], /--context must be a whole number of lines 0-50/],
  ['context --limit 0', ['context', 'x', '--limit', '0'], /--limit must be an integer 1-50/],
  ['context --budget abc', ['context', 'x', '--budget', 'abc'], /--budget must be a whole number of bytes/],
];

describe('bad recall and context arguments are refused before any index or model work', () => {
  it.each(cases)('%s: exit 2, a clear error, and nothing indexed or embedded', (_name, args, message) => {
    for (const json of [false, true]) {
      rmSync(indexDir, { recursive: true, force: true });
      const r = runCli([...args, ...(json ? ['--json'] : []), '--dir', root], { env: env() });
      expect(r.code).toBe(2);
      if (json) expect(r.json().error).toMatchObject({ code: 'usage', message: expect.stringMatching(message) });
      else expect(r.stderr).toMatch(new RegExp(`gitmem: error: .*${message.source}`));
      expect(r.stderr).not.toMatch(/embedding/);
      expect(derived()).toEqual([]);
    }
  });

  it('a good recall in the same clone does build the index and embed (so the checks above can fail)', () => {
    const r = runCli(['recall', 'x', '--json', '--dir', root], { env: env() });
    expect(r.code).toBe(0);
    expect(r.json().degraded).toBeNull();
    expect(derived()).toEqual(expect.arrayContaining(['manifest.json', 'vectors-manifest.json']));
  });
});
