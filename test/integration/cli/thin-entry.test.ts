// The process entry (src/cli/bin.ts → dist/cli-bundle.cjs, run by dist/cli.cjs) runs recall and get
// whole — a running host first, else in this process — without loading the full CLI (src/cli/main.ts,
// evaluated on first import). Proven with a copy of the bundle whose full-CLI module throws when
// evaluated: a real `gitmem watch` still answers through it, with the cold path's JSON, and so does
// a cold recall, while another command cannot run. Real processes, sockets and files in temp folders.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, git, REPO, runCli, tempDir } from '../../support/fixtures.js';
import { cleanup, expectHostedReads, hostedReads, recall, repo, runCopiedCli, shape } from '../../support/host.js';

const made: string[] = [];
afterEach(() => {
  cleanup();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * dist/cli.cjs and its bundle, with the full CLI's module (cli/main.ts, evaluated on first import)
 * made to throw when it is evaluated: what still answers did not load the full CLI.
 */
function bundleWithoutFullCli(): string {
  const dir = tempDir('gitmem-thin-');
  made.push(dir);
  cpSync(CLI, join(dir, 'cli.cjs'));
  const text = readFileSync(join(REPO, 'dist', 'cli-bundle.cjs'), 'latin1');
  const init = '"src/cli/main.ts"() {';
  expect(text.split(init)).toHaveLength(2);
  writeFileSync(
    join(dir, 'cli-bundle.cjs'),
    text.replace(init, `${init} throw new Error("the full CLI was evaluated");`),
    'latin1',
  );
  return join(dir, 'cli.cjs');
}

describe('the thin entry asks the host before loading the full CLI', () => {
  it('a host answers recall and get without the full CLI, with the cold JSON; a cold call needs it', async () => {
    const reads = await hostedReads(
      '# Memory\n\n- webhook retries use exponential backoff\n- deploys happen on Tuesdays\n',
    );
    const { root } = reads;
    const thin = bundleWithoutFullCli();
    const { answer, stderr } = expectHostedReads(thin, reads);
    expect(answer.results.length).toBeGreaterThan(0);
    expect(stderr).not.toMatch(/loading the full CLI/);

    // The same bundle cannot run any other command: that evaluates the full CLI.
    const other = runCopiedCli(thin, ['validate', '--dir', root, '--json']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/the full CLI was evaluated/);
  });

  it('with no host the entry answers cold itself, asking once, with the same JSON', () => {
    const root = repo({ 'memory/MEMORY.md': '# Memory\n\n- webhook retries use exponential backoff\n' });
    const thin = bundleWithoutFullCli();
    const r = runCopiedCli(thin, [
      'recall',
      'webhook retries',
      '--dir',
      root,
      '--json',
      '--mode',
      'keyword',
      '--debug',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/recall runs cold: /);
    expect(r.stderr.match(/recall runs cold/g)).toHaveLength(1);
    const json = JSON.parse(r.stdout);
    expect(json.servedBy).toBeUndefined();
    expect(shape(json)).toEqual(shape(recall(root, 'webhook retries', '--no-host')));
    // get, cold, likewise; an --as-of recall (git) too.
    const got = runCopiedCli(thin, ['get', 'memory/MEMORY.md', '--dir', root, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual(
      runCli(['get', 'memory/MEMORY.md', '--dir', root, '--json', '--no-host']).json(),
    );
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'memory');
    const asOf = runCopiedCli(thin, [
      'recall',
      'webhook',
      '--as-of',
      'HEAD',
      '--dir',
      root,
      '--json',
      '--mode',
      'keyword',
    ]);
    expect(asOf.code, asOf.stderr).toBe(0);
    expect(JSON.parse(asOf.stdout).results.length).toBeGreaterThan(0);
  });
});
