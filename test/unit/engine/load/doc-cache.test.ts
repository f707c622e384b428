// DocCache (engine/load/parse-cache.ts) keeps parsed documents by path + kind + content hash, bounded by the
// text it holds: least recently used documents go first, a document larger than the bound is not
// kept, and deleted paths are dropped. A full build (sync.ts statesOf) reads it but does not fill it.
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../../src/core/paths.js';
import { contentHash } from '../../../../src/core/hash.js';
import type { RawFile } from '../../../../src/engine/load/load.js';
import { DocCache } from '../../../../src/engine/load/parse-cache.js';
import { parseDocument } from '../../../../src/parse/parse-document.js';
import { mergeConfig } from '../../../../src/core/config.js';
import { layoutPreset } from '../../../../src/core/layout.js';
import { docRecords } from '../../../../src/engine/chunks/index-manager.js';
import { statesOf } from '../../../../src/engine/freshness/sync.js';

const raw = (path: string, text: string): RawFile => ({
  path: path as RelPath,
  kind: 'note',
  text,
  hash: contentHash(text),
});
const put = (c: DocCache, f: RawFile) => c.set(f, parseDocument({ path: f.path, kind: f.kind, text: f.text }));

describe('DocCache', () => {
  it('hits on the same path, kind and hash; misses on a changed text or kind', () => {
    const c = new DocCache();
    const a = raw('a.md', 'alpha\n');
    put(c, a);
    expect(c.get(a)?.text).toBe('alpha\n');
    expect(c.get(raw('a.md', 'alpha!\n'))).toBeUndefined();
    expect(c.get({ ...a, kind: 'entry' })).toBeUndefined();
  });

  it('holds at most maxChars of text, evicting the least recently used', () => {
    const c = new DocCache(25);
    const a = raw('a.md', 'a'.repeat(10));
    const b = raw('b.md', 'b'.repeat(10));
    const d = raw('d.md', 'd'.repeat(10));
    put(c, a);
    put(c, b);
    expect(c.get(a)).toBeDefined(); // a is now the most recently used
    put(c, d); // 30 chars > 25: b goes
    expect(c.size).toBe(2);
    expect(c.get(b)).toBeUndefined();
    expect(c.get(a)).toBeDefined();
    expect(c.get(d)).toBeDefined();
    put(c, raw('big.md', 'x'.repeat(26)));
    expect(c.get(raw('big.md', 'x'.repeat(26)))).toBeUndefined();
    expect(c.size).toBe(2);
  });

  it('replacing a path does not count its old text twice; retain drops deleted paths', () => {
    const c = new DocCache(25);
    put(c, raw('a.md', 'a'.repeat(10)));
    put(c, raw('a.md', 'A'.repeat(12)));
    put(c, raw('b.md', 'b'.repeat(12)));
    expect(c.size).toBe(2);
    c.retain([raw('b.md', 'b'.repeat(12))]);
    expect(c.size).toBe(1);
    expect(c.get(raw('b.md', 'b'.repeat(12)))).toBeDefined();
  });

  it('a full build reuses cached documents and adds none (it would hold the whole workspace)', () => {
    const c = new DocCache();
    const a = raw('memory/a.md', '# A\n\nalpha beta\n');
    const b = raw('memory/b.md', '# B\n\ngamma delta\n');
    put(c, a);
    const cached = c.get(a)!;
    const loaded = {
      config: mergeConfig(undefined),
      fromFile: false,
      layout: layoutPreset('default'),
      layoutSource: 'config' as const,
    };
    const states = statesOf({ files: [a, b], hashes: { [a.path]: a.hash, [b.path]: b.hash } }, loaded, c);
    expect(states.get(a.path)!.records).toEqual(docRecords(cached));
    expect(states.get(b.path)!.records).toEqual(
      docRecords(parseDocument({ path: b.path, kind: b.kind, text: b.text })),
    );
    expect(c.size).toBe(1);
    expect(c.get(b)).toBeUndefined();
    expect(c.get(a)).toBe(cached);
  });
});
