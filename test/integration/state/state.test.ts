// service/state/state.ts on real files in temp folders: set/snapshot, optimistic concurrency (fs.conflict),
// `new` archives into today's daily note without dropping results, pre-compaction durability,
// post-turn only on change, absorb, Memory.validate() merging CURRENT_STATE diagnostics, --commit.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createStateService, type StateService } from '../../../src/service/state/state.js';
import { copyFixture, git, tempDir } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

const NOW = new Date('2026-11-27T17:00:00Z'); // 18:00 at +01:00, an hour after the demo's last update
const clock = { now: () => NOW };

async function open(root: string, options: { git?: boolean } = {}): Promise<{ state: StateService; root: string }> {
  const memory = await openWorkspace(root, { clock });
  const state = await createStateService({
    memory,
    fs: createNodeFs(root),
    clock,
    utcOffsetMinutes: 60,
    ...(options.git ? { git: { gitdir: join(root, '.git'), workTree: root } } : {}),
  });
  return { state, root };
}

const file = (root: string, p = 'memory/CURRENT_STATE.md') => readFileSync(join(root, p), 'utf8');

describe('state service', () => {
  it('snapshot of the demo state; set updates one field and bumps the time', async () => {
    const { state, root } = await open(copyFixture('demo'));
    const snap = await state.snapshot();
    expect(snap).toMatchObject({ active: true, freshness: 'fresh', updated: '2026-11-27T16:40:00+01:00' });
    expect(snap.text).toContain('Cut p95 latency');
    const before = file(root);
    const r = await state.set({ step: 'Benchmarking the batched query', decisions: ['Batch the events query'] });
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
    expect((await state.read()).hash).toBe(r.hash);
  });

  it('conflict: two writers with the same expected hash — one wins, the other gets fs.conflict and nothing is lost', async () => {
    const { state, root } = await open(copyFixture('demo'));
    const { hash } = await state.read();
    const results = await Promise.allSettled([
      state.set({ next: 'A wins' }, { expectedHash: hash }),
      state.set({ next: 'B wins' }, { expectedHash: hash }),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const bad = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(bad).toHaveLength(1);
    expect(isMemoryError(bad[0]!.reason, 'fs.conflict')).toBe(true);
    expect(file(root)).toMatch(/## Next Action\n\n(A|B) wins\n/);

    // Another process edits the file after our read: our write with the old hash is refused.
    const { hash: h2 } = await state.read();
    writeFileSync(
      join(root, 'memory/CURRENT_STATE.md'),
      file(root).replace('## Blockers\n\nNone', '## Blockers\n\n- edited by hand'),
    );
    await expect(state.set({ step: 'stale write' }, { expectedHash: h2 })).rejects.toMatchObject({
      code: 'fs.conflict',
    });
    expect(file(root)).toContain('- edited by hand');
    expect(file(root)).not.toContain('stale write');

    // Without an expected hash, concurrent updates are serialised: both land.
    await Promise.all([
      state.set({ results: ['r1'] }),
      state.set({ results: ['r2'] }),
      state.set({ blockers: ['b1'] }),
    ]);
    const text = file(root);
    for (const s of ['- r1', '- r2', '- b1', '- edited by hand']) expect(text).toContain(s);
  });

  it("new: archives an active state into today's daily note (append-only, every result kept), then resets", async () => {
    const root = copyFixture('demo');
    writeFileSync(join(root, 'memory/2026-11-27.md'), '# 2026-11-27\r\n\r\n- 09:00 [learning] morning note\r\n');
    const { state } = await open(root);
    await state.set({ results: ['Second result: p95 is 95 ms', 'Third result\nspanning two lines'] });
    const r = await state.new();
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
    const snap = await state.snapshot();
    expect(snap).toEqual({
      active: false,
      freshness: 'fresh',
      updated: '2026-11-27T18:00:00+01:00',
      text: '',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(file(root)).toContain('## Objective\n\nNone');

    // A second `new` on an idle template archives nothing and leaves the daily note alone.
    const again = await state.new();
    expect(again.archived).toBeNull();
    expect(file(root, 'memory/2026-11-27.md')).toBe(daily);
  });

  it('new: an idle state that still holds unsurfaced results is archived too (new daily note)', async () => {
    const root = copyFixture('demo');
    const { state } = await open(root);
    await state.set({ objective: 'None', results: ['orphan result'] });
    expect((await state.snapshot()).active).toBe(false);
    const r = await state.new();
    expect(r.archived?.path).toBe('memory/2026-11-27.md');
    expect(file(root, 'memory/2026-11-27.md')).toMatch(
      /^# 2026-11-27\n\n## 18:00 Working state archived[\s\S]*- orphan result/,
    );
  });

  it('pre-compaction returns after a durable write; post-turn writes only on a substantive change', async () => {
    const { state, root } = await open(copyFixture('demo'));
    const r = await state.preCompaction({ step: 'Compacting soon', results: ['keep me across compaction'] });
    expect(r.written).toBe(true);
    // Read synchronously straight from disk, right after the promise resolved.
    const onDisk = file(root);
    expect(onDisk).toContain('Compacting soon');
    expect(onDisk).toContain('- keep me across compaction');
    // Even without changes pre-compaction writes (the time moves), post-turn does not.
    expect((await state.preCompaction()).written).toBe(true);
    const beforeTurn = file(root);
    const same = await state.postTurn({ step: 'Compacting soon', results: ['KEEP me across compaction.'] });
    expect(same.written).toBe(false);
    expect(file(root)).toBe(beforeTurn);
    const changed = await state.postTurn({ next: 'Resume the benchmark' });
    expect(changed).toMatchObject({ written: true, changed: ['next'] });
    const end = await state.endOfRun({ next: 'Resume the benchmark' });
    expect(end.written).toBe(false);
  });

  it('handoff and absorb: the child gets objective/step/decisions; its results come back, nothing else changes', async () => {
    const { state, root } = await open(copyFixture('demo'));
    const seed = await state.handoff();
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
    const before = (await state.read()).parsed.fields;
    const r = await state.absorb(child);
    expect(r.added).toEqual(['Batched query is 4x faster']);
    expect(r.duplicates).toHaveLength(1);
    const after = (await state.read()).parsed.fields;
    expect({ ...after, results: before.results }).toEqual(before);
    expect(after.results).toHaveLength(2);
    expect(file(root)).toContain('Cut p95 latency');
    await expect(state.absorb('just text')).rejects.toMatchObject({ code: 'usage' });
  });

  it('Memory.validate() reports CURRENT_STATE problems with memory.state.* codes', async () => {
    const root = copyFixture('demo');
    writeFileSync(
      join(root, 'memory/CURRENT_STATE.md'),
      file(root)
        .replace('Profiling the carrier-status join;', 'Profiling the join\n---\n')
        .replace('2026-11-27T16:40:00+01:00', 'yesterday'),
    );
    const memory = await openWorkspace(root, { clock });
    const codes = (await memory.validate()).filter((d) => d.path === 'memory/CURRENT_STATE.md').map((d) => d.code);
    expect(codes).toEqual(['memory.state.bad-timestamp', 'memory.state.setext-heading']);
    const stale = await openWorkspace(copyFixture('demo'), { clock: { now: () => new Date('2026-12-05T00:00:00Z') } });
    expect((await stale.validate()).map((d) => d.code)).toContain('memory.state.stale');
  });

  it('a missing CURRENT_STATE.md: snapshot is inactive, set creates it, commit checkpoints it', async () => {
    const root = join(tempDir(), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    git(root, 'init', '-q');
    const { state } = await open(root, { git: true });
    // No file yet: no hash to retry with (a first `state set` passes expectedHash: null).
    expect(await state.snapshot()).toEqual({ active: false, freshness: 'stale', updated: null, text: '', hash: null });
    const r = await state.set(
      { objective: 'Write the MCP server' },
      { expectedHash: null, commit: 'state: start MCP work' },
    );
    expect(r.checkpoint?.kind).toBe('committed');
    expect(git(root, 'log', '--format=%s')).toContain('state: start MCP work');
    expect(file(root)).toMatch(
      /^# Current State\n\n> Last updated: 2026-11-27T18:00:00\+01:00\n\n## Objective\n\nWrite the MCP server\n/,
    );
    await expect(state.set({ step: 'x' }, { expectedHash: null })).rejects.toMatchObject({ code: 'fs.conflict' });
  });
});
