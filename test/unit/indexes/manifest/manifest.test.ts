import { describe, expect, it } from 'vitest';
import { parseManifest, planUpdate, type IndexManifest } from '../../../../src/indexes/manifest/manifest.js';

const H = (c: string) => c.repeat(64);
const manifest: IndexManifest = {
  formatVersion: 1,
  lunrVersion: '2.3.9',
  createdAt: '2026-01-01T00:00:00.000Z',
  fingerprint: 'fp1',
  docs: {
    'memory/MEMORY.md': { contentHash: 'h1', chunkCount: 3 },
    'memory/2026-01-01.md': { contentHash: 'h2', chunkCount: 2 },
    'memory/entries/old.md': { contentHash: 'h3', chunkCount: 1 },
  },
  artifacts: { 'lexical.json': { sha256: H('a'), bytes: 10 } },
  chunkCount: 6,
};

describe('planUpdate', () => {
  it('no manifest: rebuild, everything added', () => {
    expect(planUpdate(undefined, { b: 'x', a: 'y' }, 'fp1')).toEqual({
      rebuild: true,
      reason: 'missing',
      added: ['a', 'b'],
      changed: [],
      removed: [],
    });
  });

  it('unchanged files: nothing to do', () => {
    const current = { 'memory/MEMORY.md': 'h1', 'memory/2026-01-01.md': 'h2', 'memory/entries/old.md': 'h3' };
    expect(planUpdate(manifest, current, 'fp1')).toEqual({ rebuild: false, added: [], changed: [], removed: [] });
  });

  it('added, changed and removed files (B32: edits made while the product was stopped)', () => {
    const current = { 'memory/MEMORY.md': 'h1-edited', 'memory/2026-01-01.md': 'h2', 'memory/entries/new.md': 'h4' };
    expect(planUpdate(manifest, current, 'fp1')).toEqual({
      rebuild: false,
      added: ['memory/entries/new.md'],
      changed: ['memory/MEMORY.md'],
      removed: ['memory/entries/old.md'],
    });
  });

  it('another fingerprint (chunker, tokenizer or config changed): rebuild, diff still reported', () => {
    const plan = planUpdate(manifest, { 'memory/MEMORY.md': 'h1' }, 'fp2');
    expect(plan.rebuild).toBe(true);
    expect(plan.reason).toBe('fingerprint');
    expect(plan.removed).toEqual(['memory/2026-01-01.md', 'memory/entries/old.md']);
  });

  it('another format version, when the caller asks: rebuild', () => {
    expect(planUpdate(manifest, {}, 'fp1', 2)).toMatchObject({ rebuild: true, reason: 'format' });
    expect(planUpdate(manifest, {}, 'fp1', 1).rebuild).toBe(false);
  });

  it('paths that look like Object properties are plain paths', () => {
    const plan = planUpdate(manifest, { constructor: 'x', __proto__: 'y' } as Record<string, string>, 'fp1');
    expect(plan.added).toContain('constructor');
  });
});

describe('parseManifest', () => {
  it('accepts a well-formed manifest', () => {
    expect(parseManifest(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest);
  });

  it.each([
    ['null', null],
    ['array', []],
    ['missing fingerprint', { ...manifest, fingerprint: undefined }],
    ['negative chunkCount', { ...manifest, chunkCount: -1 }],
    ['counts that do not add up', { ...manifest, chunkCount: 7 }],
    ['bad doc', { ...manifest, docs: { a: { contentHash: 1, chunkCount: 6 } } }],
    ['bad checksum', { ...manifest, artifacts: { x: { sha256: 'nothex', bytes: 1 } } }],
    ['fractional bytes', { ...manifest, artifacts: { x: { sha256: H('b'), bytes: 1.5 } } }],
  ])('rejects %s', (_label, json) => {
    expect(parseManifest(json)).toBeUndefined();
  });
});
