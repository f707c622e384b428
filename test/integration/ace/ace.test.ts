// ACE service over temp copies of fixtures/workspaces/demo inside real git repositories, with the
// real ONNX model (hybrid recall): complete-task writes a typed, linked entry, adds its id to a
// related playbook entry's `supporting`, commits with trailers; the same task again is a duplicate;
// dream proposes a promotion for a fact repeated across daily notes and promote applies it as a diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { completeTask } from '../../../src/service/ace/complete-task.js';
import { dream, promoteProposal, rejectProposal } from '../../../src/service/ace/dream-proposals.js';
import {
  fileKnowledge,
  listPlaybookEntries,
  listTags,
  playbookHistory,
  taskContext,
} from '../../../src/service/ace/knowledge-queries.js';
import { createMemory, type Memory } from '../../../src/service/memory.js';
import { copyFixture, git, tempDir, initRepoOnMain } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';
import { recall } from '../../../src/service/recall/recall.js';

const NOW = new Date('2026-11-29T14:00:00Z');
const PINNED = { seconds: 1_796_047_200, timezoneOffset: 0 };
const AUTHOR = { name: 'Agent', email: 'agent@example.com' };

/** The queue-test task: a fix that touches a test file and relates to `test-queues-with-real-timers`. */
export const QUEUE_TASK = {
  goal: 'Fix the flaky BullMQ retry test in the notifications queue',
  result:
    "The test used Jest fake timers, which freeze BullMQ's internal clock, so the delayed retry job never became due. " +
    'Switched the file to jest.useRealTimers() and the test passes now.',
  feedback: "Good. Always use real timers in queue tests; never mock BullMQ's clock with fake timers.",
  agent: 'claude-code',
  session: 's-1',
  task: 'T-77',
  tool_usage: [
    {
      tool_name: 'Grep',
      arguments: { pattern: 'useFakeTimers', path: 'test' },
      result:
        'test/queues/notify.test.ts:12:  jest.useFakeTimers();\ntest/queues/digest.test.ts:8:  jest.useFakeTimers();',
    },
    { tool_name: 'Read', arguments: { file_path: 'test/queues/notify.test.ts', offset: 1, limit: 80 } },
    {
      tool_name: 'Edit',
      arguments: {
        file_path: 'test/queues/notify.test.ts',
        old_string: 'jest.useFakeTimers();',
        new_string: 'jest.useRealTimers();',
      },
    },
    {
      tool_name: 'Bash',
      arguments: { command: 'npx jest test/queues/notify.test.ts' },
      result: 'PASS test/queues/notify.test.ts',
    },
  ],
};

let model: string;
beforeAll(() => {
  model = modelDir();
});

const opened: Memory[] = [];
afterEach(async () => {
  for (const m of opened.splice(0)) await m.dispose();
});

async function open(root: string): Promise<Memory> {
  const m = await createMemory({
    fs: createNodeFs(root),
    openStorage: () => createIndexStorage(join(tempDir('gitmem-ace-idx-'), 'index')),
    defaultModelDir: model,
  });
  opened.push(m);
  return m;
}

/** Demo workspace in a fresh repository with one commit. */
function demoRepo(): { root: string; where: { gitdir: string; workTree: string } } {
  const root = copyFixture('demo');
  initRepoOnMain(root);
  return { root, where: { gitdir: join(root, '.git'), workTree: root } };
}

const opts = { now: NOW, timestamp: PINNED, author: AUTHOR };

