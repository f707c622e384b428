// Bad input U67 (docs/bad-inputs.md): `gitmem mv` that fails part-way on a real error is undone.
// Before: the files moved so far stayed moved and the links rewritten so far stayed rewritten (B53
// covered Ctrl-C, not a failing write), so a folder move whose third write failed left the memory
// half in the new folder with MEMORY.md pointing there and a note still pointing at the old place.
// Now the move is all-or-nothing: on a failure it moves back what it moved and restores what it
// rewrote, then says so. The failures are real and need no special rights (this runs as root too):
// a note whose path is so long that a rewrite's temporary file cannot be created next to it
// (ENAMETOOLONG from the file system: the whole path over 4,096 bytes), and a file whose new path is over the 4,096-character limit.
// A third case makes a folder whose files cannot be unlinked (chmod 0555; as root, whom modes do not
// stop, `chattr +a`), so one rename's link is made and its old name cannot be removed: that rename is
// undone by the file system port (platform/node-fs.ts renameFile), the rest by the move.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/fixtures.js';

let root = '';
let locked = '';
afterEach(() => {
  if (locked) unlock(locked);
  locked = '';
  if (root) rmSync(root, { recursive: true, force: true });
});

const asRoot = process.getuid?.() === 0;
/** Make `dir` a folder whose files cannot be removed; false when this machine cannot. */
function lock(dir: string): boolean {
  if (!asRoot) {
    chmodSync(dir, 0o555);
    return true;
  }
  return spawnSync('chattr', ['+a', dir]).status === 0;
}
function unlock(dir: string): void {
  if (asRoot) spawnSync('chattr', ['-a', dir]);
  else chmodSync(dir, 0o755);
}

/** A workspace of `files` (relative path → text) in a fresh temp folder. */
function workspace(files: Record<string, string>): string {
  root = tempDir();
  const ws = join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'default' }));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(ws, p, '..'), { recursive: true });
    writeFileSync(join(ws, p), text);
  }
  return ws;
}

/** Every file and folder under `ws/memory` with its text (folders as `/`). */
function tree(ws: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      const rel = relative(ws, abs);
      if (statSync(abs).isDirectory()) {
        out[`${rel}/`] = '/';
        walk(abs);
      } else out[rel] = readFileSync(abs, 'utf8');
    }
  };
  walk(join(ws, 'memory'));
  return out;
}

const env = (ws: string) => ({ GITMEM_MODEL_DIR: join(ws, '..', 'no-model'), GITMEM_NO_HOST: '1' });

describe('U67: a move that fails part-way is rolled back', () => {
  it('a link rewrite that the file system refuses after the files moved: everything is put back', () => {
    const ws = workspace({
      'memory/topics/a.md': '# a\n\nsee [b](b.md)\n',
      'memory/topics/b.md': '# b\n\nplain\n',
      'memory/MEMORY.md': '# Memory\n\n- [a](topics/a.md)\n',
    });
    // A note whose absolute path is a few characters under the 4,096-byte path limit: it reads, but the
    // temporary file of its rewrite (its name plus '.' and up to 10 digits) is over the limit.
    let deep = 'memory/notes';
    while (4090 - join(ws, deep).length - 1 > 240) deep += `/${'d'.repeat(200)}`;
    const long = `${deep}/${'n'.repeat(4090 - join(ws, deep).length - 4)}.md`; // a name of 40–240 bytes
    expect(join(ws, long).length).toBe(4090);
    mkdirSync(join(ws, deep), { recursive: true });
    writeFileSync(join(ws, long), '# long\n\n[b](' + '../'.repeat(long.split('/').length - 2) + 'topics/b.md)\n');
    const before = tree(ws);
    const r = runCli(['mv', 'memory/topics', 'memory/t2', '--dir', ws], { env: env(ws) });
    expect(r.code, r.stdout).not.toBe(0);
    expect(r.stderr).toMatch(/ENAMETOOLONG/);
    expect(r.stderr).toMatch(/rolled back: 2 files moved back, 1 rewritten file restored; nothing lost/);
    expect(tree(ws)).toEqual(before);
    const v = runCli(['validate', '--dir', ws, '--json'], { env: env(ws) });
    expect(v.json().diagnostics.filter((d: { code: string }) => d.code === 'memory.link.unresolved')).toEqual([]);
  });

  it('a file whose new path is too long, after other files moved: nothing stays moved', () => {
    const ws = workspace({
      'memory/topics/a.md': '# a\n\nx\n',
      'memory/MEMORY.md': '# Memory\n\n- [a](topics/a.md)\n',
    });
    // A note nested so deep that its absolute path is 4,090 bytes (the file system takes it), and a
    // target name long enough that its path inside the workspace passes gitmem's 4,096 once moved.
    // Measured from the workspace's own path: the temp folder's length differs between machines.
    let deep = 'memory/topics/zz';
    while (4090 - join(ws, deep).length - 1 > 240) deep += `/${'d'.repeat(200)}`;
    const rel = `${deep}/${'n'.repeat(4090 - join(ws, deep).length - 4)}.md`;
    expect(join(ws, rel).length).toBe(4090);
    mkdirSync(join(ws, deep), { recursive: true });
    writeFileSync(join(ws, rel), '# deep\n\nplain\n');
    const grow = 4097 - rel.length + 'topics'.length;
    expect(grow).toBeLessThanOrEqual(250); // one name of the target folder
    const to = `memory/${'t'.repeat(grow)}`;
    const before = tree(ws);
    const r = runCli(['mv', 'memory/topics', to, '--dir', ws], { env: env(ws) });
    expect(r.code, r.stdout).not.toBe(0);
    expect(r.stderr).toMatch(/longer than 4096 characters/);
    expect(tree(ws)).toEqual(before);
  });

  it('a file whose old name cannot be removed, after another file moved: both stay where they were', () => {
    const ws = workspace({
      'memory/topics/a.md': '# a\n\nx\n',
      'memory/topics/sub/b.md': '# b\n\ny\n',
      'memory/MEMORY.md': '# Memory\n\n- [a](topics/a.md)\n- [b](topics/sub/b.md)\n',
    });
    const before = tree(ws);
    // Not skipped where it cannot be made: a machine that cannot lock a folder fails here, said plainly.
    expect(lock(join(ws, 'memory/topics/sub')), 'chmod 0555 (or chattr +a as root) must work here').toBe(true);
    locked = join(ws, 'memory/topics/sub');
    const r = runCli(['mv', 'memory/topics', 'memory/t2', '--dir', ws], { env: env(ws) });
    expect(r.code, r.stdout).not.toBe(0);
    expect(r.stderr).toMatch(/the old name cannot be removed .*; it stays at memory\/topics\/sub\/b\.md/);
    expect(r.stderr).toMatch(/rolled back: 1 file moved back, 0 rewritten files restored; nothing lost/);
    expect(tree(ws)).toEqual(before);
  });
});
