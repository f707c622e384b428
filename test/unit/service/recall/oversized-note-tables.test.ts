// The recall note on files over `limits.maxFileBytes` (service/recall/skipped-files.ts, R62) read from a
// loaded index whose per-file entries are in file tables (indexes/manifest/manifest-files.ts): the
// size markers are found by walking the tables' columns, the delta's rows winning over the base's,
// exactly as the manifest's `docs` lists them (issue 46: a recall no longer makes `docs` at 100k files).
import { describe, expect, it } from 'vitest';
import type { IndexSnapshot } from '../../../../src/engine/chunks/index-manager.js';
import { encodeFileTable } from '../../../../src/indexes/manifest/file-table.js';
import { withTables } from '../../../../src/indexes/manifest/manifest-files.js';
import type { IndexManifest } from '../../../../src/indexes/manifest/manifest.js';
import { oversizedNote } from '../../../../src/service/recall/skipped-files.js';

function loaded(): IndexManifest {
  const base = encodeFileTable([
    ['memory/a.md', { contentHash: 'size:10:1', chunkCount: 0 }],
    ['memory/b.md', { contentHash: 'h-b', chunkCount: 2, stat: 's-b' }],
    ['memory/c.md', { contentHash: 'size:30:1', chunkCount: 0 }],
    ['memory/e.md', { contentHash: 'size:50:1', chunkCount: 0 }],
  ]);
  // Since the base: c.md shrank under the cap, d.md was added over it, e.md was removed.
  const delta = encodeFileTable([
    ['memory/c.md', { contentHash: 'h-c', chunkCount: 1 }],
    ['memory/d.md', { contentHash: 'size:40:1', chunkCount: 0 }],
    ['memory/e.md', null],
  ]);
  const manifest = {
    formatVersion: 9,
    lunrVersion: '2.3.9',
    createdAt: new Date(0).toISOString(),
    fingerprint: 'fp',
    docs: {},
    artifacts: {},
    files: { base: 'files-base.bin', delta: 'files-delta-x.bin' },
    chunkCount: 3,
  } as unknown as IndexManifest;
  return withTables(manifest, { 'files-base.bin': base, 'files-delta-x.bin': delta });
}

describe('oversized note from a loaded index', () => {
  it('names the files the tables mark, the delta winning, as the manifest docs list them', () => {
    const manifest = loaded();
    const note = oversizedNote({ manifest } as unknown as IndexSnapshot, undefined, 20);
    expect(note).toBe(
      '2 memory files are over limits.maxFileBytes (20 bytes) and not searched: memory/a.md (10 bytes), ' +
        'memory/d.md (40 bytes); split them, or raise limits.maxFileBytes in gitmem.config.json',
    );
    const fromDocs = Object.entries(manifest.docs).filter(([, d]) => d.contentHash.startsWith('size:'));
    expect(fromDocs.map(([p]) => p).sort()).toEqual(['memory/a.md', 'memory/d.md']);
  });

  it('says nothing when no file is marked', () => {
    const manifest = withTables(
      {
        ...loaded(),
        files: { base: 'files-only.bin' },
        chunkCount: 2,
      } as unknown as IndexManifest,
      { 'files-only.bin': encodeFileTable([['memory/b.md', { contentHash: 'h-b', chunkCount: 2 }]]) },
    );
    expect(oversizedNote({ manifest } as unknown as IndexSnapshot, undefined, 20)).toBeUndefined();
  });
});
