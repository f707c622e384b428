// Bad input R36 (docs/bad-inputs.md): stdout that refuses writes (a full disk: `> /dev/full`
// gives ENOSPC; a failing device gives EIO) is not a reader that went away (EPIPE). The output is
// lost, so the call did not do what was asked: a one-shot read (recall, get) exited 0 with nothing
// printed, and every other command crashed with an uncaught stack trace. Now each ends with a one-line
// error on stderr and exit 1 (or its own non-zero status), and a writing command still finishes its write.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, git, gitFixture, requireBuiltCli } from '../../support/fixtures.js';

const FULL = '/dev/full';
let ws: string;
beforeAll(() => {
  requireBuiltCli();
  ws = gitFixture('demo');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'initial');
});
afterAll(() => rmSync(dirname(ws), { recursive: true, force: true }));

/** Run the CLI with stdout opened on /dev/full (every write fails with ENOSPC). */
function intoFullDisk(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync('bash', ['-c', `exec "$0" "$@" >${FULL}`, process.execPath, CLI, ...args, '--dir', ws], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com' },
    timeout: 120_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe.runIf(existsSync(FULL))('stdout on a full disk', () => {
  it.each([
    [['recall', 'webhook', '--mode', 'keyword', '--no-host']],
    [['recall', 'webhook', '--mode', 'keyword', '--json', '--no-host']],
    [['get', 'memory/MEMORY.md', '--no-host']],
    [['validate']],
    [['log']],
    [['tags']],
  ])('%j exits 1 with a one-line error, no stack trace', (args) => {
    const r = intoFullDisk(args);
    expect(r.stderr).toMatch(/gitmem: error: could not write the output.*ENOSPC/);
    expect(r.stderr).not.toMatch(/at .*\.c?js:\d+|internal error|Unhandled/);
    expect(r.status).toBe(1);
  });

  it('remember still writes its entry, then exits 1 because its report was lost', () => {
    const entries = join(ws, 'memory/entries');
    const before = existsSync(entries) ? readdirSync(entries).length : 0;
    const r = intoFullDisk(['remember', 'The stork queue drains every 5 minutes', '--type', 'decision']);
    expect(r.stderr).not.toMatch(/at .*\.c?js:\d+|internal error|Unhandled/);
    expect(r.status).toBe(1);
    expect(readdirSync(entries).filter((f) => f.includes('stork'))).toHaveLength(1);
    expect(readdirSync(entries).length).toBe(before + 1);
  });
});
