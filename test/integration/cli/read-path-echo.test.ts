// T18: a file named on the command line that cannot be read, echoed raw. `complete-task --input`,
// `state absorb <file>` and `merge-file` put the path into their error as typed, and complete-task and
// merge-file added Node's own message, which repeats it: a path holding a line break split the error
// into lines, the second reading like gitmem's own output (`gitmem: ok, 1 task written`), and a long
// one was printed twice whole. Now the path is shown as core/errors.ts shownValue shows every value
// (a JSON string, cut at 80 characters) with the errno code: one line. Real CLI processes.
import { describe, expect, it } from 'vitest';
import { copyFixture, runCli } from '../../support/fixtures.js';

describe('T18 an unreadable file named on the command line', () => {
  const ws = copyFixture('demo');
  const forged = 'x\ngitmem: ok, 1 task written';
  const long = 'k'.repeat(3000);

  it('is named once, on one line, as a quoted value with the errno code', () => {
    for (const args of [
      ['complete-task', '--input', forged],
      ['state', 'absorb', forged],
      ['merge-file', forged, 'b', 'c'],
    ]) {
      const r = runCli([...args, '--dir', ws]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toBe(`gitmem: error: cannot read ${JSON.stringify(forged)}: ENOENT\n`);
    }
    const cut = runCli(['complete-task', '--input', long, '--dir', ws, '--json']);
    expect(cut.code).toBe(1);
    expect(cut.json().error.message).toBe(`cannot read "${'k'.repeat(80)}"… (3000 chars): ENAMETOOLONG`);
  });
});
