// Write-safety primitives behind the reliability harnesses: exclusive create (MemoryFs
// createTextExclusive), the cross-process per-file lock (withFileLock: stale holders broken, live ones
// waited for), daily-note appends (Memory.appendDaily: bytes kept, expected hash → fs.conflict) and
// remember never overwriting a file that took its name.
import { appendDaily } from '../../src/service/remember/daily.js';
import { remember } from '../../src/service/remember/remember.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, promises as fsp, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentHash } from '../../src/core/hash.js';
import { toRelPath } from '../../src/core/paths.js';
import { INDEX_LOCK, withRepoLock } from '../../src/git/lock.js';
import { createNodeFs } from '../../src/platform/node-fs.js';
import { tempDir } from '../support/fixtures.js';
import { openWorkspace } from '../support/memory.js';

function workspace(): string {
  const root = join(tempDir(), 'ws');
  mkdirSync(join(root, 'memory', 'entries'), { recursive: true });
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ layout: 'default', model: { enabled: false } }));
  writeFileSync(join(root, 'memory', 'MEMORY.md'), '# Memory\n');
  return root;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Counts attempts to publish a lock file whose name ends in `suffix` (lockfile.ts links a complete
 * temp file to the lock's name: one link per try) and resolves waiters on each attempt.
 */
function lockTries(suffix: string) {
  let n = 0;
  const waiters: { ok: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters])
      if (w.ok()) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const link = fsp.link.bind(fsp);
  vi.spyOn(fsp, 'link').mockImplementation(async (from, to) => {
    try {
      return await link(from, to);
    } finally {
      if (String(to).endsWith(suffix)) n++;
      check();
    }
  });
  return {
    get count() {
      return n;
    },
    /** Resolves once `ok()` holds, re-checked on every try (and by {@link recheck}). */
    until: (ok: () => boolean) => new Promise<void>((resolve) => (waiters.push({ ok, resolve }), check())),
    recheck: check,
  };
}

const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const clock = { now: () => new Date('2031-01-15T10:20:00Z') };