describe('completeTask', () => {
  it('writes a typed, linked entry, links it from the related playbook entry, commits with trailers; the same task again is a duplicate', async () => {
    const { root, where } = demoRepo();
    const mem = await open(root);
    const t0 = performance.now();
    const res = await completeTask(mem.context, { git: where, task: QUEUE_TASK, ...opts });
    const ms = performance.now() - t0;
    console.log(
      `complete-task (demo, real model, cold): ${ms.toFixed(0)} ms; recall ${res.recall.mode}; deltas ${res.deltas.map((d) => `${d.op}:${d.id}`).join(', ') || 'none'}`,
    );

    expect(res.status).toBe('created');
    expect(res.type).toBe('error_fix');
    expect(res.memoryId).toBe('2026-11-29-fix-the-flaky-bullmq-retry-test-in-the-notifications-queue');
    expect(res.recall.mode).toBe('hybrid');
    expect(res.filesLinked).toEqual([
      { path: 'test/queues/notify.test.ts', relation: 'modified', lines: [1, 80] },
      { path: 'test/queues/digest.test.ts', relation: 'referenced', lines: [8, 8] },
    ]);
    expect(res.tags).toEqual(expect.arrayContaining(['bullmq', 'jest', 'testing']));
    expect(res.insights.length).toBeGreaterThan(0);

    // The entry on disk.
    const entry = readFileSync(join(root, res.path), 'utf8');
    expect(entry).toContain('type: error_fix');
    expect(entry).toContain('agent: claude-code');
    expect(entry).toMatch(/path: test\/queues\/notify\.test\.ts\n\s+relation: modified/);

    // The related playbook entry now cites it.
    const related = res.relatedPlaybook.find((r) => r.id === 'test-queues-with-real-timers');
    expect(related?.supportingAdded).toBe(true);
    const pb = readFileSync(join(root, 'memory/playbook/test-queues-with-real-timers.md'), 'utf8');
    expect(pb).toContain(`supporting: [${res.memoryId}]`);

    // Commits: entry, then the supporting link, then one per delta; trailers name op, kind, id.
    expect(res.commit).not.toBeNull();
    expect(res.commits.length).toBe(2 + res.deltas.length);
    const log = git(root, 'log', '--format=%H%n%B%n----', `-${res.commits.length}`);
    expect(log).toContain(`Memory-Op: add\nMemory-Kind: entry\nMemory-Id: ${res.memoryId}`);
    expect(log).toContain('Memory-Op: update\nMemory-Kind: playbook\nMemory-Id: test-queues-with-real-timers');
    expect(log).toContain('Memory-Agent: claude-code');
    expect(git(root, 'rev-parse', 'HEAD').trim()).toBe(res.commit);
    expect(git(root, 'status', '--porcelain').trim()).toBe('');

    // Recall --agent finds it; another agent does not.
    const byAgent = await recall(mem.context, 'fake timers BullMQ clock', { agent: 'claude-code', kinds: ['entry'] });
    expect(byAgent.results.map((r) => r.entry?.id)).toContain(res.memoryId);
    const other = await recall(mem.context, 'fake timers BullMQ clock', { agent: 'codex', kinds: ['entry'] });
    expect(other.results.map((r) => r.entry?.id)).not.toContain(res.memoryId);

    // Second identical task: duplicate, nothing written or committed.
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const again = await completeTask(mem.context, {
      git: where,
      task: QUEUE_TASK,
      ...opts,
      now: new Date('2026-11-30T09:00:00Z'),
    });
    expect(again.status).toBe('duplicate');
    expect(again.duplicateOf).toBe(res.memoryId);
    expect(again.commit).toBeNull();
    expect(git(root, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(
      existsSync(join(root, 'memory/entries/2026-11-30-fix-the-flaky-bullmq-retry-test-in-the-notifications-queue.md')),
    ).toBe(false);

    // Playbook history from trailers, filtered.
    const hist = await playbookHistory(mem.context, { git: where, agent: 'claude-code' });
    expect(hist.some((h) => h.id === 'test-queues-with-real-timers' && h.op === 'update')).toBe(true);
    expect(await playbookHistory(mem.context, { git: where, agent: 'nobody' })).toEqual([]);
    expect(await playbookHistory(mem.context, { git: where, op: 'delete' })).toEqual([]);

    // File knowledge for the modified test file.
    const fk = await fileKnowledge(mem.context, { path: 'test/queues/notify.test.ts' });
    expect(fk.memories.map((m) => m.id)).toEqual([res.memoryId]);
    expect(fk.playbook.map((p) => p.id)).toContain('test-queues-with-real-timers');
    expect(fk.relatedFiles).toEqual([{ path: 'test/queues/digest.test.ts', count: 1 }]);
  });

  it('outside git writes the files and returns commit null; B-ACE1 rejects a task without a goal', async () => {
    const root = copyFixture('demo');
    const mem = await open(root);
    const res = await completeTask(mem.context, {
      git: {},
      task: {
        goal: 'Decide how to store money amounts',
        result: 'Integer cents with a currency code, never floats, chosen over decimals.',
      },
      ...opts,
    });
    expect(res.status).toBe('created');
    expect(res.type).toBe('decision');
    expect(res.commit).toBeNull();
    expect(existsSync(join(root, res.path))).toBe(true);
    const err = await completeTask(mem.context, { git: {}, task: { result: 'x' }, ...opts }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'usage')).toBe(true);
  });

  it('adds a playbook entry for a new gotcha and soft-deletes an entry the feedback calls obsolete', async () => {
    const { root, where } = demoRepo();
    const mem = await open(root);
    const res = await completeTask(mem.context, {
      git: where,
      task: {
        goal: 'Rotate the staging database password',
        result: 'Rotated the password. PgBouncer keeps the old credentials cached until it is restarted.',
        feedback:
          'Never rotate database passwords without restarting PgBouncer afterwards, or connections fail for an hour. Also verify-webhooks-before-parsing is obsolete since the gateway verifies signatures now.',
        agent: 'codex',
      },
      ...opts,
    });
    expect(res.type).toBe('warning');
    const add = res.deltas.find((d) => d.op === 'add');
    expect(add).toBeDefined();
    expect(readFileSync(join(root, add!.path), 'utf8')).toContain(`supporting:\n  - ${res.memoryId}`);
    const del = res.deltas.find((d) => d.op === 'delete');
    expect(del?.id).toBe('verify-webhooks-before-parsing');
    expect(readFileSync(join(root, 'memory/playbook/verify-webhooks-before-parsing.md'), 'utf8')).toContain(
      'active: false',
    );
    const listed = await listPlaybookEntries(mem.context);
    expect(listed.map((p) => p.id)).not.toContain('verify-webhooks-before-parsing');
    expect(listed.map((p) => p.priority)).toEqual([...listed.map((p) => p.priority)].sort((a, b) => b - a));
    const deletes = await playbookHistory(mem.context, { git: where, op: 'delete', agent: 'codex' });
    expect(deletes.map((h) => h.id)).toEqual(['verify-webhooks-before-parsing']);
    const tags = await listTags(mem.context);
    expect(tags[0]!.count).toBeGreaterThanOrEqual(tags[tags.length - 1]!.count);
  });
});

describe('task context', () => {
  it('returns memories, playbook entries and recommended files', async () => {
    const root = copyFixture('demo');
    const mem = await open(root);
    const ctx = await taskContext(mem.context, { task: 'postgres connection pool exhausted during deploy' });
    expect(ctx.memories[0]?.path).toBe('memory/entries/2026-11-20-postgres-connection-pool.md');
    expect(ctx.files[0]?.path).toBe('src/db/pool.ts');
    // No playbook entry is about connection pools: unrelated guidance is not padded in.
    expect(ctx.playbook).toEqual([]);
    const hooks = await taskContext(mem.context, {
      task: 'verify the carrier webhook signature before parsing the JSON body',
    });
    expect(hooks.playbook[0]?.id).toBe('verify-webhooks-before-parsing');
  });
});

describe('dreams', () => {
  it('proposes a promotion for a fact repeated across daily notes; promote applies it as a diff and commits; reject keeps it out', async () => {
    const { root, where } = demoRepo();
    writeFileSync(
      join(root, 'memory/2026-11-27.md'),
      '# 2026-11-27\n\n- 09:00 [learning] The staging database restarts every Sunday at 03:00 UTC for maintenance.\n- 11:00 Reviewed the label printer PR.\n',
    );
    writeFileSync(
      join(root, 'memory/2026-11-28.md'),
      '# 2026-11-28\n\n- 08:30 Nightly jobs failed again: staging database restarts on Sunday at 03:00 UTC for maintenance.\n',
    );
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'notes');
    const mem = await open(root);
    const res = await dream(mem.context, { git: where, ...opts, exists: (p) => existsSync(join(root, p)) });
    const promo = res.proposals.find(
      (p) => p.kind === 'promotion' && p.evidence.some((e) => e.path === 'memory/2026-11-28.md'),
    );
    expect(promo).toBeDefined();
    expect(promo!.evidence).toEqual([
      { path: 'memory/2026-11-27.md', line: 3 },
      { path: 'memory/2026-11-28.md', line: 3 },
    ]);
    const dreams = readFileSync(join(root, 'memory/DREAMS.md'), 'utf8');
    expect(dreams).toContain(`## Proposal ${promo!.id}:`);
    expect(dreams).toContain('- evidence: memory/2026-11-27.md:3, memory/2026-11-28.md:3');
    expect(res.commit).not.toBeNull();
    // The jitter fact already has a hand-written proposal: not proposed again.
    expect(
      res.proposals.filter((p) => p.kind === 'promotion' && p.evidence.some((e) => e.path === 'memory/2026-11-24.md')),
    ).toEqual([]);
    // Entries linked to code that does not exist in this repo are proposed for archiving.
    expect(
      res.proposals.some((p) => p.kind === 'retirement' && p.title.includes('2026-11-20-postgres-connection-pool')),
    ).toBe(true);

    // A second pass proposes nothing new.
    expect(
      (await dream(mem.context, { git: where, ...opts, exists: (p) => existsSync(join(root, p)) })).proposals,
    ).toEqual([]);

    const before = readFileSync(join(root, 'memory/MEMORY.md'), 'utf8');
    const done = await promoteProposal(mem.context, { git: where, id: promo!.id, ...opts });
    expect(done.diff).toContain('+++ b/memory/MEMORY.md');
    expect(done.diff).toMatch(/\n\+- .*staging database restarts/);
    expect(done.diff).toContain(`+- status: promoted (2026-11-29)`);
    const after = readFileSync(join(root, 'memory/MEMORY.md'), 'utf8');
    expect(after.startsWith(before.trimEnd())).toBe(true);
    expect(after).toContain('## Promoted');
    expect(git(root, 'show', '--stat', '--format=%B', 'HEAD')).toContain(`memory: promote dream ${promo!.id}`);
    expect(git(root, 'status', '--porcelain').trim()).toBe('');
    // Promoting it again is a refused operation (exit 1), not a usage error.
    const again = await promoteProposal(mem.context, { git: where, id: promo!.id, ...opts }).catch((e: unknown) => e);
    expect(isMemoryError(again, 'entry.invalid')).toBe(true);

    const other = res.proposals.find((p) => p.id !== promo!.id)!;
    const rej = await rejectProposal(mem.context, { git: where, id: other.id, ...opts, reason: 'not now' });
    expect(rej.diff).toContain('+- status: rejected (2026-11-29: not now)');
    const missing = await promoteProposal(mem.context, { git: where, id: 'd-00000000', ...opts }).catch(
      (e: unknown) => e,
    );
    expect(isMemoryError(missing, 'entry.not-found')).toBe(true);
  });
});
