// service/state/state.ts on real files in temp folders: set/snapshot, optimistic concurrency (fs.conflict),
// `new` archives into today's daily note without dropping results, pre-compaction durability,
// post-turn only on change, absorb, validate merging CURRENT_STATE diagnostics, --commit.
import { validate } from '../../../src/service/validate/validate.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import {
  stateAbsorb,
  stateEndOfRun,
  stateHandoff,
  stateNew,
  statePostTurn,
  statePreCompaction,
  stateRead,
  stateSet,
  stateSnapshot,
  type StateInput,
} from '../../../src/service/state/state.js';
import type { MemoryContext } from '../../../src/service/shared/memory-context.js';
import { copyFixture, git, tempDir } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

const NOW = new Date('2026-11-27T17:00:00Z'); // 18:00 at +01:00, an hour after the demo's last update
const clock = { now: () => NOW };

async function open(
  root: string,
  options: { git?: boolean } = {},
): Promise<{ ctx: MemoryContext; where: StateInput; root: string }> {
  const memory = await openWorkspace(root, { clock });
  const where: StateInput = {
    utcOffsetMinutes: 60,
    ...(options.git ? { git: { gitdir: join(root, '.git'), workTree: root } } : {}),
  };
  return { ctx: memory.context, where, root };
}

const file = (root: string, p = 'memory/CURRENT_STATE.md') => readFileSync(join(root, p), 'utf8');

