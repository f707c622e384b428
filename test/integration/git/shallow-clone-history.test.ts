// Bad input R05 (docs/bad-inputs.md): a revision older than a shallow clone's history. `--as-of HEAD~1`
// and `diff HEAD~1` printed `git.resolveRevision: Could not find <sha>`. Now they say the history is
// not in this shallow clone and how to fetch it (git.shallow); after `git fetch --deepen` they work.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, requireBuiltCli, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

describe('a shallow clone', { timeout: 120_000 }, () => {
  it('--as-of and diff past the cut say the history is not here and how to fetch it', () => {
    const base = tempDir('gitmem-shallow-');
    dirs.push(base);
    const full = join(base, 'full');
    mkdirSync(join(full, 'memory'), { recursive: true });
    git(full, 'init', '-q', '-b', 'main');
    writeFileSync(join(full, 'gitmem.config.json'), '{ "model": { "enabled": false } }\n');
    for (const n of [1, 2, 3]) {
      writeFileSync(join(full, 'memory/MEMORY.md'), `# Memory\n\n- fact number ${n} about quokkas\n`);
      git(full, 'add', '-A');
      git(full, 'commit', '-qm', `fact ${n}`);
    }
    const shallow = join(base, 'shallow');
    git(base, 'clone', '-q', '--depth', '1', `file://${full}`, shallow);
    for (const args of [
      ['recall', 'quokkas', '--as-of', 'HEAD~1'],
      ['diff', 'HEAD~1'],
    ]) {
      const r = runCli([...args, '--json', '--dir', shallow]);
      expect(r.code, r.stderr).toBe(1);
      const e = r.json().error;
      expect(e.code).toBe('git.shallow');
      expect(e.message).toContain('is not in this shallow clone');
      expect(e.hint).toContain('git fetch --unshallow');
      expect(e.hint).toContain('git fetch --deepen');
    }
    git(shallow, 'fetch', '-q', '--deepen=1');
    const d = runCli(['diff', 'HEAD~1', '--json', '--dir', shallow]);
    expect(d.code, d.stderr).toBe(0);
    const r = runCli(['recall', 'quokkas', '--as-of', 'HEAD~1', '--json', '--dir', shallow]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(r.json())).toContain('fact number 2');
  });
});
