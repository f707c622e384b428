// Bad input R91 (docs/bad-inputs.md): recall in a sparse checkout. REAL git: a repository whose
// memory/team/ holds the only note about webhooks, cloned with a sparse set that leaves memory/team/
// out of the work tree. `recall webhook --json` answered "no results" with nothing saying that
// tracked memory was not searched, so an agent took "nothing remembered" for the truth. The answer now
// carries a `warnings` line naming the files (or, with a sparse index, the folders) left out and how
// to bring them in; a full checkout, and a sparse set that leaves out only code, carry none.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, okOutput, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const ENV = {
  GIT_AUTHOR_NAME: 'Sparse Reader',
  GIT_AUTHOR_EMAIL: 'sparse-reader@example.com',
  GIT_COMMITTER_NAME: 'Sparse Reader',
  GIT_COMMITTER_EMAIL: 'sparse-reader@example.com',
};
let base = '';
let full = '';

beforeAll(() => {
  requireBuiltCli();
  base = tempDir('gitmem-sparse-recall-');
  full = join(base, 'full');
  git(base, 'init', '-q', '-b', 'main', full);
  mkdirSync(join(full, 'memory/team'), { recursive: true });
  mkdirSync(join(full, 'memory/entries'), { recursive: true });
  mkdirSync(join(full, 'src/app'), { recursive: true });
  writeFileSync(join(full, 'memory/MEMORY.md'), '# Memory\n\n- The release train leaves on Thursdays.\n');
  writeFileSync(join(full, 'memory/team/hooks.md'), '# Hooks\n\nThe webhook retry policy is five attempts.\n');
  writeFileSync(join(full, 'memory/team/oncall.md'), '# On call\n\nThe pager rotates weekly.\n');
  writeFileSync(join(full, 'src/app/main.ts'), 'export const webhook = 1;\n');
  writeFileSync(join(full, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
  git(full, 'add', '-A');
  git(full, 'commit', '-qm', 'team memory');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A clone of `full` at `name` whose sparse set is given by `setUp` (run in the clone before checkout). */
function clone(name: string, setUp: (dir: string) => void): string {
  const dir = join(base, name);
  git(base, 'clone', '-q', '--no-checkout', full, dir);
  setUp(dir);
  git(dir, 'checkout', '-q', 'main');
  return dir;
}

function recallJson(dir: string, query: string): { results: unknown[]; warnings?: string[] } {
  return okOutput(runCli(['recall', query, '--json', '--no-host', '--mode', 'keyword', '--dir', dir], { env: ENV }));
}

describe('recall in a sparse checkout names the memory it could not search', { timeout: 120_000 }, () => {
  it('a non-cone sparse set leaving memory/team/ out: both files named, with the way back', () => {
    const dir = clone('no-cone', (d) => git(d, 'sparse-checkout', 'set', '--no-cone', '/*', '!/memory/team/'));
    expect(existsSync(join(dir, 'memory/team'))).toBe(false);
    const res = recallJson(dir, 'webhook retry');
    expect(res.results).toEqual([]);
    expect(res.warnings).toEqual([
      '2 memory files are outside the sparse checkout and not searched: memory/team/hooks.md, memory/team/oncall.md; `git sparse-checkout add <folder>` (or `git sparse-checkout disable`) brings them in',
    ]);
    const human = runCli(['recall', 'webhook retry', '--no-host', '--mode', 'keyword', '--dir', dir], { env: ENV });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toContain('gitmem: note: 2 memory files are outside the sparse checkout');
  });

  it('a cone sparse set with a sparse index: the folder entry is named', () => {
    const dir = clone('cone', (d) => {
      git(d, 'sparse-checkout', 'init', '--cone', '--sparse-index');
      git(d, 'sparse-checkout', 'set', 'memory/entries', 'src');
    });
    expect(existsSync(join(dir, 'memory/team'))).toBe(false);
    expect(existsSync(join(dir, 'memory/MEMORY.md'))).toBe(true);
    const res = recallJson(dir, 'release train');
    expect(res.results.length).toBeGreaterThan(0);
    expect(res.warnings).toHaveLength(1);
    expect(res.warnings![0]).toMatch(
      /^1 memory folder is outside the sparse checkout and not searched: memory\/team\/;/,
    );
  });

  it('a sparse set leaving out only code, and a full checkout: no warning', () => {
    const codeOut = clone('code-out', (d) => git(d, 'sparse-checkout', 'set', '--no-cone', '/*', '!/src/'));
    expect(existsSync(join(codeOut, 'src'))).toBe(false);
    expect(recallJson(codeOut, 'webhook retry').warnings).toBeUndefined();
    const whole = clone('whole', () => undefined);
    const res = recallJson(whole, 'webhook retry');
    expect(res.results.length).toBeGreaterThan(0);
    expect(res.warnings).toBeUndefined();
  });
});
