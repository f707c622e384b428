// Bad input U28 (docs/bad-inputs.md): complete-task resolved absolute tool paths against the `cwd`
// the task named instead of the workspace. A task with `"cwd": "/etc"` that read `/etc/passwd` linked
// the workspace file `passwd` (and `/etc/ssh/sshd_config` as `ssh/sshd_config`), and a task run in
// the sub-folder `pkg/` linked `pkg/src/a.ts` as `src/a.ts`, another file. Real CLI processes on a
// committed copy of the demo workspace; the links are read back from the entry complete-task wrote
// and committed.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, git, runCli, noModelEnv } from '../../support/fixtures.js';

let root: string;
const env = () => noModelEnv(root);
const completeTask = (task: object) =>
  runCli(['complete-task', '--dir', root, '--json'], { env: env(), input: JSON.stringify(task) });

beforeAll(() => {
  root = committedFixture('demo');
});
afterAll(() => {
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('tool paths of a task resolve against the workspace (U28)', { timeout: 90_000 }, () => {
  it('a cwd outside the workspace links none of the files there, absolute or relative', () => {
    const r = completeTask({
      goal: 'Fix the parser crash on empty input',
      result: 'Guarded the null token before the lookahead.',
      cwd: '/etc',
      tool_usage: [
        { tool_name: 'Read', arguments: { file_path: '/etc/passwd' } },
        { tool_name: 'Edit', arguments: { file_path: '/etc/ssh/sshd_config' } },
        { tool_name: 'Read', arguments: { file_path: 'hosts' } },
        { tool_name: 'Edit', arguments: { file_path: join(root, 'src', 'parser.ts') } },
      ],
    });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res.filesLinked).toEqual([{ path: 'src/parser.ts', relation: 'modified' }]);
    const entry = readFileSync(join(root, res.path), 'utf8');
    for (const leaked of ['passwd', 'sshd_config', 'hosts']) expect(entry).not.toContain(leaked);
    expect(git(root, 'show', '--stat', 'HEAD')).toContain(res.path);
  });

  it('a cwd in a sub-folder keeps that folder: absolute, relative and ../ paths', () => {
    const r = completeTask({
      goal: 'Fix the lexer crash in the pkg package',
      result: 'The lexer now returns an empty token list for empty input.',
      cwd: join(root, 'pkg'),
      tool_usage: [
        { tool_name: 'Edit', arguments: { file_path: join(root, 'pkg', 'src', 'lexer.ts') } },
        { tool_name: 'Read', arguments: { file_path: 'src/tokens.ts' } },
        { tool_name: 'Read', arguments: { file_path: '../README.md' } },
        { tool_name: 'Read', arguments: { file_path: '../../outside.md' } },
      ],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().filesLinked).toEqual([
      { path: 'pkg/src/lexer.ts', relation: 'modified' },
      { path: 'pkg/src/tokens.ts', relation: 'read' },
      { path: 'README.md', relation: 'read' },
    ]);
  });

  it('with no cwd, absolute paths under the workspace still link and others do not', () => {
    const r = completeTask({
      goal: 'Document the retry budget for webhook deliveries',
      result: 'Wrote down that deliveries retry five times with backoff.',
      tool_usage: [
        { tool_name: 'Read', arguments: { file_path: join(root, 'src', 'webhooks.ts') } },
        { tool_name: 'Read', arguments: { file_path: join(dirname(root), 'other-repo', 'src', 'x.ts') } },
      ],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().filesLinked).toEqual([{ path: 'src/webhooks.ts', relation: 'read' }]);
  });
});
