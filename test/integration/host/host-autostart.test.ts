// GITMEM_HOST_AUTOSTART (src/cli/host-autostart.ts) and `gitmem watch --idle-exit`: a cold one-shot
// call starts a detached real `gitmem watch` (dist/cli.cjs; `npm run build` first) that answers the
// next calls with the cold JSON, stops by itself after the idle time and removes its socket; a
// burst of cold calls starts one host, not one each; a watch with --idle-exit stops at once when
// another host already serves the workspace. Real processes, real sockets, temp folders.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../../support/fixtures.js';
import { cleanup, doctorHost, recall, repo, shape, startWatch } from '../../support/host.js';
import { until, untilInFolder } from '../../support/wait.js';

/** Hosts this file started through the environment (detached: {@link cleanup} does not know them). */
const pids: number[] = [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(() => {
  for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  cleanup();
});

const files = {
  'memory/MEMORY.md': '# Memory\n\n- webhook retries use exponential backoff\n- deploys happen on Tuesdays\n',
};

describe('GITMEM_HOST_AUTOSTART', () => {
  it('a cold call starts a watch host that answers the next calls and stops once idle', async () => {
    const root = repo(files);
    const cold = recall(root, 'webhook retries', '--no-host'); // indexes: the derived-state folder exists
    const env = { GITMEM_HOST_AUTOSTART: '1', GITMEM_HOST_IDLE_EXIT: '3' };
    // doctor says whether the variable is on.
    expect(doctorHost(root)).toMatchObject({ listening: false, autostart: false });
    expect(doctorHost(root, env)).toMatchObject({ listening: false, autostart: true });
    expect(runCli(['doctor', '--dir', root], { env }).stdout).toContain(
      'GITMEM_HOST_AUTOSTART is on: the next cold call starts one',
    );
    const first = runCli(['recall', 'webhook retries', '--dir', root, '--json', '--mode', 'keyword', '--debug'], {
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    const m = /runs cold: .*; started a host \(pid (\d+)\)/.exec(first.stderr);
    expect(m, first.stderr).not.toBeNull();
    const pid = Number(m![1]);
    pids.push(pid);
    expect(shape(first.json())).toEqual(shape(cold));

    // The host's socket appears in the derived-state folder when it listens (bind and listen are one step).
    const state = join(root, '.git', 'gitmem');
    const sock = join(state, 'host', 'sock');
    await untilInFolder(state, () => existsSync(sock), 'the host socket', { deadlineMs: 30_000, recursive: true });
    const host = doctorHost(root);
    expect(host.listening).toBe(true);
    expect(host).toMatchObject({ kind: 'watch', pid, path: 'host' });
    // Answered by it, same JSON; a call with the variable set while it listens starts nothing.
    const hosted = runCli(['recall', 'webhook retries', '--dir', root, '--json', '--mode', 'keyword', '--debug'], {
      env: { ...env, GITMEM_HOST_CONNECT_MS: '5000' },
    });
    expect(hosted.stderr).toContain(`recall answered by the watch host (pid ${pid})`);
    expect(hosted.stderr).not.toContain('started a host');
    expect(hosted.json().servedBy).toBe('watch');
    expect(shape(hosted.json())).toEqual(shape(cold));

    // No call for 3 s: it stops, saves, and takes its socket with it; then the process ends (a process
    // that is not our child gives no exit event: its pid is looked at until then).
    await untilInFolder(state, () => !existsSync(sock), 'the idle host to remove its socket', {
      deadlineMs: 20_000,
      recursive: true,
    });
    await until(() => !alive(pid), 'the idle host to exit', { deadlineMs: 20_000 });
    expect(existsSync(sock)).toBe(false);
    expect(doctorHost(root)).toMatchObject({ listening: false, path: 'cold' });
  });

  it('starts one host for a burst of cold calls, and none without the variable or a derived-state folder', async () => {
    const root = repo(files);
    const args = ['recall', 'webhook', '--dir', root, '--json', '--mode', 'keyword', '--debug'];
    // A workspace gitmem never indexed has no derived-state folder: nothing is started there.
    const fresh = runCli(args, { env: { GITMEM_HOST_AUTOSTART: '1' } });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).not.toContain('started a host');
    const plain = runCli(args);
    expect(plain.stderr).not.toContain('started a host');
    const env = { GITMEM_HOST_AUTOSTART: '1', GITMEM_HOST_IDLE_EXIT: '60' };
    const a = runCli(args, { env });
    const m = /started a host \(pid (\d+)\)/.exec(a.stderr);
    expect(m, a.stderr).not.toBeNull();
    pids.push(Number(m![1]));
    // At once again: either the new host answers, or it runs cold — it never starts a second host.
    const b = runCli(args, { env });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).not.toContain('started a host');
  });

  it('watch --idle-exit stops at once when another host serves the workspace; a bad value is a usage error', async () => {
    const root = repo(files);
    await startWatch(root);
    const r = spawnSync(process.execPath, [CLI, 'watch', '--dir', root, '--json', '--idle-exit', '60'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.find((e) => e.event === 'ready').host.socket).toBeNull();
    expect(events.at(-1)).toEqual({ event: 'stopped', signal: 'no host' });
    for (const bad of ['0', '1.5', 'soon']) {
      const u = runCli(['watch', '--dir', root, '--idle-exit', bad]);
      expect(u.code).toBe(2);
      expect(u.stderr).toContain('expected whole seconds between 1 and 604800');
    }
  });
});
