// ACE CLI commands through the built dist/cli.cjs (npm run build first) on a temp copy of the demo
// workspace in a real git repository: complete-task from a file and from stdin, playbook and its
// history, tags, files, context, recall --agent, dream → promote / reject, and usage errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git, runCli, initRepoOnMain } from '../../support/fixtures.js';
import { writeRepeatedLesson } from '../../support/dream-workspace.js';
import { modelDir } from '../../support/model.js';

let root: string;
let env: Record<string, string>;
const cli = (args: string[], input?: string) =>
  runCli(['--dir', root, ...args], { cwd: root, env, ...(input !== undefined ? { input } : {}) });

const TASK = {
  goal: 'Fix the flaky BullMQ retry test in the notifications queue',
  result:
    "The test used Jest fake timers, which freeze BullMQ's internal clock, so the delayed retry job never became due. Switched to jest.useRealTimers() and it passes now.",
  feedback: 'Good. Always use real timers in queue tests.',
  agent: 'claude-code',
  tool_usage: [
    { tool_name: 'Read', arguments: { file_path: 'test/queues/notify.test.ts', offset: 5, limit: 10 } },
    { tool_name: 'Edit', arguments: { file_path: 'test/queues/notify.test.ts' } },
  ],
};

beforeAll(() => {
  env = { GITMEM_MODEL_DIR: modelDir() };
  root = copyFixture('demo');
  initRepoOnMain(root);
});

describe('gitmem ACE commands (dist/cli.cjs)', () => {
  it('complete-task --input file, then the same task on stdin is a duplicate', () => {
    writeFileSync(join(root, '..', 'task.json'), JSON.stringify(TASK));
    const r = cli(['--json', 'complete-task', '--input', join(root, '..', 'task.json')]);
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res).toMatchObject({
      status: 'created',
      type: 'error_fix',
      filesLinked: [{ path: 'test/queues/notify.test.ts', relation: 'modified', lines: [5, 14] }],
    });
    expect(res.relatedPlaybook.map((p: { id: string }) => p.id)).toContain('test-queues-with-real-timers');
    expect(git(root, 'rev-parse', 'HEAD').trim()).toBe(res.commit);
    expect(git(root, 'log', '-1', '--format=%B', res.commits[0])).toContain('Memory-Kind: entry');

    const again = cli(['--json', 'complete-task'], JSON.stringify(TASK));
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ status: 'duplicate', duplicateOf: res.memoryId, commit: null });

    const human = cli(
      ['complete-task', '--input', '-'],
      JSON.stringify({
        ...TASK,
        goal: 'Decide which queue library to use',
        result: 'Chose BullMQ over Agenda because we already run Redis.',
        tool_usage: [],
      }),
    );
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/memory\s+2\d{3}-\d\d-\d\d-decide-which-queue-library-to-use \[decision\]/);
  });

  it('playbook, playbook --history with filters, tags, files, context, recall --agent', () => {
    const pb = cli(['--json', 'playbook', '--category', 'testing']);
    expect(pb.code).toBe(0);
    expect(pb.json().entries.map((e: { id: string }) => e.id)).toEqual(['test-queues-with-real-timers']);
    expect(
      cli(['--json', 'playbook', '--tag', 'security'])
        .json()
        .entries.map((e: { id: string }) => e.id),
    ).toEqual(['verify-webhooks-before-parsing']);

    const hist = cli([
      '--json',
      'playbook',
      '--history',
      '--agent',
      'claude-code',
      '--op',
      'update',
      '--since',
      '2000-01-01',
    ]);
    expect(hist.code, hist.stderr).toBe(0);
    expect(hist.json().history.map((h: { id: string }) => h.id)).toContain('test-queues-with-real-timers');
    expect(cli(['--json', 'playbook', '--history', '--since', '2999-01-01']).json().history).toEqual([]);

    const tags = cli(['--json', 'tags']).json().tags;
    expect(tags.find((t: { tag: string }) => t.tag === 'bullmq')).toMatchObject({ entries: 2, playbook: 1, count: 3 });

    const files = cli(['--json', 'files', 'test/queues/notify.test.ts']).json();
    expect(files.counts).toMatchObject({ memories: 1, playbook: 1 });

    const ctx = cli(['--json', 'context', 'postgres', 'connection', 'pool', 'exhausted']).json();
    expect(ctx.files[0].path).toBe('src/db/pool.ts');
    const text = cli(['context', 'queue tests with timers']);
    expect(text.stdout).toContain('test-queues-with-real-timers');

    const mine = cli(['--json', 'recall', 'BullMQ fake timers', '--kind', 'entry', '--agent', 'claude-code']).json();
    expect(mine.results.length).toBeGreaterThan(0);
    expect(
      cli(['--json', 'recall', 'BullMQ fake timers', '--kind', 'entry', '--agent', 'codex'])
        .json()
        .results.map((r: { path: string }) => r.path),
    ).not.toContain(mine.results[0].path);
  });

  it('dream writes proposals; promote prints the diff and commits; reject marks it', () => {
    writeRepeatedLesson(root);
    const d = cli(['--json', 'dream']);
    expect(d.code, d.stderr).toBe(0);
    const props = d.json().proposals as Array<{ id: string; kind: string; evidence: Array<{ path: string }> }>;
    const promo = props.find(
      (p) => p.kind === 'promotion' && p.evidence.some((e) => e.path === 'memory/2026-11-28.md'),
    )!;
    expect(promo).toBeDefined();
    expect(readFileSync(join(root, 'memory/DREAMS.md'), 'utf8')).toContain(promo.id);

    const p = cli(['promote', promo.id]);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).toContain('+++ b/memory/MEMORY.md');
    expect(p.stdout).toContain(`${promo.id} promoted in `);
    expect(readFileSync(join(root, 'memory/MEMORY.md'), 'utf8')).toMatch(
      /## Promoted\n\n- .*staging database restarts/,
    );

    const other = props.find((x) => x.id !== promo.id)!;
    const r = cli(['--json', 'reject', other.id, '--reason', 'keep it']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ id: other.id, status: 'rejected' });
    expect(cli(['promote', other.id]).code).toBe(1); // already decided: not a usage error (T11)
    expect(cli(['promote', 'd-00000000']).code).toBe(1); // entry.not-found
  });

  it('B-ACE3 usage errors: bad JSON, missing fields, history filters without --history', () => {
    const bad = cli(['--json', 'complete-task', '--input', '-'], '{not json');
    expect(bad.code).toBe(2);
    expect(bad.json().error.code).toBe('usage');
    expect(cli(['complete-task', '--input', '-'], '{"goal":"x"}').code).toBe(2);
    expect(cli(['complete-task', '--input', '-'], '{"goal":"x","result":"y","tool_usage":{}}').code).toBe(2);
    expect(cli(['playbook', '--agent', 'x']).code).toBe(2);
    expect(cli(['playbook', '--history', '--since', 'yesterday']).code).toBe(2);
  });
});
