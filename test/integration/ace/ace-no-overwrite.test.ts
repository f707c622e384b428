// Bad input U14 (docs/bad-inputs.md): complete-task creating a file where one already sits. The
// curator picks a new playbook entry's file name from its id, so a playbook file named that way but
// holding another `id:` was replaced (and committed as "playbook add"); an entry file the parsed
// workspace does not hold (saved as UTF-16, so read as binary and skipped) was replaced the same way. Every file ACE creates
// is now an exclusive create under the next free suffix. One workspace, keyword mode.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeTask } from '../../../src/service/ace/complete-task.js';
import type { Memory } from '../../../src/service/memory.js';
import { copyFixture, git, initRepoOnMain } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

const NOW = new Date('2026-12-01T10:00:00Z');
const TASK = {
  goal: 'Rotate the staging database password',
  result: 'Rotated the password. PgBouncer keeps the old credentials cached until it is restarted.',
  feedback: 'Never rotate database passwords without restarting PgBouncer afterwards, or connections fail for an hour.',
  agent: 'codex',
};
const PLAYBOOK = 'memory/playbook/never-rotate-database-passwords-without-restarting-pgbouncer.md';
const HANDBOOK =
  '---\nid: team-handbook\ncategory: workflow\ntitle: Team handbook\npriority: 3\nactive: true\n---\n\nThe handbook lives in the wiki under Engineering; read it before your first on-call shift.\n';
const ENTRY = 'memory/entries/2026-12-01-rotate-the-staging-database-password.md';
const UTF16 = Buffer.from('\uFEFF# saved as UTF-16\n\nOnly for me.\n', 'utf16le');

let root: string;
let mem: Memory;

beforeAll(async () => {
  root = copyFixture('demo');
  writeFileSync(join(root, PLAYBOOK), HANDBOOK);
  writeFileSync(join(root, ENTRY), UTF16);
  initRepoOnMain(root);
  mem = await openWorkspace(root, {
    indexDir: join(dirname(root), 'index'),
    modelDir: join(dirname(root), 'no-model'),
  });
});

afterAll(async () => {
  await mem?.dispose();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('complete-task never replaces a file it did not read as that id', { timeout: 60_000 }, () => {
  it('takes the next suffix for the entry and the new playbook entry; the old files stay as they were', async () => {
    const where = { gitdir: join(root, '.git'), workTree: root };
    const res = await completeTask(mem.context, {
      git: where,
      task: TASK,
      now: NOW,
      author: { name: 'a', email: 'a@example.com' },
    });
    expect(res.status).toBe('created');
    expect(res.path).toBe(ENTRY.replace(/\.md$/, '-2.md'));
    expect(readFileSync(join(root, ENTRY))).toEqual(UTF16);
    const add = res.deltas.find((d) => d.op === 'add')!;
    expect(add.path).toBe(PLAYBOOK.replace(/\.md$/, '-2.md'));
    expect(add.id).toBe('never-rotate-database-passwords-without-restarting-pgbouncer-2');
    expect(readFileSync(join(root, add.path), 'utf8')).toContain(`id: ${add.id}\n`);
    expect(readFileSync(join(root, PLAYBOOK), 'utf8')).toBe(HANDBOOK);
    // Nothing the user had is changed in the work tree or in a commit.
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(git(root, 'diff', '--stat', 'HEAD~' + res.commits.length, 'HEAD', '--', PLAYBOOK, ENTRY)).toBe('');
  });
});
