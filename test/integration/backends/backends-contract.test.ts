// The MemoryBackend contract (docs/DESIGN.md §7) that any backend must pass, run against every built-in
// backend (gitmem with the real embedding model, file, readonly, qmd) on temp copies of
// fixtures/workspaces/{fusion, default, openclaw}. Capabilities decide what is asserted.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_MEMORY_BACKENDS,
  GitmemMemoryBackend,
  MAX_SNIPPET_CHARS,
  MEMORY_BACKEND_ERROR_CODES,
  MemoryBackendError,
  getMemoryBackend,
  resolveMemoryBackend,
} from '../../../src/index.js';
import { copyFixture, tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';

interface Fixture {
  readonly name: 'fusion' | 'default' | 'openclaw';
  /** Long-term file (workspace-relative). */
  readonly longTerm: string;
  /** An existing daily note. */
  readonly daily: string;
  /** Folder daily notes live in. */
  readonly dailyDir: string;
  /** A query and a file that must be among its results. */
  readonly query: string;
  readonly expectPath: string;
}

const FIXTURES: readonly Fixture[] = [
  {
    name: 'fusion',
    longTerm: '.fusion/memory/MEMORY.md',
    daily: '.fusion/memory/2026-05-02.md',
    dailyDir: '.fusion/memory',
    query: 'websocket reconnect race',
    expectPath: '.fusion/memory/2026-05-02.md',
  },
  {
    name: 'default',
    longTerm: 'memory/MEMORY.md',
    daily: 'memory/2026-11-28.md',
    dailyDir: 'memory',
    query: 'truncated index checksums',
    expectPath: 'memory/2026-11-28.md',
  },
  {
    name: 'openclaw',
    longTerm: 'MEMORY.md',
    daily: 'memory/2026-04-21.md',
    dailyDir: 'memory',
    query: 'crontab-watch heartbeat staging',
    expectPath: 'memory/2026-04-21.md',
  },
];

/** Backends whose every read swallows failures (the contract lets a backend promise that). */
const READS_NEVER_THROW = new Set(['readonly']);

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MemoryBackendError);
    expect(MEMORY_BACKEND_ERROR_CODES).toContain((e as MemoryBackendError).code);
    return (e as MemoryBackendError).code;
  }
  return 'resolved';
}

const disk = (root: string, rel: string) => readFileSync(join(root, rel), 'utf8');

beforeAll(() => {
  // The registered gitmem backend finds the model through $GITMEM_MODEL_DIR (real ONNX model, hybrid recall).
  process.env.GITMEM_MODEL_DIR = modelDir();
});

afterAll(async () => {
  await (getMemoryBackend('gitmem') as GitmemMemoryBackend).dispose();
});

