// Bad input T11 (docs/bad-inputs.md): a usage error found by the flag parser (unknown option, a value
// outside its choices, a missing argument) is reported like every other error, `gitmem: error: …`
// with an indented hint, and exit 2.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/fixtures.js';

describe('flag-parser usage errors', { timeout: 60_000 }, () => {
  it.each([
    [['recall', '--bogus', 'x'], /unknown option '--bogus'/],
    [['recall', 'x', '--mode', 'fuzzy'], /argument 'fuzzy' is invalid/],
    [['recall'], /missing required argument 'query'/],
  ])('%j: gitmem: error: prefix, a hint line, exit 2', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^gitmem: error: /);
    expect(lines[0]).toMatch(message);
    for (const l of lines) expect(l).toMatch(/^(gitmem: (error|warning|note): | {2}hint: )/);
  });
});
