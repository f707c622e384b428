// H08: complete-task's "not valid JSON" error quoted the piped text. V8's JSON.parse message repeats
// up to a line of the input around the unexpected character, so a task file that held a credential
// printed it whole on stderr and in the --json error (where hooks and CI logs keep it), and a line
// break in the text split the error over two lines. Now the error names the character only.
// Real CLI processes on a real workspace.
import { describe, expect, it } from 'vitest';
import { copyFixture, runCli } from '../../support/fixtures.js';

describe('H08 complete-task with input that is not JSON', () => {
  const ws = copyFixture('demo');

  it('never repeats the input: no credential, one error line, the character named', () => {
    for (const [input, ch] of [
      ['AKIAIOSFODNN7EXAMPLE', 'A'],
      ['pw=hunter2hunter2\nsecond line\n', 'p'],
      ['{"goal": "x", "result": "y", "z": ghp_abcdefghijklmnopqrstuvwxyz0123456789AB}', 'g'],
    ] as const) {
      const r = runCli(['complete-task', '--no-commit', '--dir', ws, '--json'], { input });
      expect(r.code, r.stderr).toBe(2);
      const error = r.json().error as { code: string; message: string };
      expect(error.code).toBe('usage');
      expect(error.message).toBe(`the task is not valid JSON: unexpected character "${ch}"`);
      for (const leak of ['AKIA', 'hunter2', 'ghp_', 'second line']) {
        expect(r.stdout, input).not.toContain(leak);
        expect(r.stderr, input).not.toContain(leak);
      }
      expect(r.stderr.split('\n').filter((l) => l.startsWith('gitmem: error:'))).toHaveLength(1);
      expect(r.stderr).toMatch(/^gitmem: error: the task is not valid JSON: unexpected character "."\n/);
    }
  });

  it('keeps the messages that only name a position', () => {
    const cut = runCli(['complete-task', '--no-commit', '--dir', ws, '--json'], { input: '{"goal": "x"' });
    expect(cut.code).toBe(2);
    expect(cut.json().error.message).toMatch(/^the task is not valid JSON: [^"]*position \d+|end of JSON input/);
  });
});
