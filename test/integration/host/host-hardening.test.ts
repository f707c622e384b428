// A running host, end to end with real processes (dist/cli.cjs; `npm run build` first): the language
// server over real stdio with a real LSP client answers one-shot CLI calls with the cold JSON and
// steps aside while the editor holds unsaved text; a stopped (SIGSTOP) host never holds a call past
// the client's bound and serves again once it resumes; a host never answers stale: an edit, a
// same-size rewrite, a deletion and a branch switch are seen by the very next call; a linked
// worktree of another branch is never answered by this one's host. Bad-input cases: H03, H04.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, git, runCli } from '../../support/fixtures.js';
import { cleanup, doctorHost, recall, recallEnv, repo, shape, startWatch, track } from '../../support/host.js';
import { initializeSpawned, spawnServer } from '../../support/lsp.js';

afterEach(cleanup);

const snippets = (r: any): string => r.results.map((x: any) => x.snippet).join('\n');

describe('the language server answers one-shot calls', () => {
  it('over real stdio: the cold JSON, fresh after a disk edit, cold while the editor holds unsaved text', async () => {
    const root = repo({
      'memory/MEMORY.md': '# Memory\n\n- the ferry timetable changes in April\n- invoices are sent on Fridays\n',
      'memory/entries/2026-02-01-ferry.md':
        '---\nid: ferry-policy\ntype: decision\ntags: [travel]\n---\n\nBook the early ferry for team trips.\n',
    });
    const s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], {
      cwd: root,
      env: { GITMEM_MODEL_DIR: '/nonexistent-model' },
    });
    track(s.child);
    await initializeSpawned(s, root);
    await s.inbox.until(
      () => s.inbox.logs.some((l) => l.includes('answering one-shot calls at')),
      'the host socket',
      40_000,
    );
    const sock = join(root, '.git', 'gitmem', 'host', 'sock');
    expect(s.inbox.logs.join('\n')).toContain(sock);

    const hosted = recall(root, 'ferry timetable');
    expect(hosted.servedBy).toBe('lsp');
    expect(hosted.results.length).toBeGreaterThan(0);
    expect(shape(hosted)).toEqual(shape(recall(root, 'ferry timetable', '--no-host')));
    const a = runCli(['get', 'ferry-policy', '--dir', root, '--json']);
    const b = runCli(['get', 'ferry-policy', '--dir', root, '--json', '--no-host']);
    expect([a.code, a.json()]).toEqual([b.code, b.json()]);
    expect(doctorHost(root)).toMatchObject({
      listening: true,
      kind: 'lsp',
      pid: s.child.pid,
      path: 'host',
      reason: null,
    });

    // Written on disk behind the editor's back, then at once a call: the host's stat walk sees it.
    appendFileSync(join(root, 'memory', 'MEMORY.md'), '- the lighthouse lamp is serviced monthly\n');
    const fresh = recall(root, 'lighthouse lamp');
    expect(fresh.servedBy).toBe('lsp');
    expect(snippets(fresh)).toContain('lighthouse lamp');

    // Unsaved editor text differs from disk: a cold call reads the disk, so the host steps aside.
    const uri = pathToFileURL(join(root, 'memory', 'MEMORY.md')).href;
    const disk =
      '# Memory\n\n- the ferry timetable changes in April\n- invoices are sent on Fridays\n- the lighthouse lamp is serviced monthly\n';
    await s.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text: disk },
    });
    const edited = `${disk}- an unsaved line about walruses\n`;
    await s.client.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: edited }],
    });
    // The notification is handled once the server answers a request sent after it.
    await s.client.sendRequest('gitmem/recall', { query: 'walruses', mode: 'keyword' });
    const unsaved = recall(root, 'walruses');
    expect(unsaved.servedBy).toBeUndefined();
    expect(unsaved.results).toEqual([]); // the disk has no walruses yet: the cold answer
    const why = doctorHost(root);
    expect(why).toMatchObject({ listening: true, kind: 'lsp', path: 'cold' });
    expect(why.reason).toMatch(/unsaved editor text in memory\/MEMORY.md/);

    // Saved: disk and buffer agree again, the host answers, and sees the saved line.
    writeFileSync(join(root, 'memory', 'MEMORY.md'), edited);
    await s.client.sendNotification('textDocument/didSave', { textDocument: { uri } });
    const saved = recall(root, 'walruses');
    expect(saved.servedBy).toBe('lsp');
    expect(snippets(saved)).toContain('walruses');
    expect(shape(saved)).toEqual(shape(recall(root, 'walruses', '--no-host')));

    await s.client.sendRequest('shutdown');
    await s.client.sendNotification('exit');
    await s.exited();
    // A clean exit removes the socket: the next call is cold with "no socket".
    expect(doctorHost(root)).toMatchObject({ listening: false, path: 'cold' });
  }, 120_000);
});

