// `gitmem state …` through the built CLI (dist/cli.cjs; `npm run build` first), on temp copies of the
// demo workspace: JSON shapes, flags, exit codes, conflict, archive, validate, handoff/absorb, commit.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, git, runCli, tempDir, gitFixture } from '../../support/fixtures.js';

const env = { TZ: 'UTC' };
const today = () => new Date().toISOString().slice(0, 10);
const stateFile = (root: string) => readFileSync(join(root, 'memory/CURRENT_STATE.md'), 'utf8');

describe('gitmem state (CLI)', () => {
  it('snapshot --json has exactly active, freshness, hash, updated, text', () => {
    const root = copyFixture('demo');
    const r = runCli(['state', 'snapshot', '--dir', root, '--json'], { env });
    expect(r.code).toBe(0);
    const j = r.json();
    // hash: what to pass as --expect-hash (T11).
    expect(Object.keys(j).sort()).toEqual(['active', 'freshness', 'hash', 'text', 'updated']);
    expect(j).toMatchObject({ active: true, updated: '2026-11-27T16:40:00+01:00' });
    expect(j.text).toContain('Cut p95 latency');
    const small = runCli(['state', 'snapshot', '--dir', root, '--json', '--max-tokens', '60'], { env }).json();
    expect(small.text.length).toBeLessThanOrEqual(60 * 4);
    expect(
      runCli(['state', 'snapshot', '--dir', root, '--stale-after', '100000', '--json'], { env }).json().freshness,
    ).toBe('fresh');
  });

  it('set: repeatable flags keep commas, clear replaces, --if-changed skips a no-op, JSON result', () => {
    const root = copyFixture('demo');
    const r = runCli(
      [
        'state',
        'set',
        '--dir',
        root,
        '--json',
        '--step',
        'Benchmark, then compare',
        '--decision',
        'Batch queries, not joins',
        '--decision',
        'Keep Redis',
        '--blocker',
        'CI is red',
        '--result',
        'p95: 95 ms',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    const j = r.json();
    expect(j).toMatchObject({
      path: 'memory/CURRENT_STATE.md',
      written: true,
      changed: ['step', 'decisions', 'blockers', 'results'],
    });
    const text = stateFile(root);
    for (const s of [
      'Benchmark, then compare',
      '- Batch queries, not joins',
      '- Keep Redis',
      '- CI is red',
      '- p95: 95 ms',
    ])
      expect(text).toContain(s);
    const cleared = runCli(['state', 'set', '--dir', root, '--json', '--clear', 'blockers'], { env }).json();
    expect(cleared.changed).toEqual(['blockers']);
    expect(stateFile(root)).toMatch(/## Blockers\n\nNone\n/);
    const noop = runCli(
      ['state', 'set', '--dir', root, '--json', '--if-changed', '--step', 'Benchmark, then compare'],
      { env },
    ).json();
    expect(noop).toMatchObject({ written: false, changed: [] });
    const human = runCli(['state', 'set', '--dir', root, '--next', 'Open the PR'], { env });
    expect(human.stdout).toMatch(/Updated memory\/CURRENT_STATE.md \(next\)/);
  });

  it('set --expect-hash with a stale hash: exit 1, fs.conflict, file untouched; bad flags are usage errors (exit 2)', () => {
    const root = copyFixture('demo');
    const before = stateFile(root);
    // A stale hash of the right form (H09: a malformed one, 'deadbeef', is a usage error, below).
    const stale = 'deadbeef'.repeat(8);
    const r = runCli(['state', 'set', '--dir', root, '--json', '--expect-hash', stale, '--step', 'x'], { env });
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('fs.conflict');
    expect(r.stderr).toMatch(/changed since it was read/);
    // T11: the hint carries the hash to retry with, and it works.
    const retry = /--expect-hash ([0-9a-f]+)/.exec(r.stderr)?.[1];
    expect(retry).toBe(r.json().error.data.actualHash);
    expect(stateFile(root)).toBe(before);
    expect(runCli(['state', 'set', '--dir', root, '--expect-hash', retry!, '--step', 'x'], { env }).code).toBe(0);
    const { hash } = runCli(['state', 'set', '--dir', root, '--json', '--step', 'y'], { env }).json();
    expect(runCli(['state', 'set', '--dir', root, '--expect-hash', hash, '--step', 'z'], { env }).code).toBe(0);
    expect(runCli(['state', 'set', '--dir', root, '--clear', 'everything'], { env }).code).toBe(2);
    expect(runCli(['state', 'set', '--dir', root, '--expect-hash', 'deadbeef', '--step', 'w'], { env }).code).toBe(2);
    expect(runCli(['state', 'snapshot', '--dir', root, '--max-tokens', '-3'], { env }).code).toBe(2);
  });

  it("new archives into today's daily note and resets; validate reports setext and bad timestamps", () => {
    const root = copyFixture('demo');
    const r = runCli(['state', 'new', '--dir', root, '--json'], { env });
    expect(r.code).toBe(0);
    expect(r.json().archived).toEqual({ path: `memory/${today()}.md`, results: 1 });
    const daily = readFileSync(join(root, `memory/${today()}.md`), 'utf8');
    expect(daily).toContain('lacks an index on `(shipment_id, created_at)`');
    expect(runCli(['state', 'snapshot', '--dir', root, '--json'], { env }).json()).toMatchObject({
      active: false,
      text: '',
    });
    // T11: idle prints nothing (a SessionStart hook injects stdout into every session).
    const idle = runCli(['state', 'snapshot', '--dir', root], { env });
    expect(idle.code).toBe(0);
    expect(idle.stdout).toBe('');
    expect(runCli(['state', 'snapshot', '--dir', root, '--json'], { env }).json().hash).toMatch(/^[0-9a-f]{8,}/);

    writeFileSync(
      join(root, 'memory/CURRENT_STATE.md'),
      '# Current State\n\n> Last updated: last tuesday\n\n## Objective\n\nShip it\n---\n\n## Current Step\n\nNone\n',
    );
    const v = runCli(['state', 'validate', '--dir', root, '--json'], { env });
    expect(v.code).toBe(0); // warnings only
    const codes = v.json().diagnostics.map((d: any) => d.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'memory.state.bad-timestamp',
        'memory.state.setext-heading',
        'memory.state.missing-section',
      ]),
    );
    // The whole-workspace validate carries them too.
    const all = runCli(['validate', '--dir', root, '--json'], { env })
      .json()
      .diagnostics.map((d: any) => d.code);
    expect(all).toContain('memory.state.setext-heading');
    // The underlined objective still reads as the objective.
    expect(runCli(['state', 'snapshot', '--dir', root, '--json'], { env }).json().text).toContain('Objective: Ship it');
  });

  it("handoff prints the seed; absorb brings a child's results back", () => {
    const root = copyFixture('demo');
    const seed = runCli(['state', 'handoff', '--dir', root], { env });
    expect(seed.stdout).toContain('Objective: Cut p95 latency');
    expect(seed.stdout).not.toContain('lacks an index');
    const child = join(tempDir(), 'CHILD_STATE.md');
    writeFileSync(
      child,
      '# Current State\n\n> Last updated: 2026-11-27T17:00:00Z\n\n## Objective\n\nchild\n\n## Unsurfaced Results\n\n- Child found a second N+1 in `loadCarriers`\n',
    );
    const r = runCli(['state', 'absorb', child, '--dir', root, '--json'], { env });
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      added: ['Child found a second N+1 in `loadCarriers`'],
      written: true,
      changed: ['results'],
    });
    expect(stateFile(root)).toContain('- Child found a second N+1 in `loadCarriers`');
    expect(runCli(['state', 'absorb', child, '--dir', root], { env }).stdout).toMatch(/Nothing new to absorb/);
    expect(runCli(['state', 'absorb', join(root, 'nope.md'), '--dir', root], { env }).code).toBe(1);
  });

  it('set --commit checkpoints the memory in a git repository', () => {
    const root = gitFixture('demo');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'initial');
    const r = runCli(
      ['state', 'set', '--dir', root, '--json', '--step', 'Committed step', '--commit', '-m', 'state: committed step'],
      {
        env: { ...env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com' },
      },
    );
    expect(r.code).toBe(0);
    expect(r.json().checkpoint.kind).toBe('committed');
    expect(git(root, 'log', '-1', '--format=%s').trim()).toBe('state: committed step');
    expect(git(root, 'status', '--porcelain').trim()).toBe('');
  });
});
