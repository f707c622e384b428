// H07: `--dir` naming a file instead of a folder. Before: the process entry's code-cache lookup
// stat'ed `<file>/.gitmem` and died with a Node stack trace (ENOTDIR, exit 1) on every command; past
// that, the CLI walked the file as an unreadable folder ("No problems found", exit 0), writes failed
// with a raw ENOTDIR, and `init` was an internal error (EEXIST, exit 3). Now every command refuses
// it with `workspace.not-found` ("workspace is not a folder"), one line and a hint, exit 1, and the
// prompt hook still prints nothing and exits 0. Real CLI processes.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/fixtures.js';

describe('H07 --dir that names a file', () => {
  const root = tempDir();
  const file = join(root, 'notes.md');
  writeFileSync(file, '# not a folder\n');

  it('is refused by every command with workspace.not-found, no stack trace, nothing written', () => {
    const calls = [
      ['doctor'],
      ['recall', 'x'],
      ['get', 'x'],
      ['validate'],
      ['index'],
      ['remember', 'a fact'],
      ['append', 'a bullet'],
      ['state', 'snapshot'],
      ['init'],
      ['mcp'],
    ];
    for (const args of calls) {
      const r = runCli([...args, '--dir', file, '--json']);
      const what = `${args.join(' ')}: ${r.stderr}`;
      expect(r.code, what).toBe(1);
      expect(r.stderr, what).not.toMatch(/node:fs|\n\s+at /);
      expect(r.json().error, what).toMatchObject({
        code: 'workspace.not-found',
        message: `workspace is not a folder: ${file}`,
      });
    }
    expect(readFileSync(file, 'utf8')).toBe('# not a folder\n');
    expect(readdirSync(root)).toEqual(['notes.md']);
  });

  it('keeps the prompt hook silent (exit 0) and reports a missing folder below the file as not found', () => {
    const hook = runCli(['hook', 'prompt', '--prompt', 'x', '--dir', file]);
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stdout).toBe('');
    const below = runCli(['doctor', '--dir', join(file, 'sub'), '--json']);
    expect(below.code, below.stderr).toBe(1);
    expect(below.json().error.code).toBe('workspace.not-found');
  });

  it('still opens a real folder given the same way', () => {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const r = runCli(['init', '--dir', ws, '--json']);
    expect(r.code, r.stderr).toBe(0);
  });
});
