// Bad input U10 (docs/bad-inputs.md): a symlink named like memory that leads outside the workspace.
// REAL git. Every reader refuses it, yet a checkpoint committed it as a link (its target path, say
// `/etc/hostname` or `../../.ssh/id_rsa`, in an unreviewed commit). It is now left out: not added,
// and a tracked file replaced by such a link is neither committed nor deleted. A link that stays
// inside the workspace is still committed as git would.
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('checkpoint and symlinks', { timeout: 120_000 }, () => {
  it('never commits a memory-named link that leads outside the workspace', () => {
    const base = tempDir('gitmem-cpsym-');
    dirs.push(base);
    const ws = join(base, 'ws');
    mkdirSync(join(ws, 'memory/entries'), { recursive: true });
    git(ws, 'init', '-q');
    git(ws, 'config', 'user.name', 'Ann');
    git(ws, 'config', 'user.email', 'ann@example.com');
    writeFileSync(join(ws, 'memory/MEMORY.md'), '# Memory\n\n- one fact\n');
    writeFileSync(join(ws, 'memory/entries/kept.md'), '# Kept\n\nA tracked note.\n');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'base');
    const outside = join(base, 'outside.md');
    writeFileSync(outside, '# Outside\n\nnot memory of this workspace\n');
    symlinkSync(outside, join(ws, 'memory/entries/out.md'));
    symlinkSync('../../../outside.md', join(ws, 'memory/entries/out-rel.md'));
    // A tracked note replaced by a link that leaves the workspace.
    unlinkSync(join(ws, 'memory/entries/kept.md'));
    symlinkSync(outside, join(ws, 'memory/entries/kept.md'));
    // A link inside the workspace is an ordinary git symlink.
    symlinkSync('../MEMORY.md', join(ws, 'memory/entries/inside.md'));
    const r = runCli(['checkpoint', '--json', '-m', 'links', '--dir', ws]);
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res.kind).toBe('committed');
    expect(res.changes).toEqual({ added: ['memory/entries/inside.md'], modified: [], deleted: [] });
    const tree = git(ws, 'ls-tree', '-r', 'HEAD');
    expect(tree).not.toMatch(/out(-rel)?\.md/);
    expect(tree).toMatch(/^100644 blob \S+\tmemory\/entries\/kept\.md$/m);
    expect(tree).toMatch(/^120000 blob \S+\tmemory\/entries\/inside\.md$/m);
  });
});
