// `gitmem mv OLD NEW` as a real process over real files: --dry-run prints the edits and writes
// nothing; the move rewrites every link (to the file, inside it, [[file-name]] links) and leaves
// validate clean; refusals (V04: outside memory, existing destination, outside the root) change nothing;
// U50: missing folders are made inside the workspace, and a destination whose folder is a file is refused.
// Also: an entry id never changes when its body text is edited.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/parse/parse-document.js';
import { toRelPath } from '../../../src/core/paths.js';
import { firstFreeId } from '../../../src/core/entry-id.js';
import { copyFixture, runCli } from '../../support/fixtures.js';
import { write } from '../../support/lsp.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(dirname(r), { recursive: true, force: true });
});

function workspace(): string {
  const root = copyFixture('default');
  roots.push(root);
  write(
    root,
    'memory/entries/pool-size.md',
    '---\ntype: learning\ntags: [db]\n---\n\nThe pool holds 10 connections; see [lunr](use-lunr.md).\n',
  );
  write(root, 'memory/MEMORY.md', '# Memory\n\n- DB: [[pool-size]] and [the pool note](entries/pool-size.md#top).\n');
  write(
    root,
    'memory/entries/other.md',
    '---\nid: other\ntype: learning\nsupersedes: [pool-size]\n---\n\nNow 20 connections, not [[pool-size|the old number]].\n',
  );
  return root;
}

const read = (root: string, rel: string) => readFileSync(join(root, rel), 'utf8');

