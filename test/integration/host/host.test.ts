// A running host answers one-shot calls (src/host/): real `gitmem watch` / `gitmem mcp` processes
// (dist/cli.cjs; `npm run build` first), real sockets, real files in temp folders. The host's answer
// equals the cold path's; a write made with plain fs is seen at once; kill -9 leaves a stale socket
// that the next call survives and the next host replaces; paths that are not our socket are never
// followed; two workspaces never answer each other's calls.
// Bad-input cases: H01, H02, H04.
import { appendFileSync, lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/fixtures.js';
import { cleanup, doctorHost, recall, repo, shape, startWatch } from '../../support/host.js';
import { startMcp } from '../../support/mcp.js';

afterEach(cleanup);

describe('one-shot calls answered by a running host', () => {
  it('gitmem watch serves recall and get with the cold JSON, sees plain fs writes at once, doctor says so', async () => {
    const root = repo({
      'memory/MEMORY.md': '# Memory\n\n- webhook retries use exponential backoff\n- deploys happen on Tuesdays\n',
      'memory/entries/2026-01-02-cache.md':
        '---\nid: cache-policy\ntype: decision\ntags: [cache]\n---\n\nCache webhook payloads for one hour.\n',
    });
    const before = doctorHost(root);
    expect(before).toMatchObject({ listening: false, path: 'cold' });
    const { ready } = await startWatch(root);
    expect(ready.host.socket).toBe(join(root, '.git', 'gitmem', 'host', 'sock'));
    // Owner-only: folder 0700, socket 0600, a socket.
    const dir = lstatSync(join(root, '.git', 'gitmem', 'host'));
    const sock = lstatSync(ready.host.socket);
    expect(dir.mode & 0o777).toBe(0o700);
    expect(sock.isSocket()).toBe(true);
    expect(sock.mode & 0o777).toBe(0o600);

    const hosted = recall(root, 'webhook retries');
    const cold = recall(root, 'webhook retries', '--no-host');
    expect(hosted.servedBy).toBe('watch');
    expect(cold.servedBy).toBeUndefined();
    expect(hosted.results.length).toBeGreaterThan(0);
    expect(shape(hosted)).toEqual(shape(cold));
    // The same with a budget (the context block) and the environment opt-out.
    const budget = recall(root, 'webhook', '--budget', '400');
    const budgetCold = runCli(['recall', 'webhook', '--dir', root, '--json', '--mode', 'keyword', '--budget', '400'], {
      env: { GITMEM_NO_HOST: '1' },
    }).json();
    expect(budget.servedBy).toBe('watch');
    expect(budgetCold.servedBy).toBeUndefined();
    expect(shape(budget)).toEqual(shape(budgetCold));

    // get: by id and by path, and the same error for an unknown id (code and exit status).
    for (const ref of ['cache-policy', 'memory/MEMORY.md:3-4']) {
      const a = runCli(['get', ref, '--dir', root, '--json']);
      const b = runCli(['get', ref, '--dir', root, '--json', '--no-host']);
      expect(a.code).toBe(0);
      expect(a.json()).toEqual(b.json());
    }
    const missA = runCli(['get', 'no-such-id', '--dir', root, '--json']);
    const missB = runCli(['get', 'no-such-id', '--dir', root, '--json', '--no-host']);
    expect(missA.code).toBe(1);
    expect([missA.code, missA.json()]).toEqual([missB.code, missB.json()]);

    // `context` and `hook prompt` from the process entry (cli/bin.ts): the host answers, same output.
    const ctxArgs = ['context', 'webhook retries', '--dir', root, '--json'];
    const ctxHosted = runCli([...ctxArgs, '--debug']);
    expect(ctxHosted.stderr).toContain('context answered by the watch host');
    expect(shape(ctxHosted.json())).toEqual(shape(runCli([...ctxArgs, '--no-host']).json()));
    const hookArgs = ['hook', 'prompt', '--prompt', 'webhook retries', '--dir', root, '--json'];
    const hookHosted = runCli(hookArgs).json();
    expect(hookHosted.servedBy).toBe('watch');
    expect(hookHosted.block).toContain('exponential backoff');
    expect(shape(hookHosted)).toEqual(shape(runCli([...hookArgs, '--no-host']).json()));

    // A write with plain fs, then at once a recall through the host: the host's own stat walk sees it.
    appendFileSync(join(root, 'memory', 'MEMORY.md'), '- the zeppelin hangar opens at dawn\n');
    const fresh = recall(root, 'zeppelin');
    expect(fresh.servedBy).toBe('watch');
    expect(fresh.results.map((r: any) => r.snippet).join('\n')).toContain('zeppelin hangar');
    writeFileSync(join(root, 'memory', 'quasar.md'), '# Quasar\n\nA brand new note about quasars.\n');
    const created = recall(root, 'quasars');
    expect(created.servedBy).toBe('watch');
    expect(created.results.map((r: any) => r.path)).toContain('memory/quasar.md');

    const h = doctorHost(root);
    expect(h).toMatchObject({ listening: true, kind: 'watch', path: 'host', reason: null });
    expect(doctorHost(root, { GITMEM_NO_HOST: '1' })).toMatchObject({ listening: true, path: 'cold' });

    // A config change the host did not load: it declines, the call runs cold and reports the same.
    writeFileSync(
      join(root, 'gitmem.config.json'),
      JSON.stringify({ version: 1, layout: 'default', model: { enabled: false }, recall: { limit: 1 } }),
    );
    const afterConfig = recall(root, 'webhook');
    expect(afterConfig.servedBy).toBeUndefined();
    expect(afterConfig.results).toHaveLength(1);
    expect(doctorHost(root)).toMatchObject({ listening: true, path: 'cold' });
  }, 120_000);

  it('kill -9 of the host: the next call falls back and succeeds; the next host replaces the stale socket', async () => {
    const root = repo({ 'memory/MEMORY.md': '# M\n\n- the lighthouse keeper logs storms\n' });
    const { child, ready } = await startWatch(root);
    expect(recall(root, 'lighthouse').servedBy).toBe('watch');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(lstatSync(ready.host.socket).isSocket()).toBe(true); // left behind
    const after = recall(root, 'lighthouse');
    expect(after.servedBy).toBeUndefined();
    expect(after.results[0].snippet).toContain('lighthouse keeper');
    expect(doctorHost(root)).toMatchObject({ listening: false, path: 'cold' });
    expect(doctorHost(root).reason).toMatch(/stale/);
    const second = await startWatch(root);
    expect(second.ready.host.socket).toBe(ready.host.socket);
    expect(recall(root, 'lighthouse').servedBy).toBe('watch');
  }, 120_000);

  it('a socket path that is a regular file or a symbolic link is never followed or served', async () => {
    const a = repo({ 'memory/MEMORY.md': '# A\n\n- apples grow in the orchard\n' });
    const b = repo({ 'memory/MEMORY.md': '# B\n\n- bananas ripen in the dark\n' });
    const fakeDir = join(b, '.git', 'gitmem', 'host');
    mkdirSync(fakeDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(fakeDir, 'sock'), 'not a socket');
    expect(recall(b, 'bananas').servedBy).toBeUndefined();
    expect(doctorHost(b).reason).toMatch(/not a socket/);
    // A host will not serve there either, and leaves the file alone.
    const watchB = await startWatch(b);
    expect(watchB.ready.host.socket).toBeNull();
    expect(watchB.ready.host.refused).toMatch(/not a socket/);
    expect(lstatSync(join(fakeDir, 'sock')).isFile()).toBe(true);
    watchB.child.kill('SIGKILL');

    // A symbolic link to a live host's socket (workspace A's): never followed.
    const { ready } = await startWatch(a);
    rmSync(join(fakeDir, 'sock'));
    symlinkSync(ready.host.socket, join(fakeDir, 'sock'));
    const viaLink = recall(b, 'bananas');
    expect(viaLink.servedBy).toBeUndefined();
    expect(viaLink.results[0].snippet).toContain('bananas');
    expect(doctorHost(b).reason).toMatch(/symbolic link/);
  }, 120_000);

  it('two workspaces never cross: each call is answered by its own workspace host or cold', async () => {
    const a = repo({ 'memory/MEMORY.md': '# A\n\n- shared word alpha-side: comets\n' });
    const b = repo({ 'memory/MEMORY.md': '# B\n\n- shared word beta-side: comets\n' });
    const wa = await startWatch(a);
    const ra = recall(a, 'comets');
    const rb = recall(b, 'comets');
    expect(ra.servedBy).toBe('watch');
    expect(rb.servedBy).toBeUndefined();
    expect(ra.results[0].snippet).toContain('alpha-side');
    expect(rb.results[0].snippet).toContain('beta-side');
    const wb = await startWatch(b);
    expect(wb.ready.host.socket).not.toBe(wa.ready.host.socket);
    expect(recall(b, 'comets').results[0].snippet).toContain('beta-side');
    expect(recall(a, 'comets').results[0].snippet).toContain('alpha-side');
    expect(doctorHost(a).pid).toBe(wa.child.pid);
    expect(doctorHost(b).pid).toBe(wb.child.pid);
  }, 120_000);

  it('gitmem mcp serves one-shot calls too, with the cold JSON, and sees what its own tools wrote', async () => {
    const root = repo({ 'memory/MEMORY.md': '# M\n\n- the observatory dome is repainted yearly\n' });
    const mcp = await startMcp(root);
    try {
      const first = await mcp.call('memory_recall', { query: 'observatory', mode: 'keyword' });
      expect(first.isError).toBe(false);
      const hosted = recall(root, 'observatory dome');
      expect(hosted.servedBy).toBe('mcp');
      expect(shape(hosted)).toEqual(shape(recall(root, 'observatory dome', '--no-host')));
      appendFileSync(join(root, 'memory', 'MEMORY.md'), '- a telescope arrives in spring\n');
      const fresh = recall(root, 'telescope');
      expect(fresh.servedBy).toBe('mcp');
      expect(fresh.results[0].snippet).toContain('telescope arrives');
      expect(doctorHost(root)).toMatchObject({ listening: true, kind: 'mcp', path: 'host' });
      // Written through the MCP server's own write path, then read by the CLI through its host.
      const rem = await mcp.call('memory_remember', {
        text: 'The planetarium projector needs a new bulb every winter.',
        type: 'learning',
      });
      expect(rem.isError).toBe(false);
      const id = rem.data.id as string;
      const viaHost = runCli(['get', id, '--dir', root, '--json']);
      const viaCold = runCli(['get', id, '--dir', root, '--json', '--no-host']);
      expect(viaHost.code).toBe(0);
      expect(viaHost.json()).toEqual(viaCold.json());
      const planetarium = recall(root, 'planetarium projector');
      expect(planetarium.servedBy).toBe('mcp');
      expect(planetarium.results[0].path).toBe(rem.data.path);
      expect(shape(planetarium)).toEqual(shape(recall(root, 'planetarium projector', '--no-host')));
    } finally {
      await mcp.close();
    }
  }, 120_000);
});
