// Bad input U34 (docs/bad-inputs.md): the hint a git command gives outside a repository names a
// command a user can run. It named `gitmem init --git`, an option init never had (exit 2).
// `gitmem index` after an edit says "Index updated (1 re-indexed, …)", not "Index updated (index updated (…))".
// U36: `gitmem log <path>` with no history for that path does not claim there are no memory commits.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, copyFixture, runCli, noModelEnv } from '../../support/fixtures.js';

const ws = copyFixture('demo'); // a temp folder outside any git work tree
afterAll(() => rmSync(dirname(ws), { recursive: true, force: true }));

/** Every `gitmem <words> --flag…` a message names: the command words and the flags after them. */
function namedCommands(text: string): { words: string[]; flags: string[] }[] {
  const out: { words: string[]; flags: string[] }[] = [];
  for (const m of text.matchAll(/\bgitmem((?: [a-z][a-z-]*)+)((?: --[a-z][a-z-]*)*)/g)) {
    out.push({ words: (m[1] ?? '').trim().split(' '), flags: (m[2] ?? '').trim().split(' ').filter(Boolean) });
  }
  return out;
}

describe('hints outside a git repository', () => {
  it.each([[['checkpoint']], [['sync', '--no-push']], [['state', 'set', '--step', 'Profiling the join', '--commit']]])(
    '%j names only commands and options that exist, and git init',
    (args) => {
      const r = runCli([...args, '--dir', ws]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/not (?:a git repository|in a git work tree)/);
      expect(r.stderr).toContain('git init');
      for (const { words, flags } of namedCommands(r.stderr)) {
        // Drop trailing prose words until the command's --help answers (`gitmem recall <words> finds…`).
        let help = runCli([...words, '--help']);
        while (help.code !== 0 && words.length > 1) {
          words.pop();
          help = runCli([...words, '--help']);
        }
        expect(help.code, `gitmem ${words.join(' ')} --help`).toBe(0);
        for (const f of flags) expect(help.stdout, `gitmem ${words.join(' ')} ${f}`).toContain(f);
      }
    },
  );
});

describe('log of a path with no history (U36)', () => {
  const repo = committedFixture('demo');
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  it('says no commit touches that path, while the whole log lists the memory commits', () => {
    const all = runCli(['log', '--dir', repo]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/initial memory/);
    const none = runCli(['log', 'memory/no-such-note.md', '--dir', repo]);
    expect(none.code).toBe(0);
    expect(none.stdout).not.toMatch(/No memory commits yet/);
    expect(none.stdout).toMatch(/No memory commit touches memory\/no-such-note\.md/);
  });
});

describe('the index summary line', () => {
  const repo = committedFixture('demo');
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  it('names what an incremental update did once', () => {
    const env = noModelEnv(repo);
    expect(runCli(['index', '--dir', repo], { env }).code).toBe(0);
    appendFileSync(join(repo, 'memory/MEMORY.md'), '- The walrus service listens on port 7001.\n');
    const r = runCli(['index', '--dir', repo], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Index updated \(1 re-indexed, 0 removed\): /m);
    // It embeds too, and its help says so.
    expect(runCli(['index', '--help']).stdout).toMatch(/keyword segments and vectors/);
  });
});