describe('gitmem mv', () => {
  it('--dry-run prints each edited line and writes nothing', () => {
    const root = workspace();
    const before = read(root, 'memory/MEMORY.md');
    const r = runCli([
      'mv',
      'memory/entries/pool-size.md',
      'memory/entries/db/connection-pool.md',
      '--dry-run',
      '--dir',
      root,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('would move memory/entries/pool-size.md → memory/entries/db/connection-pool.md');
    expect(r.stdout).toContain('+ - DB: [[connection-pool]] and [the pool note](entries/db/connection-pool.md#top).');
    expect(r.stdout).toMatch(/Dry run: \d+ link edits in 3 files; nothing written\./);
    expect(read(root, 'memory/MEMORY.md')).toBe(before);
    expect(existsSync(join(root, 'memory/entries/pool-size.md'))).toBe(true);
    const j = runCli([
      'mv',
      'memory/entries/pool-size.md',
      'memory/entries/db/connection-pool.md',
      '--dry-run',
      '--json',
      '--dir',
      root,
    ]).json();
    expect(j.applied).toBe(false);
    expect(j.moves).toEqual([{ from: 'memory/entries/pool-size.md', to: 'memory/entries/db/connection-pool.md' }]);
  });

  it('moves the file and rewrites links to it, inside it, and its implicit id in supersedes', () => {
    const root = workspace();
    const r = runCli(['mv', 'memory/entries/pool-size.md', 'memory/entries/db/connection-pool.md', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(root, 'memory/entries/pool-size.md'))).toBe(false);
    expect(read(root, 'memory/entries/db/connection-pool.md')).toContain('see [lunr](../use-lunr.md).');
    expect(read(root, 'memory/MEMORY.md')).toContain(
      '[[connection-pool]] and [the pool note](entries/db/connection-pool.md#top)',
    );
    expect(read(root, 'memory/entries/other.md')).toContain('supersedes: [connection-pool]');
    expect(read(root, 'memory/entries/other.md')).toContain('[[connection-pool|the old number]]');
    const v = runCli(['validate', '--json', '--dir', root]).json();
    expect(v.diagnostics.filter((d: any) => d.code.startsWith('memory.link') || d.severity === 'error')).toEqual([]);
  });

  it('moves a folder, and a file into an existing folder', () => {
    const root = workspace();
    write(
      root,
      'memory/entries/db/replicas.md',
      '---\ntype: learning\n---\n\nReplicas lag; see [pool](../pool-size.md).\n',
    );
    const r = runCli(['mv', 'memory/entries/db', 'memory/entries/storage', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(read(root, 'memory/entries/storage/replicas.md')).toContain('[pool](../pool-size.md)');
    const f = runCli(['mv', 'memory/entries/pool-size.md', 'memory/entries/storage', '--dir', root]);
    expect(f.code, f.stderr).toBe(0);
    expect(read(root, 'memory/entries/storage/replicas.md')).toContain('[pool](pool-size.md)');
    expect(existsSync(join(root, 'memory/entries/storage/pool-size.md'))).toBe(true);
  });

  it('refuses to move memory out of memory, onto an existing file, or outside the root, and writes nothing', () => {
    const root = workspace();
    const before = read(root, 'memory/MEMORY.md');
    const out = runCli(['mv', 'memory/entries/pool-size.md', 'docs/pool.md', '--dir', root]);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/not a memory path/);
    const taken = runCli(['mv', 'memory/entries/pool-size.md', 'memory/entries/use-lunr.md', '--dir', root]);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toMatch(/already exists/);
    const escape = runCli(['mv', 'memory/entries/pool-size.md', '../../outside.md', '--dir', root]);
    expect(escape.code).not.toBe(0);
    const missing = runCli(['mv', 'memory/entries/nope.md', 'memory/entries/x.md', '--dir', root]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/nothing to move/);
    expect(read(root, 'memory/MEMORY.md')).toBe(before);
    expect(existsSync(join(root, 'memory/entries/pool-size.md'))).toBe(true);
  });
});

describe('mv into folders that are not there (U50)', () => {
  it('creates missing folders inside the workspace, moves the file and its links, leaves validate clean', () => {
    const root = workspace();
    const r = runCli(['mv', 'memory/entries/pool-size.md', 'memory/entries/db/pools/size.md', '--json', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(root, 'memory/entries/pool-size.md'))).toBe(false);
    expect(read(root, 'memory/entries/db/pools/size.md')).toContain('The pool holds 10 connections');
    expect(read(root, 'memory/MEMORY.md')).toContain('(entries/db/pools/size.md#top)');
    expect(runCli(['validate', '--dir', root]).code).toBe(0);
  });

  it('a destination whose folder is a file is refused with a clear error before anything moves', () => {
    const root = workspace();
    write(root, 'memory/entries/notes', 'a plain file, not a folder\n');
    write(root, 'memory/entries/db/replicas.md', '---\ntype: learning\n---\n\nReplicas lag.\n');
    write(root, 'memory/entries/db/x/vacuum.md', '---\ntype: learning\n---\n\nVacuum nightly.\n');
    write(root, 'memory/entries/store/x', 'a plain file named like a folder\n');
    const memoryBefore = read(root, 'memory/MEMORY.md');
    for (const [from, to] of [
      ['memory/entries/pool-size.md', 'memory/entries/other.md/pool-size.md'],
      ['memory/entries/pool-size.md', 'memory/MEMORY.md/deep/er/pool-size.md'],
      ['memory/entries/pool-size.md', 'memory/entries/notes/pool-size.md'],
      // A folder move: every file is checked before the first one moves (db/replicas.md would go to
      // store/replicas.md, db/x/vacuum.md cannot go to store/x/vacuum.md).
      ['memory/entries/db', 'memory/entries/notes/db'],
      ['memory/entries/db', 'memory/entries/store'],
    ] as const) {
      const r = runCli(['mv', from, to, '--json', '--dir', root]);
      expect(r.code, `${to}: ${r.stderr}`).toBe(1);
      const error = r.json().error;
      expect(error.code).toBe('path.invalid');
      expect(error.message).toMatch(/is a file, not a folder; nothing moved/);
      expect(error.message).not.toContain(root);
    }
    expect(read(root, 'memory/MEMORY.md')).toBe(memoryBefore);
    expect(read(root, 'memory/entries/pool-size.md')).toContain('The pool holds 10 connections');
    expect(read(root, 'memory/entries/notes')).toBe('a plain file, not a folder\n');
    expect(existsSync(join(root, 'memory/entries/other.md'))).toBe(true);
    expect(existsSync(join(root, 'memory/entries/db/replicas.md'))).toBe(true);
    expect(existsSync(join(root, 'memory/entries/db/x/vacuum.md'))).toBe(true);
    expect(existsSync(join(root, 'memory/entries/store/replicas.md'))).toBe(false);
  });
});

describe('entry ids are stable', () => {
  it('editing the body never changes an id (explicit or the file name)', () => {
    const path = toRelPath('memory/entries/pool-size.md');
    const a = parseDocument({
      path,
      kind: 'entry',
      text: '---\nid: db-pool\ntype: learning\n---\n\n# Pool\n\nTen connections.\n',
    });
    const b = parseDocument({
      path,
      kind: 'entry',
      text: '---\nid: db-pool\ntype: learning\ntitle: Other\n---\n\n# Connection pool size\n\nTwenty connections now.\n',
    });
    expect([a.meta.id, b.meta.id]).toEqual(['db-pool', 'db-pool']);
    const c = parseDocument({ path, kind: 'entry', text: '---\ntype: learning\n---\n\n# Pool\n' });
    const d = parseDocument({
      path,
      kind: 'entry',
      text: '---\ntype: learning\n---\n\n# A different heading and body\n\nMore.\n',
    });
    expect([c.meta.id, d.meta.id]).toEqual(['pool-size', 'pool-size']);
  });

  it('new ids come from one allocator: base, then base-2, base-3 while taken', () => {
    const taken = new Set(['2026-12-01-pool', '2026-12-01-pool-2']);
    expect(firstFreeId('2026-12-01-pool', (x) => taken.has(x))).toBe('2026-12-01-pool-3');
    expect(firstFreeId('2026-12-01-other', (x) => taken.has(x))).toBe('2026-12-01-other');
  });
});