describe('a host that stalls or lags never answers late or stale', () => {
  it('a stopped host (SIGSTOP): calls fall back cold within the bound; resumed, it serves again', async () => {
    const root = repo({ 'memory/MEMORY.md': '# M\n\n- the glacier hut sleeps twelve\n' });
    const { child } = await startWatch(root);
    expect(recall(root, 'glacier hut').servedBy).toBe('watch');
    // --debug says on stderr which path answered.
    const said = runCli(['recall', 'glacier', '--dir', root, '--debug']);
    expect(said.stderr).toContain(`recall answered by the watch host (pid ${child.pid})`);
    process.kill(child.pid!, 'SIGSTOP');
    try {
      const why = runCli(['get', 'memory/MEMORY.md', '--dir', root, '--debug'], {
        env: { GITMEM_HOST_TIMEOUT_MS: '1000' },
      });
      expect(why.code).toBe(0);
      expect(why.stderr).toContain('get runs cold: the host did not answer within 1000 ms');
      // The kernel still accepts the connection, but nobody reads it: the client's bound cuts it off.
      const stalled = recallEnv(root, 'glacier hut', { GITMEM_HOST_TIMEOUT_MS: '1500' });
      expect(stalled.servedBy).toBeUndefined();
      expect(shape(stalled)).toEqual(shape(recall(root, 'glacier hut', '--no-host')));
      // The default bound (4 s) too, as doctor reports it.
      const d = doctorHost(root);
      expect(d).toMatchObject({ listening: false, path: 'cold' });
      expect(d.reason).toMatch(/did not answer within 4000 ms/);
    } finally {
      process.kill(child.pid!, 'SIGCONT');
    }
    // The calls it missed while stopped do not clog its queue: the next call is answered by it.
    const after = recall(root, 'glacier hut');
    expect(after.servedBy).toBe('watch');
    expect(doctorHost(root)).toMatchObject({ listening: true, kind: 'watch', path: 'host' });
  }, 120_000);

  it('an edit, a same-size rewrite and a deletion are seen by the very next call through the host', async () => {
    const root = repo({
      'memory/MEMORY.md': '# M\n\n- the harbour bell rings at noon\n',
      'memory/notes/boats.md': '# Boats\n\n- the red dinghy leaks\n',
    });
    await startWatch(root);
    const p = join(root, 'memory', 'MEMORY.md');
    expect(snippets(recall(root, 'harbour bell'))).toContain('harbour bell');
    // Same size, same second: only a stat walk that handles racy timestamps sees this.
    const before = '# M\n\n- the harbour bell rings at noon\n';
    const after = '# M\n\n- the meadow owls hunt at dusk!!\n';
    expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(before));
    writeFileSync(p, after);
    const owls = recall(root, 'meadow owls');
    expect(owls.servedBy).toBe('watch');
    expect(snippets(owls)).toContain('meadow owls');
    const bell = recall(root, 'harbour bell');
    expect(bell.servedBy).toBe('watch');
    expect(snippets(bell)).not.toContain('harbour bell');
    rmSync(join(root, 'memory', 'notes', 'boats.md'));
    const gone = recall(root, 'dinghy');
    expect(gone.servedBy).toBe('watch');
    expect(gone.results).toEqual([]);
  }, 120_000);

  it('a branch switch is seen at once; a linked worktree of another branch is never answered by this host', async () => {
    const root = repo({ 'memory/MEMORY.md': '# M\n\n- on the first branch the kettle is blue\n' });
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'first');
    const first = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    git(root, 'checkout', '-qb', 'other');
    writeFileSync(join(root, 'memory', 'MEMORY.md'), '# M\n\n- on other the kettle is green\n');
    git(root, 'commit', '-qam', 'other');
    git(root, 'checkout', '-q', first);
    git(root, 'branch', 'third', 'other');

    const { child } = await startWatch(root);
    expect(snippets(recall(root, 'kettle'))).toContain('kettle is blue');
    git(root, 'checkout', '-q', 'other');
    const switched = recall(root, 'kettle');
    expect(switched.servedBy).toBe('watch');
    expect(snippets(switched)).toContain('kettle is green');
    expect(snippets(switched)).not.toContain('kettle is blue');
    expect(shape(switched)).toEqual(shape(recall(root, 'kettle', '--no-host')));

    // A linked worktree (its own derived state under its own git folder): cold, its own files.
    const wt = join(root, '..', 'wt');
    git(root, 'worktree', 'add', '-q', wt, 'third');
    writeFileSync(join(wt, 'memory', 'MEMORY.md'), '# M\n\n- in the worktree the kettle is copper\n');
    const there = recall(wt, 'kettle');
    expect(there.servedBy).toBeUndefined();
    expect(snippets(there)).toContain('kettle is copper');
    const d = doctorHost(wt);
    expect(d).toMatchObject({ listening: false, path: 'cold' });
    expect(d.endpoint).not.toBe(doctorHost(root).endpoint);
    expect(doctorHost(root).pid).toBe(child.pid);
  }, 120_000);
});
