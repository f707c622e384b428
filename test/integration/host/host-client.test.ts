// The host client bundle (src/cli/host-first.ts → dist/cli-host.cjs): a recall or get whose workspace
// has a host socket is answered without evaluating the CLI bundle (proven with a copy whose CLI
// bundle throws when evaluated), with the cold path's JSON; a call that cannot be hosted, or whose
// host is gone (a stale socket after kill -9), runs in the CLI bundle, which does not ask again.
// Real processes, sockets and files in temp folders.
import { cpSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, REPO, tempDir } from '../../support/fixtures.js';
import {
  cleanup,
  expectHostedReads,
  hostedReads,
  recall,
  repo,
  runCopiedCli,
  shape,
  startWatch,
} from '../../support/host.js';

const made: string[] = [];
afterEach(() => {
  cleanup();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** dist/cli.cjs and the host client, next to a CLI bundle that throws when it is evaluated. */
function withoutCliBundle(): string {
  const dir = tempDir('gitmem-host-client-');
  made.push(dir);
  cpSync(CLI, join(dir, 'cli.cjs'));
  cpSync(join(REPO, 'dist', 'cli-host.cjs'), join(dir, 'cli-host.cjs'));
  writeFileSync(join(dir, 'cli-bundle.cjs'), 'throw new Error("the CLI bundle was evaluated");\n');
  return join(dir, 'cli.cjs');
}

describe('the host client answers hosted reads before the CLI bundle is loaded', () => {
  it('recall and get are answered by the host without the CLI bundle; --lineage needs it', async () => {
    const reads = await hostedReads('# Memory\n\n- webhook retries use exponential backoff\n');
    const { root } = reads;
    const cli = withoutCliBundle();
    const { stderr } = expectHostedReads(cli, reads);
    expect(stderr).toMatch(/^gitmem: host client code cache /m);

    // A usage error is reported by the host client as the CLI would (exit 2), without asking the host.
    const bad = runCopiedCli(cli, ['recall', 'x', '--now', 'someday', '--dir', root, '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe('usage');

    // --lineage reads git in this process: the CLI bundle runs it; --no-host never loads the host client.
    expect(runCopiedCli(cli, ['recall', 'webhook', '--lineage', '--dir', root, '--json']).stderr).toMatch(
      /the CLI bundle was evaluated/,
    );
    const optOut = runCopiedCli(cli, ['recall', 'webhook', '--no-host', '--dir', root, '--json', '--debug']);
    expect(optOut.stderr).toMatch(/the CLI bundle was evaluated/);
    expect(optOut.stderr).not.toMatch(/host client/);
  }, 120_000);

  it('a stale socket (host killed): the host client reports why, the CLI bundle answers cold without asking again', async () => {
    const root = repo({ 'memory/MEMORY.md': '# M\n\n- the lighthouse keeper logs storms\n' });
    const { child, ready } = await startWatch(root);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(lstatSync(ready.host.socket).isSocket()).toBe(true);
    const r = runCopiedCli(CLI, ['recall', 'lighthouse', '--dir', root, '--json', '--mode', 'keyword', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^gitmem: host client code cache /m);
    expect(r.stderr).toMatch(/recall runs cold: stale socket/);
    expect(r.stderr.match(/recall runs cold/g)).toHaveLength(1);
    const json = JSON.parse(r.stdout);
    expect(json.servedBy).toBeUndefined();
    expect(shape(json)).toEqual(shape(recall(root, 'lighthouse', '--no-host', '--mode', 'keyword')));
  }, 120_000);
});
