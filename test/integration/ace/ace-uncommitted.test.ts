// Bad input U21 (docs/bad-inputs.md): complete-task commits each change it makes. When a related
// playbook entry already held edits nobody had committed, the call added its `supporting` link and
// committed the whole file, so the user's unreviewed line went into "memory: link … to playbook …".
// Such a file is now left as it is: the link is held back (`heldBack` says why), the entry and the
// other changes are written and committed, and the user's edit stays uncommitted. `gitmem dream`
// committed DREAMS.md whole the same way; with unreviewed edits in it the pass now refuses
// (`git.uncommitted-edits`, as promote and reject do). Keyword mode, no model.
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeTask } from '../../../src/service/ace/complete-task.js';
import { dream } from '../../../src/service/ace/dream-proposals.js';
import type { Memory } from '../../../src/service/memory.js';
import { copyFixture, git, initRepoOnMain } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

const TASK = {
  goal: 'Rotate the staging database password',
  result: 'Rotated the password. PgBouncer keeps the old credentials cached until it is restarted.',
  feedback: 'Never rotate database passwords without restarting PgBouncer afterwards, or connections fail for an hour.',
  agent: 'codex',
};
const EDIT = 'Unreviewed: always use fake timers.\n';

let root: string;
let mem: Memory;

beforeAll(async () => {
  root = copyFixture('demo');
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

describe('complete-task and files with uncommitted edits (U21)', { timeout: 60_000 }, () => {
  it('holds back the link to a related playbook entry the user is editing; nothing of theirs is committed', async () => {
    const where = { gitdir: join(root, '.git'), workTree: root };
    // Which playbook entries this task relates to, found the way the call finds them (no write).
    const probe = await completeTask(mem.context, {
      git: where,
      task: TASK,
      commit: false,
      now: new Date('2026-12-01T10:00:00Z'),
    });
    const linked = probe.relatedPlaybook.filter((r) => r.supportingAdded).map((r) => r.path);
    expect(linked.length).toBeGreaterThan(0);
    git(root, 'reset', '-q', '--hard', 'HEAD');
    git(root, 'clean', '-qfd');
    const target = linked[0]!;
    appendFileSync(join(root, target), EDIT);
    const before = readFileSync(join(root, target), 'utf8');

    const res = await completeTask(mem.context, { git: where, task: TASK, now: new Date('2026-12-01T10:00:00Z') });
    expect(res.status).toBe('created');
    const rel = res.relatedPlaybook.find((r) => r.path === target)!;
    expect(rel.supportingAdded).toBe(false);
    expect(rel.heldBack).toMatch(/uncommitted edits/);
    expect(readFileSync(join(root, target), 'utf8')).toBe(before);
    // The user's edit is still uncommitted and in no commit the call wrote.
    expect(git(root, 'status', '--porcelain', '--', target).trim()).toBe(`M ${target}`);
    for (const c of res.commits) expect(git(root, 'show', '--format=', '--name-only', c)).not.toContain(target);
    expect(git(root, 'log', '-p', '--format=', `HEAD~${res.commits.length}..HEAD`)).not.toContain('Unreviewed');
    // The entry itself is written and committed.
    expect(git(root, 'show', '--format=', '--name-only', res.commits[0]!)).toContain(res.path);
  });

  it('the dream pass refuses to commit a DREAMS.md that holds unreviewed edits; nothing is written', async () => {
    const where = { gitdir: join(root, '.git'), workTree: root };
    git(root, 'reset', '-q', '--hard', 'HEAD');
    const exists = (p: string) => existsSync(join(root, p));
    // The same pass on a clean tree would propose something (so the refusal below is not vacuous).
    const dry = await dream(mem.context, { git: where, commit: false, exists, now: new Date('2026-12-01T10:00:00Z') });
    expect(dry.proposals.length).toBeGreaterThan(0);
    git(root, 'checkout', '-q', '--', dry.path);
    appendFileSync(join(root, dry.path), '- my unreviewed note\n');
    const before = readFileSync(join(root, dry.path), 'utf8');
    const head = git(root, 'rev-parse', 'HEAD');
    await expect(
      dream(mem.context, { git: where, exists, now: new Date('2026-12-01T10:00:00Z') }),
    ).rejects.toMatchObject({
      code: 'git.uncommitted-edits',
    });
    expect(readFileSync(join(root, dry.path), 'utf8')).toBe(before);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
  });
});
