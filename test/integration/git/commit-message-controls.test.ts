// Bad input B57 (docs/bad-inputs.md): a memory file named with a terminal escape sequence. gitmem
// shows such names as symbols on its own lines (B48), but a checkpoint wrote the name raw into the
// commit's summary and Memory-Path trailer, and `git log` prints messages raw: the escape ran in the
// terminal of whoever read the history. Now the message holds no control character (the name is a
// JSON string literal there) and gitmem's own `log` still reads the real path back. Real CLI
// processes and a real git repository.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, git, runCli, noModelEnv } from '../../support/fixtures.js';

const NAME = 'memory/evil\u001b[2J\u001b]0;owned\u0007.md';
let root: string;
const env = () => noModelEnv(root);

beforeAll(() => {
  root = committedFixture('demo');
  writeFileSync(join(root, NAME), '- a note under an evil name\n');
});
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('B57: a file name with control characters in a checkpoint commit', () => {
  it('never reaches the commit message raw, and gitmem log reads the real path back', () => {
    const cp = runCli(['checkpoint', '--json', '--dir', root, '--reason', 'why \u001b[31mred'], { env: env() });
    expect(cp.code).toBe(0);
    expect(cp.json().changes.added).toEqual([NAME]);
    const message = git(root, 'log', '-1', '--format=%B');
    // eslint-disable-next-line no-control-regex -- asserting that no control character is left
    expect(message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(message).toContain(`Memory-Path: ${JSON.stringify(NAME)}`);
    const log = runCli(['log', '--json', '--dir', root, NAME], { env: env() });
    expect(log.code).toBe(0);
    const commits = log.json().commits as { files: { path: string }[] }[];
    expect(commits.length).toBe(1);
    expect(commits[0]!.files.map((f) => f.path)).toEqual([NAME]);
  });
});