describe.each(BUILTIN_MEMORY_BACKENDS.map((type) => ({ type })))('backend contract: $type', ({ type }) => {
  const backend = () => getMemoryBackend(type)!;

  it('declares type, name and five boolean capabilities, and resolves by its type', () => {
    const b = backend();
    expect(b.type).toBe(type);
    expect(typeof b.name).toBe('string');
    expect(b.name.length).toBeGreaterThan(0);
    expect(Object.keys(b.capabilities).sort()).toEqual([
      'hasConflictResolution',
      'persistent',
      'readable',
      'supportsAtomicWrite',
      'writable',
    ]);
    for (const v of Object.values(b.capabilities)) expect(typeof v).toBe('boolean');
    expect(typeof b.read).toBe('function');
    expect(typeof b.write).toBe('function');
    expect(resolveMemoryBackend({ memoryBackendType: type })).toBe(b);
  });

  it('read/exists of a folder that does not exist: no memory, no throw', async () => {
    const missing = join(tempDir(), 'no-such-project');
    const r = await backend().read(missing);
    expect(r).toEqual({ content: '', exists: false, backend: type });
    if (backend().exists) expect(await backend().exists!(missing)).toBe(false);
  });

  it('read/exists of an empty project: no memory', async () => {
    const root = tempDir();
    expect(await backend().read(root)).toEqual({ content: '', exists: false, backend: type });
    if (backend().exists) expect(await backend().exists!(root)).toBe(false);
  });

  describe.each(FIXTURES)('on the $name fixture', (fx) => {
    it('read returns the long-term file verbatim; exists agrees', async () => {
      const root = copyFixture(fx.name);
      const r = await backend().read(root);
      expect(r.backend).toBe(type);
      expect(r).toEqual({ content: disk(root, fx.longTerm), exists: true, backend: type });
      if (backend().exists) expect(await backend().exists!(root)).toBe(true);
    });

    it('B14 write replaces the long-term file atomically, CRLF and unicode verbatim (or throws READ_ONLY and changes nothing)', async () => {
      const root = copyFixture(fx.name);
      const before = disk(root, fx.longTerm);
      const text = '# Memory\r\n\r\n- Ünïcödé, 日本語 and emoji 🎉 survive a round trip.\r\n';
      if (!backend().capabilities.writable) {
        expect(await codeOf(backend().write(root, text))).toBe('READ_ONLY');
        expect(disk(root, fx.longTerm)).toBe(before);
        return;
      }
      const w = await backend().write(root, text);
      expect(w.success).toBe(true);
      expect(w.backend).toBe(type);
      expect(disk(root, fx.longTerm)).toBe(text);
      expect((await backend().read(root)).content).toBe(text);
      // No temp files next to it (write-file-atomic names them <file>.<hash>).
      const base = fx.longTerm.split('/').pop()!;
      expect(
        readdirSync(dirname(join(root, fx.longTerm))).filter((f) => f.startsWith(`${base}.`) || f.endsWith('.tmp')),
      ).toEqual([]);
      // Empty content is a real (empty) file, not "no memory".
      await backend().write(root, '');
      expect(await backend().read(root)).toEqual({ content: '', exists: true, backend: type });
    });

    it('write creates the long-term file and its folders in a project that has none', async () => {
      const root = tempDir();
      writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: fx.name }));
      if (!backend().capabilities.writable) {
        expect(await codeOf(backend().write(root, '# M\n'))).toBe('READ_ONLY');
        expect(existsSync(join(root, fx.longTerm))).toBe(false);
        return;
      }
      await backend().write(root, '# M\n');
      expect(disk(root, fx.longTerm)).toBe('# M\n');
    });

    it('write over limits.maxFileBytes throws QUOTA_EXCEEDED and keeps the old file', async () => {
      const root = copyFixture(fx.name);
      writeFileSync(
        join(root, 'gitmem.config.json'),
        JSON.stringify({ version: 1, layout: fx.name, limits: { maxFileBytes: 1000 } }),
      );
      const before = disk(root, fx.longTerm);
      const code = await codeOf(backend().write(root, 'x'.repeat(1001)));
      expect(code).toBe(backend().capabilities.writable ? 'QUOTA_EXCEEDED' : 'READ_ONLY');
      expect(disk(root, fx.longTerm)).toBe(before);
    });

    it('get returns a 1-based line window of the long-term file, by path and by bare name', async () => {
      const b = backend();
      if (!b.get) return;
      const root = copyFixture(fx.name);
      const lines = disk(root, fx.longTerm).replace(/\n$/, '').split('\n');
      const g = await b.get(root, { path: fx.longTerm, startLine: 2, lineCount: 2 });
      expect(g).toEqual({
        path: fx.longTerm,
        content: lines.slice(1, 3).join('\n'),
        startLine: 2,
        endLine: 3,
        totalLines: lines.length,
        backend: type,
      });
      const whole = await b.get(root, { path: 'MEMORY.md' });
      expect(whole.path).toBe(fx.longTerm);
      expect(whole.content).toBe(lines.join('\n'));
      const daily = await b.get(root, { path: fx.daily.split('/').pop()! });
      expect(daily.path).toBe(fx.daily);
      expect(daily.content.length).toBeGreaterThan(0);
    });

    it('bad paths: get rejects `..`, absolute paths, non-memory files and symlinks out of the root', async () => {
      const b = backend();
      if (!b.get) return;
      const root = copyFixture(fx.name);
      const outside = join(tempDir(), 'secret.md');
      writeFileSync(outside, '# secret\n\n- zanzibarquokka password\n');
      mkdirSync(join(root, fx.dailyDir), { recursive: true });
      symlinkSync(outside, join(root, fx.dailyDir, '2026-01-01.md'));
      writeFileSync(join(root, 'notes.txt'), 'not memory');
      const bad = [
        `../${fx.name}/${fx.longTerm}`,
        `${fx.dailyDir}/../../secret.md`,
        outside,
        join(root, fx.longTerm),
        'notes.txt',
        'package.json',
        `${fx.dailyDir}/2026-01-01.md`,
        '',
        'a\0b.md',
      ];
      for (const path of bad) {
        if (READS_NEVER_THROW.has(type)) {
          const g = await b.get(root, { path });
          expect(g.content, path).toBe('');
          expect(g.totalLines).toBe(0);
        } else {
          expect(await codeOf(b.get(root, { path })), path).toBe('UNSUPPORTED');
        }
      }
      // A layered name that does not exist (yet) is NOT_FOUND, not a path problem.
      if (!READS_NEVER_THROW.has(type))
        expect(await codeOf(b.get(root, { path: `${fx.dailyDir}/2030-01-01.md` }))).toBe('NOT_FOUND');
      // Search never surfaces the file behind the escaping symlink.
      // (A semantic backend may return other, unrelated memories for the query.)
      if (b.search) {
        const hits = await b.search(root, { query: 'zanzibarquokka password' });
        expect(hits.filter((r) => r.path.endsWith('2026-01-01.md') || r.snippet.includes('zanzibarquokka'))).toEqual(
          [],
        );
      }
    });

    it('B34 search returns bounded snippets of memory files (one huge bullet), best first, within the limit; B01 operator-only query gives []', async () => {
      const b = backend();
      if (!b.search) return;
      const root = copyFixture(fx.name);
      // One very long bullet: snippets must stay bounded.
      writeFileSync(
        join(root, fx.longTerm),
        `${disk(root, fx.longTerm)}\n- ${'websocket reconnect race crontab-watch heartbeat truncated index checksums '.repeat(40)}\n`,
      );
      const results = await b.search(root, { query: fx.query, limit: 3 });
      expect(Array.isArray(results)).toBe(true);
      expect(results.length).toBeLessThanOrEqual(3);
      for (const r of results) {
        expect(r.backend).toBe(type);
        expect(r.snippet.length).toBeGreaterThan(0);
        expect(r.snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_CHARS);
        expect(r.lineStart).toBeGreaterThanOrEqual(1);
        expect(r.lineEnd).toBeGreaterThanOrEqual(r.lineStart);
        expect(Number.isFinite(r.score)).toBe(true);
        expect(existsSync(join(root, r.path))).toBe(true);
        if (b.get)
          expect((await b.get(root, { path: r.path, startLine: r.lineStart, lineCount: 1 })).path).toBe(r.path);
      }
      for (let i = 1; i < results.length; i++) expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
      if (type !== 'readonly') {
        const all = await b.search(root, { query: fx.query, limit: 20 });
        expect(all.map((r) => r.path)).toContain(fx.expectPath);
      } else {
        expect(results).toEqual([]);
      }
      expect(await b.search(root, { query: '' })).toEqual([]);
      expect(await b.search(root, { query: '  ?! ' })).toEqual([]);
    });
  });
});
