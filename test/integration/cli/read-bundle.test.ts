// The read bundle (dist/cli-read.cjs: cli/bin.ts with cli/main.ts replaced by cli/main-stand-in.ts)
// that the process entry runs for recall, get, hook prompt and context. Proven with a copy of
// dist/ whose full CLI bundle throws as soon as it is evaluated: the read commands answer cold
// through the read bundle alone, with the JSON of the normal build; help and a parse error of a
// read command are handed to the full bundle (which then throws here); any other command goes there
// directly; and a dist/ without the read bundle still answers through the full one. Real processes
// and files in temp folders.
import { cpSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';
import { cleanup, recall, repo, runCopiedCli, shape } from '../../support/host.js';

const made: string[] = [];
afterEach(() => {
  cleanup();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(() => requireBuiltCli());

const THROWS = 'throw new Error("the full CLI bundle was evaluated");\n';

/** A copy of dist/cli.cjs with the read bundle (unless told) and a full bundle that throws when evaluated. */
function distWithoutFullCli(withReadBundle = true): string {
  const dir = tempDir('gitmem-read-bundle-');
  made.push(dir);
  cpSync(CLI, join(dir, 'cli.cjs'));
  if (withReadBundle) cpSync(join(REPO, 'dist', 'cli-read.cjs'), join(dir, 'cli-read.cjs'));
  writeFileSync(join(dir, 'cli-bundle.cjs'), THROWS);
  return join(dir, 'cli.cjs');
}

describe('the read bundle answers read commands without the full CLI bundle', () => {
  it('is built beside the full bundle, smaller than it', () => {
    const read = statSync(join(REPO, 'dist', 'cli-read.cjs')).size;
    expect(read).toBeLessThan(0.8 * statSync(join(REPO, 'dist', 'cli-bundle.cjs')).size);
  });

  it('recall, get, hook prompt and context run cold with the normal JSON; help and parse errors go to the full CLI', () => {
    const root = repo({
      'memory/MEMORY.md': '# Memory\n\n- webhook retries use exponential backoff\n- deploys happen on Tuesdays\n',
    });
    const cli = distWithoutFullCli();
    const r = runCopiedCli(cli, ['recall', 'webhook retries', '--dir', root, '--json', '--mode', 'keyword']);
    expect(r.code, r.stderr).toBe(0);
    expect(shape(JSON.parse(r.stdout))).toEqual(shape(recall(root, 'webhook retries', '--no-host')));

    const got = runCopiedCli(cli, ['get', 'memory/MEMORY.md', '--dir', root, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual(runCli(['get', 'memory/MEMORY.md', '--dir', root, '--json']).json());

    const hook = runCopiedCli(cli, ['hook', 'prompt', '--dir', root, '--prompt', 'how do webhook retries work']);
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stdout).toMatch(/webhook retries use exponential backoff/);

    const context = runCopiedCli(cli, ['context', 'webhook retries', '--dir', root, '--json']);
    expect(context.code, context.stderr).toBe(0);
    expect(context.stderr).not.toMatch(/full CLI bundle was evaluated/);

    // What the thin entry leaves to the full CLI reaches it (and here it throws).
    for (const args of [
      ['recall', '--help'],
      ['recall', '--dir', root],
      ['get', '--bogus-option', 'x', '--dir', root],
      ['validate', '--dir', root, '--json'],
    ]) {
      const other = runCopiedCli(cli, args);
      expect({ args, code: other.code === 0 }).toEqual({ args, code: false });
      expect(other.stderr).toMatch(/the full CLI bundle was evaluated/);
    }
  });

  it('without the read bundle next to the entry, the full bundle answers', () => {
    const root = repo({ 'memory/MEMORY.md': '# Memory\n\n- webhook retries use exponential backoff\n' });
    const cli = distWithoutFullCli(false);
    const r = runCopiedCli(cli, ['recall', 'webhook', '--dir', root, '--json', '--mode', 'keyword']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/the full CLI bundle was evaluated/);
  });
});
