// `gitmem mv` as a real process over real files. U63 (docs/bad-inputs.md): a new name holding a
// backslash is refused, nothing moved; before, `mv x 'a\b.md'` made a folder `a` holding `b.md`.
// U64: the folders a move empties are removed; before, `mv memory/playbook memory/plays` left an
// empty memory/playbook behind (and every folder under it).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, runCli } from '../../support/fixtures.js';
import { write } from '../../support/lsp.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(dirname(r), { recursive: true, force: true });
});
function workspace(): string {
  const root = copyFixture('demo');
  roots.push(root);
  return root;
}
const has = (root: string, rel: string) => existsSync(join(root, rel));

describe('U63: a new name with a backslash', () => {
  it('is refused with path.invalid before anything moves, for a file and for a folder', () => {
    const root = workspace();
    const file = 'memory/playbook/verify-webhooks-before-parsing.md';
    for (const [from, to] of [
      [file, 'memory/playbook/a\\b.md'],
      [file, 'memory\\playbook\\renamed.md'],
      ['memory/playbook', 'memory/plays\\x'],
    ] as const) {
      const r = runCli(['mv', from, to, '--json', '--dir', root]);
      expect(r.code, `${to}: ${r.stderr}`).toBe(1);
      expect(r.json().error.code).toBe('path.invalid');
      expect(r.json().error.message).toMatch(/backslash/);
    }
    expect(has(root, file)).toBe(true);
    expect(has(root, 'memory/playbook/a')).toBe(false);
    expect(has(root, 'memory/plays')).toBe(false);
  });

  it('a source may still be written with backslashes (it names a file that is there)', () => {
    const root = workspace();
    const r = runCli(
      ['mv', 'memory\\playbook\\verify-webhooks-before-parsing.md', 'memory/playbook/verify.md', '--dir', root],
      {},
    );
    expect(r.code, r.stderr).toBe(0);
    expect(has(root, 'memory/playbook/verify.md')).toBe(true);
  });
});

describe('U64: the folders a move empties are removed', () => {
  it('a folder move leaves no empty folder behind, nested ones included', () => {
    const root = workspace();
    write(root, 'memory/playbook/deep/er/note.md', '---\ntype: playbook\n---\n\nA deeper rule.\n');
    const r = runCli(['mv', 'memory/playbook', 'memory/plays', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(has(root, 'memory/playbook')).toBe(false);
    expect(has(root, 'memory/plays/deep/er/note.md')).toBe(true);
  });

  it('a file move removes its folder only when it was the last thing in it', () => {
    const root = workspace();
    write(root, 'memory/entries/db/pool.md', '---\ntype: learning\n---\n\nPool of ten.\n');
    write(root, 'memory/entries/db/replicas.md', '---\ntype: learning\n---\n\nReplicas lag.\n');
    expect(runCli(['mv', 'memory/entries/db/pool.md', 'memory/entries/pool.md', '--dir', root]).code).toBe(0);
    expect(readdirSync(join(root, 'memory/entries/db'))).toEqual(['replicas.md']);
    expect(runCli(['mv', 'memory/entries/db/replicas.md', 'memory/entries/replicas.md', '--dir', root]).code).toBe(0);
    expect(has(root, 'memory/entries/db')).toBe(false);
    expect(has(root, 'memory/entries/replicas.md')).toBe(true);
  });

  it('--dry-run removes nothing', () => {
    const root = workspace();
    write(root, 'memory/entries/solo/one.md', '---\ntype: learning\n---\n\nOne alone.\n');
    expect(runCli(['mv', 'memory/entries/solo', 'memory/entries/pair', '--dry-run', '--dir', root]).code).toBe(0);
    expect(has(root, 'memory/entries/solo/one.md')).toBe(true);
  });
});
