// A host answers a recall without its own stat walk when the caller's listing shows nothing changed
// (issue #14): the process entry lists the workspace with find (platform/listing-prefetch.ts; forced
// on here with GITMEM_LISTING=on, since these workspaces are small) and sends the listing's digest
// with the request; the host checks it against the digest recorded after its last clean walk
// (engine/freshness/walk-digest.ts). Real `gitmem watch` with --debug (its stderr says "no walk"), real
// sockets, real files; a same-size rewrite and a new file are seen at once all the same.
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, recallEnv, repo, shape, startWatch } from '../../support/host.js';

afterEach(cleanup);

const MEMORY = '# Memory\n\n- webhook retries use exponential backoff\n- deploys happen on Tuesdays\n';

describe("a host given the caller's listing", () => {
  it('answers without walking when nothing changed, and walks when the listing changed', async () => {
    const root = repo({ 'memory/MEMORY.md': MEMORY });
    // Older than the racy window, so the host's first walk trusts its stat key and records the listing.
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(root, 'memory', 'MEMORY.md'), old, old);
    const digest = join(root, '.git', 'gitmem', 'walk-digest.json');
    const w = await startWatch(root, {}, ['--debug']);
    rmSync(digest, { force: true });
    const count = () => w.stderr().split('no walk:').length - 1;
    // The CLI runs with spawnSync, so the host's stderr is read once this test awaits again. The host
    // writes its debug line (a synchronous pipe write) before it answers, so when a call has returned
    // its line is in the pipe: one turn of the event loop (its I/O phase, then setImmediate) reads it.
    // A count still short after that waits for the stderr 'data' events that bring it.
    const noWalks = async (expected: number) => {
      await new Promise((r) => setImmediate(r));
      const err = w.child.stderr!;
      await new Promise<void>((resolve) => {
        const check = () => {
          if (count() < expected) return;
          err.off('data', check);
          resolve();
        };
        err.on('data', check);
        check();
      });
      return count();
    };
    const listing = { GITMEM_LISTING: 'on' };

    // First call: nothing recorded for this index yet, so the host walks, then records the caller's listing.
    const first = recallEnv(root, 'webhook retries', listing);
    expect(first.servedBy).toBe('watch');
    expect(first.results.length).toBeGreaterThan(0);
    expect(existsSync(digest)).toBe(true);
    expect(await noWalks(0)).toBe(0);

    // Nothing changed: the same listing, no walk, the same answer.
    const second = recallEnv(root, 'webhook retries', listing);
    expect(second.servedBy).toBe('watch');
    expect(await noWalks(1)).toBe(1);
    expect(shape(second)).toEqual(shape(first));

    // A same-size rewrite: the listing differs (mtime, ctime), so the host walks and sees the new text.
    const rewritten = MEMORY.replace('exponential backoff', 'zeppelin hangars up');
    expect(rewritten.length).toBe(MEMORY.length);
    writeFileSync(join(root, 'memory', 'MEMORY.md'), rewritten);
    const fresh = recallEnv(root, 'zeppelin', listing);
    expect(fresh.servedBy).toBe('watch');
    expect(fresh.results.map((r: any) => r.snippet).join('\n')).toContain('zeppelin hangars');
    expect(await noWalks(1)).toBe(1);

    // A new file: seen at once.
    writeFileSync(join(root, 'memory', 'quasar.md'), '# Quasar\n\nA brand new note about quasars.\n');
    const created = recallEnv(root, 'quasars', listing);
    expect(created.servedBy).toBe('watch');
    expect(created.results.map((r: any) => r.path)).toContain('memory/quasar.md');

    // Without a listing (GITMEM_LISTING=off) the host walks as before.
    const walks = await noWalks(0);
    const plain = recallEnv(root, 'quasars', { GITMEM_LISTING: 'off' });
    expect(plain.servedBy).toBe('watch');
    expect(await noWalks(walks)).toBe(walks);
  }, 120_000);
});