describe('write safety', () => {
  it('createTextExclusive publishes complete files only and never replaces an existing one', async () => {
    const root = workspace();
    const fs = createNodeFs(root);
    const p = toRelPath('memory/entries/a.md');
    expect(await fs.createTextExclusive!(p, 'first\n')).toBe(true);
    expect(await fs.createTextExclusive!(p, 'second\n')).toBe(false);
    expect(readFileSync(join(root, p), 'utf8')).toBe('first\n');
    // Many at once in one process: exactly one wins; no temp files are left.
    const q = toRelPath('memory/entries/b.md');
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => fs.createTextExclusive!(q, `writer ${i}\n`)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(readdirSync(join(root, 'memory', 'entries')).sort()).toEqual(['a.md', 'b.md']);
  });

  it('withFileLock serialises holders, breaks a lock whose process is gone, and reports a live holder as fs.conflict', async () => {
    const root = workspace();
    const fs = createNodeFs(root);
    const p = toRelPath('memory/2031-01-15.md');
    const order: string[] = [];
    const tries = lockTries('.2031-01-15.md.lock');
    await Promise.all(
      [1, 2, 3].map((i) =>
        fs.withFileLock!(p, async () => {
          order.push(`in${i}`);
          tries.recheck();
          // Hold the lock until every holder still waiting has tried it and been turned away (or,
          // were the lock broken, until another holder got in beside this one: the order check fails).
          const entered = order.filter((o) => o.startsWith('in')).length;
          const from = tries.count;
          await tries.until(
            () =>
              tries.count >= from + (3 - entered) ||
              order.filter((o) => o.startsWith('in')).length > order.filter((o) => o.startsWith('out')).length + 1,
          );
          order.push(`out${i}`);
        }),
      ),
    );
    for (let i = 0; i < order.length; i += 2) expect(order[i]!.slice(2)).toBe(order[i + 1]!.slice(3));
    const lock = join(root, 'memory', '.2031-01-15.md.lock');
    expect(existsSync(lock)).toBe(false);
    // A lock left by a killed process is broken at once.
    writeFileSync(
      lock,
      JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead', since: new Date().toISOString() }),
    );
    const t0 = Date.now();
    expect(await fs.withFileLock!(p, async () => 'ran')).toBe('ran');
    expect(Date.now() - t0).toBeLessThan(2000);
    // An unreadable lock is broken once it is old.
    writeFileSync(lock, '');
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await fs.withFileLock!(p, async () => 'ran')).toBe('ran');
    // A live holder (this very process, another token) is waited for, then reported.
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, host: hostname(), token: 'live', since: new Date().toISOString() }),
    );
    await expect(fs.withFileLock!(p, async () => 'ran', { waitMs: 100 })).rejects.toMatchObject({
      code: 'fs.conflict',
    });
  });

  it('appendDaily keeps existing bytes (BOM, CRLF), adds one bullet, and a stale expected hash is fs.conflict', async () => {
    const root = workspace();
    const memory = await openWorkspace(root, { clock });
    const a = await appendDaily(memory.context, { text: 'first note', date: '2031-01-15' });
    expect(a).toMatchObject({ path: 'memory/2031-01-15.md', created: true, line: 3 });
    const text = readFileSync(join(root, a.path), 'utf8');
    expect(text).toMatch(/^# 2031-01-15\n\n- \d\d:\d\d first note\n$/);
    expect(a.hash).toBe(contentHash(text));
    const b = await appendDaily(memory.context, {
      text: 'second\nwith a second line',
      date: '2031-01-15',
      expectedHash: a.hash,
    });
    expect(b.line).toBe(4);
    expect(readFileSync(join(root, a.path), 'utf8')).toBe(
      `${text}${text.split('\n')[2]!.slice(0, 7)} second\n  with a second line\n`,
    );
    await expect(
      appendDaily(memory.context, { text: 'late', date: '2031-01-15', expectedHash: a.hash }),
    ).rejects.toMatchObject({
      code: 'fs.conflict',
    });
    await expect(
      appendDaily(memory.context, { text: 'new', date: '2031-01-16', expectedHash: 'f'.repeat(64) }),
    ).rejects.toMatchObject({ code: 'fs.conflict' });
    await expect(appendDaily(memory.context, { text: '   ' })).rejects.toMatchObject({ code: 'usage' });
    await expect(appendDaily(memory.context, { text: 'x', date: '2031-13-45' })).rejects.toMatchObject({
      code: 'usage',
    });
    // CRLF + BOM note without a final line break: bytes kept, CRLF used for the new line.
    const crlf = '\uFEFF# 2031-01-17\r\n\r\n- 09:00 old';
    writeFileSync(join(root, 'memory', '2031-01-17.md'), crlf);
    await appendDaily(memory.context, { text: 'new', date: '2031-01-17' });
    const after = readFileSync(join(root, 'memory', '2031-01-17.md'), 'utf8');
    expect(after.startsWith(crlf)).toBe(true);
    expect(after.slice(crlf.length)).toMatch(/^\r\n- \d\d:\d\d new\r\n$/);
    // Binary note: refused, untouched.
    writeFileSync(join(root, 'memory', '2031-01-18.md'), Buffer.from([0, 1, 2]));
    await expect(appendDaily(memory.context, { text: 'x', date: '2031-01-18' })).rejects.toMatchObject({
      code: 'fs.read-failed',
    });
    await memory.dispose();
  });

  it('remember takes the next suffix when its file name is taken on disk (another writer), never overwriting', async () => {
    const root = workspace();
    const memory = await openWorkspace(root, { clock });
    // Not a parseable entry with that id (so only the disk says the name is taken).
    writeFileSync(join(root, 'memory', 'entries', '2031-01-15-shared.md'), 'someone else wrote this\n');
    const r = await remember(memory.context, { text: 'Cobalt harbor willow notes', title: 'Shared' });
    expect(r.path).toBe('memory/entries/2031-01-15-shared-2.md');
    expect(readFileSync(join(root, 'memory', 'entries', '2031-01-15-shared.md'), 'utf8')).toBe(
      'someone else wrote this\n',
    );
    const many = await Promise.all(
      ['amber fjord quartz', 'basalt kelp onyx', 'delta meadow tundra', 'ember nectar umber'].map((t) =>
        remember(memory.context, { text: t, title: 'Shared' }),
      ),
    );
    expect(new Set(many.map((m) => m.path)).size).toBe(4);
    for (const [i, t] of [
      'amber fjord quartz',
      'basalt kelp onyx',
      'delta meadow tundra',
      'ember nectar umber',
    ].entries()) {
      expect(readFileSync(join(root, many[i]!.path), 'utf8')).toContain(`\n${t}\n`);
    }
    await memory.dispose();
  });

  it("B23: an index.lock left by a killed gitmem is recovered; canonical git's (or an empty one) is not", async () => {
    const root = workspace();
    const gitdir = join(root, '.git');
    spawnSync('git', ['init', '-q'], { cwd: root });
    const lock = join(gitdir, INDEX_LOCK);
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: hostname(), at: 'x', gitmem: 'index-lock' }));
    expect(
      await withRepoLock(
        gitdir,
        async () => existsSync(lock) && JSON.parse(readFileSync(lock, 'utf8')).pid === process.pid,
      ),
    ).toBe(true);
    expect(existsSync(lock)).toBe(false);
    // Same content shape but a live process: waited for, then git.busy.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: 'x', gitmem: 'index-lock' }));
    await expect(withRepoLock(gitdir, async () => 1, { indexWaitMs: 50 })).rejects.toMatchObject({ code: 'git.busy' });
    // Canonical git's lock holds index data: never ours to remove.
    writeFileSync(lock, Buffer.from('DIRC\0\0\0\x02'));
    await expect(withRepoLock(gitdir, async () => 1, { indexWaitMs: 50 })).rejects.toMatchObject({ code: 'git.busy' });
    expect(existsSync(lock)).toBe(true);
  });
});
