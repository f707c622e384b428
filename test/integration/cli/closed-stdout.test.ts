// Bad input T08 (docs/bad-inputs.md): stdout closed by the reader (`gitmem recall x | head -1`,
// `| true`) ends the command quietly — no stack trace, no error exit — for recall, log and checkpoint.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, git, gitFixture, requireBuiltCli } from '../../support/fixtures.js';

let ws: string;
beforeAll(() => {
  requireBuiltCli();
  ws = gitFixture('demo');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'initial');
});
afterAll(() => rmSync(dirname(ws), { recursive: true, force: true }));

/** Run the CLI with its stdout piped into a reader that exits at once. @returns exit status and stderr. */
function intoClosedPipe(args: string[]): { status: number; stderr: string } {
  const err = join(dirname(ws), `stderr-${args[0]}`);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const r = spawnSync(
    'bash',
    [
      '-c',
      `${q(process.execPath)} ${q(CLI)} ${args.map(q).join(' ')} --dir ${q(ws)} 2>${q(err)} | true; echo "\${PIPESTATUS[0]}"`,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com' },
      timeout: 60_000,
    },
  );
  return { status: Number(r.stdout.trim()), stderr: readFileSync(err, 'utf8') };
}

describe('a closed stdout', () => {
  it.each([
    [['recall', 'webhook', '--mode', 'keyword']],
    [['recall', 'webhook', '--mode', 'keyword', '--json']],
    [['log']],
  ])('%j ends quietly with exit 0', (args) => {
    const r = intoClosedPipe(args);
    expect(r.stderr).not.toMatch(/EPIPE|at .*\.js:\d+|internal error/);
    expect(r.status).toBe(0);
  });

  it('checkpoint still commits, then ends quietly', () => {
    appendFileSync(join(ws, 'memory/MEMORY.md'), '- a fact for the closed-pipe checkpoint\n');
    const head = git(ws, 'rev-parse', 'HEAD');
    const r = intoClosedPipe(['checkpoint']);
    expect(r.stderr).not.toMatch(/EPIPE|at .*\.js:\d+|internal error/);
    expect(r.status).toBe(0);
    expect(git(ws, 'rev-parse', 'HEAD')).not.toBe(head);
  });
});