describe('state service', () => {
  it('snapshot of the demo state; set updates one field and bumps the time', async () => {
    const { ctx, where, root } = await open(copyFixture('demo'));
    const snap = await stateSnapshot(ctx, where);
    expect(snap).toMatchObject({ active: true, freshness: 'fresh', updated: '2026-11-27T16:40:00+01:00' });
    expect(snap.text).toContain('Cut p95 latency');
    const before = file(root);
    const r = await stateSet(ctx, {
      ...where,
      update: { step: 'Benchmarking the batched query', decisions: ['Batch the events query'] },
    });
    expect(r.written).toBe(true);
    expect(r.changed).toEqual(['step', 'decisions']);
    const after = file(root);
    expect(after).toContain('> Last updated: 2026-11-27T18:00:00+01:00');
    expect(after).toContain('- Batch the events query');
    // Untouched sections are byte-identical.
    for (const keep of ['## Next Action\n\nWrite a benchmark', '## Unsurfaced Results\n\n- The events table lacks']) {
      expect(before).toContain(keep);
      expect(after).toContain(keep);
    }
    expect((await stateRead(ctx, where)).hash).toBe(r.hash);
  });

  it('conflict: two writers with the same expected hash — one wins, the other gets fs.conflict and nothing is lost', async () => {
    const { ctx, where, root } = await open(copyFixture('demo'));
    const { hash } = await stateRead(ctx, where);
    const results = await Promise.allSettled([
      stateSet(ctx, { ...where, update: { next: 'A wins' }, expectedHash: hash }),
      stateSet(ctx, { ...where, update: { next: 'B wins' }, expectedHash: hash }),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const bad = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(bad).toHaveLength(1);
    expect(isMemoryError(bad[0]!.reason, 'fs.conflict')).toBe(true);
    expect(file(root)).toMatch(/## Next Action\n\n(A|B) wins\n/);

    // Another process edits the file after our read: our write with the old hash is refused.
    const { hash: h2 } = await stateRead(ctx, where);
    writeFileSync(
      join(root, 'memory/CURRENT_STATE.md'),
      file(root).replace('## Blockers\n\nNone', '## Blockers\n\n- edited by hand'),
    );
    await expect(stateSet(ctx, { ...where, update: { step: 'stale write' }, expectedHash: h2 })).rejects.toMatchObject({
      code: 'fs.conflict',
    });
    expect(file(root)).toContain('- edited by hand');
    expect(file(root)).not.toContain('stale write');

    // Without an expected hash, concurrent updates are serialised: both land.
    await Promise.all([
      stateSet(ctx, { ...where, update: { results: ['r1'] } }),
      stateSet(ctx, { ...where, update: { results: ['r2'] } }),
      stateSet(ctx, { ...where, update: { blockers: ['b1'] } }),
    ]);
    const text = file(root);
    for (const s of ['- r1', '- r2', '- b1', '- edited by hand']) expect(text).toContain(s);
  });

  it("new: archives an active state into today's daily note (append-only, every result kept), then resets", async () => {
    const root = copyFixture('demo');
    writeFileSync(join(root, 'memory/2026-11-27.md'), '# 2026-11-27\r\n\r\n- 09:00 [learning] morning note\r\n');
    const { ctx, where } = await open(root);
    await stateSet(ctx, {
      ...where,
      update: { results: ['Second result: p95 is 95 ms', 'Third result\nspanning two lines'] },
    });
    const r = await stateNew(ctx, where);
    expect(r.archived).toEqual({ path: 'memory/2026-11-27.md', results: 3 });
    const daily = file(root, 'memory/2026-11-27.md');
    expect(daily.startsWith('# 2026-11-27\r\n\r\n- 09:00 [learning] morning note\r\n')).toBe(true);
    expect(daily).toContain('## 18:00 Working state archived');
    for (const s of [
      'lacks an index on `(shipment_id, created_at)`',
      'Second result: p95 is 95 ms',
      'Third result',
      'spanning two lines',
      'Cut p95 latency',
    ]) {
      expect(daily).toContain(s);
    }
    expect(daily.replace(/\r\n/g, '')).not.toMatch(/\n/);
    const snap = await stateSnapshot(ctx, where);
    expect(snap).toEqual({
      active: false,
      freshness: 'fresh',
      updated: '2026-11-27T18:00:00+01:00',
      text: '',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(file(root)).toContain('## Objective\n\nNone');

    // A second `new` on an idle template archives nothing and leaves the daily note alone.
    const again = await stateNew(ctx, where);
    expect(again.archived).toBeNull();
    expect(file(root, 'memory/2026-11-27.md')).toBe(daily);
  });

  it('new: an idle state that still holds unsurfaced results is archived too (new daily note)', async () => {
    const root = copyFixture('demo');
    const { ctx, where } = await open(root);
    await stateSet(ctx, { ...where, update: { objective: 'None', results: ['orphan result'] } });
    expect((await stateSnapshot(ctx, where)).active).toBe(false);
    const r = await stateNew(ctx, where);
    expect(r.archived?.path).toBe('memory/2026-11-27.md');
    expect(file(root, 'memory/2026-11-27.md')).toMatch(
      /^# 2026-11-27\n\n## 18:00 Working state archived[\s\S]*- orphan result/,
    );
  });

  it('pre-compaction returns after a durable write; post-turn writes only on a substantive change', async () => {
    const { ctx, where, root } = await open(copyFixture('demo'));
    const r = await statePreCompaction(ctx, {
      ...where,
      update: { step: 'Compacting soon', results: ['keep me across compaction'] },
    });
    expect(r.written).toBe(true);
    // Read synchronously straight from disk, right after the promise resolved.
    const onDisk = file(root);
    expect(onDisk).toContain('Compacting soon');
    expect(onDisk).toContain('- keep me across compaction');
    // Even without changes pre-compaction writes (the time moves), post-turn does not.
    expect((await statePreCompaction(ctx, where)).written).toBe(true);
    const beforeTurn = file(root);
    const same = await statePostTurn(ctx, {
      ...where,
      update: { step: 'Compacting soon', results: ['KEEP me across compaction.'] },
    });
    expect(same.written).toBe(false);
    expect(file(root)).toBe(beforeTurn);
    const changed = await statePostTurn(ctx, { ...where, update: { next: 'Resume the benchmark' } });
    expect(changed).toMatchObject({ written: true, changed: ['next'] });
    const end = await stateEndOfRun(ctx, { ...where, update: { next: 'Resume the benchmark' } });
    expect(end.written).toBe(false);
  });

  it('handoff and absorb: the child gets objective/step/decisions; its results come back, nothing else changes', async () => {
    const { ctx, where, root } = await open(copyFixture('demo'));
    const seed = await stateHandoff(ctx, where);
    expect(seed.text).toContain('Cut p95 latency');
    expect(seed.text).not.toContain('lacks an index');
    const child = [
      '# Current State',
      '',
      '> Last updated: 2026-11-27T17:30:00+01:00',
      '',
      '## Objective',
      '',
      'Child: profile findWithEvents',
      '',
      '## Unsurfaced Results',
      '',
      '- The events table lacks an index on `(shipment_id, created_at)`; adding it cut the query from 85 ms to 9 ms locally.',
      '- Batched query is 4x faster',
      '',
    ].join('\n');
    const before = (await stateRead(ctx, where)).parsed.fields;
    const r = await stateAbsorb(ctx, { ...where, childText: child });
    expect(r.added).toEqual(['Batched query is 4x faster']);
    expect(r.duplicates).toHaveLength(1);
    const after = (await stateRead(ctx, where)).parsed.fields;
    expect({ ...after, results: before.results }).toEqual(before);
    expect(after.results).toHaveLength(2);
    expect(file(root)).toContain('Cut p95 latency');
    await expect(stateAbsorb(ctx, { ...where, childText: 'just text' })).rejects.toMatchObject({ code: 'usage' });
  });

  it('validate reports CURRENT_STATE problems with memory.state.* codes', async () => {
    const root = copyFixture('demo');
    writeFileSync(
      join(root, 'memory/CURRENT_STATE.md'),
      file(root)
        .replace('Profiling the carrier-status join;', 'Profiling the join\n---\n')
        .replace('2026-11-27T16:40:00+01:00', 'yesterday'),
    );
    const memory = await openWorkspace(root, { clock });
    const codes = (await validate(memory.context))
      .filter((d) => d.path === 'memory/CURRENT_STATE.md')
      .map((d) => d.code);
    expect(codes).toEqual(['memory.state.bad-timestamp', 'memory.state.setext-heading']);
    const stale = await openWorkspace(copyFixture('demo'), { clock: { now: () => new Date('2026-12-05T00:00:00Z') } });
    expect((await validate(stale.context)).map((d) => d.code)).toContain('memory.state.stale');
  });

  it('a missing CURRENT_STATE.md: snapshot is inactive, set creates it, commit checkpoints it', async () => {
    const root = join(tempDir(), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    git(root, 'init', '-q');
    const { ctx, where } = await open(root, { git: true });
    // No file yet: no hash to retry with (a first `state set` passes expectedHash: null).
    expect(await stateSnapshot(ctx, where)).toEqual({
      active: false,
      freshness: 'stale',
      updated: null,
      text: '',
      hash: null,
    });
    const r = await stateSet(ctx, {
      ...where,
      update: { objective: 'Write the MCP server' },
      expectedHash: null,
      commit: 'state: start MCP work',
    });
    expect(r.checkpoint?.kind).toBe('committed');
    expect(git(root, 'log', '--format=%s')).toContain('state: start MCP work');
    expect(file(root)).toMatch(
      /^# Current State\n\n> Last updated: 2026-11-27T18:00:00\+01:00\n\n## Objective\n\nWrite the MCP server\n/,
    );
    await expect(stateSet(ctx, { ...where, update: { step: 'x' }, expectedHash: null })).rejects.toMatchObject({
      code: 'fs.conflict',
    });
  });
});
