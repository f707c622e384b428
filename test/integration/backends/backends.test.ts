// Backends beyond the shared contract: the registry and resolution, MemoryBackendError, layered file
// operations (only long-term, DREAMS.md and daily notes; everything else rejected with a typed error),
// memory instructions for prompts, and what only the gitmem backend does (hybrid recall, entries).
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_MEMORY_BACKENDS,
  DEFAULT_MEMORY_BACKEND,
  GitmemMemoryBackend,
  MEMORY_BACKEND_ERROR_CODES,
  MEMORY_BACKEND_SETTINGS_KEYS,
  MEMORY_PROMPT_ROLES,
  MemoryBackendError,
  buildExecutorMemoryInstructions,
  buildMemoryInstructions,
  buildPlanningMemoryInstructions,
  buildReviewerMemoryInstructions,
  getMemoryBackend,
  getMemoryBackendCapabilities,
  isMemoryBackendError,
  listMemoryBackendTypes,
  listProjectMemoryFiles,
  readProjectMemoryFile,
  registerMemoryBackend,
  resolveMemoryBackend,
  resolveMemoryInstructionContext,
  unregisterMemoryBackend,
  writeProjectMemoryFile,
  type MemoryBackend,
} from '../../../src/index.js';
import { contentHash } from '../../../src/core/hash.js';
import { copyFixture, tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';
import { recall } from '../../../src/service/recall/recall.js';

async function errorOf(p: Promise<unknown>): Promise<MemoryBackendError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MemoryBackendError);
    return e as MemoryBackendError;
  }
  throw new Error('expected a MemoryBackendError');
}

const custom = (type: string): MemoryBackend => ({
  type,
  name: `Custom ${type}`,
  capabilities: {
    readable: true,
    writable: false,
    supportsAtomicWrite: false,
    hasConflictResolution: true,
    persistent: false,
  },
  read: async () => ({ content: 'custom', exists: true, backend: type }),
  write: async () => {
    throw new MemoryBackendError('READ_ONLY', 'no', type);
  },
});

describe('registry', () => {
  it('lists the four built-ins; resolves unknown, empty and missing types to the default (gitmem)', () => {
    expect(listMemoryBackendTypes().slice(0, 4)).toEqual(['gitmem', 'file', 'readonly', 'qmd']);
    expect(BUILTIN_MEMORY_BACKENDS).toEqual(['gitmem', 'file', 'readonly', 'qmd']);
    expect(DEFAULT_MEMORY_BACKEND).toBe('gitmem');
    expect(MEMORY_BACKEND_SETTINGS_KEYS.MEMORY_BACKEND_TYPE).toBe('memoryBackendType');
    for (const s of [
      undefined,
      null,
      {},
      { memoryBackendType: '' },
      { memoryBackendType: 'no-such' },
      { memoryBackendType: 42 },
    ]) {
      expect(resolveMemoryBackend(s as never).type).toBe('gitmem');
    }
    expect(resolveMemoryBackend({ memoryBackendType: 'readonly' }).type).toBe('readonly');
    expect(getMemoryBackendCapabilities({ memoryBackendType: 'readonly' }).writable).toBe(false);
    expect(getMemoryBackendCapabilities().writable).toBe(true);
    expect(getMemoryBackend('nope')).toBeUndefined();
  });

  it('registers, overrides and unregisters backends; built-ins are restored, never lost', async () => {
    const c = custom('pgvector');
    registerMemoryBackend(c);
    expect(getMemoryBackend('pgvector')).toBe(c);
    expect(listMemoryBackendTypes()).toContain('pgvector');
    expect(await resolveMemoryBackend({ memoryBackendType: 'pgvector' }).read('/x')).toEqual({
      content: 'custom',
      exists: true,
      backend: 'pgvector',
    });
    expect(unregisterMemoryBackend('pgvector')).toBe(true);
    expect(getMemoryBackend('pgvector')).toBeUndefined();

    const original = getMemoryBackend('file');
    const override = custom('file');
    registerMemoryBackend(override);
    expect(resolveMemoryBackend({ memoryBackendType: 'file' })).toBe(override);
    unregisterMemoryBackend('file');
    expect(getMemoryBackend('file')).not.toBe(override);
    expect(getMemoryBackend('file')!.constructor).toBe(original!.constructor);
  });

  it('bad input: the registry refuses objects that are not backends', () => {
    for (const bad of [
      undefined,
      {},
      { type: '', name: 'x' },
      { type: 'x', name: 'x', capabilities: {}, read: 1, write: () => 0 },
    ]) {
      expect(() => registerMemoryBackend(bad as never)).toThrow(MemoryBackendError);
    }
  });
});

describe('MemoryBackendError', () => {
  it('carries code, backend, data and cause; serialises without the stack', () => {
    const cause = new Error('EACCES');
    const e = new MemoryBackendError('WRITE_FAILED', 'cannot write', 'file', {
      cause,
      data: { path: 'memory/MEMORY.md' },
    });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('MemoryBackendError');
    expect(e.cause).toBe(cause);
    expect(e.toJSON()).toEqual({
      code: 'WRITE_FAILED',
      message: 'cannot write',
      backend: 'file',
      data: { path: 'memory/MEMORY.md' },
    });
    expect(String(e)).toContain('cannot write');
    expect(isMemoryBackendError(e, 'WRITE_FAILED')).toBe(true);
    expect(isMemoryBackendError(e, 'CONFLICT')).toBe(false);
    expect(isMemoryBackendError(cause)).toBe(false);
    expect(MEMORY_BACKEND_ERROR_CODES).toEqual([
      'NOT_FOUND',
      'READ_ONLY',
      'READ_FAILED',
      'WRITE_FAILED',
      'UNSUPPORTED',
      'CONFLICT',
      'QUOTA_EXCEEDED',
      'BACKEND_UNAVAILABLE',
    ]);
  });
});

describe('layered file operations', () => {
  it('list: long-term first, daily notes newest first, dreams last; nothing else (fusion, default, openclaw)', async () => {
    const fusion = await listProjectMemoryFiles(copyFixture('fusion'));
    expect(fusion.map((f) => [f.path, f.layer, f.label])).toEqual([
      ['.fusion/memory/MEMORY.md', 'long-term', 'Long-term memory'],
      ['.fusion/memory/2026-05-02.md', 'daily', 'Daily notes 2026-05-02'],
      ['.fusion/memory/DREAMS.md', 'dreams', 'Dreams'],
    ]);
    expect(fusion[0]!.size).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(fusion[0]!.updatedAt))).toBe(false);
    // default: entries and playbook are memory, but not layered files.
    expect((await listProjectMemoryFiles(copyFixture('default'))).map((f) => f.path)).toEqual([
      'memory/MEMORY.md',
      'memory/2026-11-28.md',
    ]);
    expect((await listProjectMemoryFiles(copyFixture('openclaw'))).map((f) => f.path)).toEqual([
      'MEMORY.md',
      'memory/2026-04-22-night-troubleshooting.md',
      'memory/2026-04-21.md',
    ]);
  });

  it('read and write by path or bare name; a new daily note is created with its folder', async () => {
    const root = copyFixture('fusion');
    expect(await readProjectMemoryFile(root, 'DREAMS.md')).toEqual({
      path: '.fusion/memory/DREAMS.md',
      layer: 'dreams',
      content: readFileSync(join(root, '.fusion/memory/DREAMS.md'), 'utf8'),
    });
    const w = await writeProjectMemoryFile(root, '2026-06-01.md', '# 2026-06-01\n\n- new\n');
    expect(w).toEqual({ success: true, backend: 'file', path: '.fusion/memory/2026-06-01.md' });
    expect(readFileSync(join(root, '.fusion/memory/2026-06-01.md'), 'utf8')).toBe('# 2026-06-01\n\n- new\n');
    const empty = tempDir();
    writeFileSync(join(empty, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'default' }));
    await writeProjectMemoryFile(empty, 'memory/2026-06-02.md', '# d\n');
    expect(existsSync(join(empty, 'memory/2026-06-02.md'))).toBe(true);
  });

  it('bad paths: everything else is rejected with UNSUPPORTED and a reason; disk untouched', async () => {
    const root = copyFixture('default');
    const outside = join(tempDir(), 'outside.md');
    writeFileSync(outside, 'outside\n');
    symlinkSync(outside, join(root, 'memory', '2026-01-01.md'));
    mkdirSync(join(root, 'memory', 'linked'), { recursive: true });
    symlinkSync(tempDir(), join(root, 'memory', 'linked', 'out'));
    const cases: [string, string][] = [
      ['memory/entries/use-lunr.md', 'path.not-memory'],
      ['memory/playbook/run-validate-in-ci.md', 'path.not-memory'],
      ['memory/CURRENT_STATE.md', 'path.not-memory'],
      ['memory/2026-13-45.md', 'path.not-memory'],
      ['memory/notes.md', 'path.not-memory'],
      ['gitmem.config.json', 'path.not-memory'],
      ['README.md', 'path.not-memory'],
      ['../default/memory/MEMORY.md', 'path.outside-root'],
      ['memory/../../x/MEMORY.md', 'path.outside-root'],
      ['/etc/MEMORY.md', 'path.outside-root'],
      ['C:\\memory\\MEMORY.md', 'path.outside-root'],
      ['', 'path.invalid'],
      ['memory/2026-01-02.md\0', 'path.invalid'],
      ['memory/2026-01-01.md', 'path.outside-root'], // symlink to a file outside the root
      ['memory/linked/out/2026-01-03.md', 'path.outside-root'], // through a symlinked folder
    ];
    for (const [path, reason] of cases) {
      const w = await errorOf(writeProjectMemoryFile(root, path, 'pwned\n'));
      expect([path, w.code, w.data?.reason]).toEqual([path, 'UNSUPPORTED', reason]);
      const r = await errorOf(readProjectMemoryFile(root, path));
      expect([path, r.code]).toEqual([path, 'UNSUPPORTED']);
    }
    expect(readFileSync(outside, 'utf8')).toBe('outside\n');
    expect(readFileSync(join(root, 'memory/entries/use-lunr.md'), 'utf8')).not.toContain('pwned');
    expect((await errorOf(readProjectMemoryFile(root, 'memory/2026-02-02.md'))).code).toBe('NOT_FOUND');
    expect((await errorOf(readProjectMemoryFile(join(root, 'nope'), 'MEMORY.md'))).code).toBe('NOT_FOUND');
  });

  it('expectedHash: a concurrent change is a CONFLICT, not a lost update; null means "must not exist"', async () => {
    const root = copyFixture('openclaw');
    const { content } = await readProjectMemoryFile(root, 'MEMORY.md');
    writeFileSync(join(root, 'MEMORY.md'), `${content}- edited by someone else\n`);
    const e = await errorOf(
      writeProjectMemoryFile(root, 'MEMORY.md', 'mine\n', { expectedHash: contentHash(content) }),
    );
    expect(e.code).toBe('CONFLICT');
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toContain('edited by someone else');
    const now = readFileSync(join(root, 'MEMORY.md'), 'utf8');
    await writeProjectMemoryFile(root, 'MEMORY.md', 'mine\n', { expectedHash: contentHash(now) });
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toBe('mine\n');
    expect(
      (await errorOf(writeProjectMemoryFile(root, 'DREAMS.md', 'x', { expectedHash: contentHash('x') }))).code,
    ).toBe('CONFLICT');
    await writeProjectMemoryFile(root, 'DREAMS.md', '# Dreams\n', { expectedHash: null });
    expect((await errorOf(writeProjectMemoryFile(root, 'DREAMS.md', 'again', { expectedHash: null }))).code).toBe(
      'CONFLICT',
    );
  });

  it('bad input: binary, oversized and invalid-config cases are typed errors', async () => {
    const root = copyFixture('fusion');
    writeFileSync(join(root, '.fusion/memory/2026-05-03.md'), Buffer.from([0x23, 0x00, 0x01, 0x02]));
    expect((await errorOf(readProjectMemoryFile(root, '2026-05-03.md'))).data?.reason).toBe('memory.file.binary');
    writeFileSync(
      join(root, 'gitmem.config.json'),
      JSON.stringify({ version: 1, layout: 'fusion', limits: { maxFileBytes: 10 } }),
    );
    const big = await errorOf(readProjectMemoryFile(root, 'MEMORY.md'));
    expect([big.code, big.data?.reason]).toEqual(['READ_FAILED', 'fs.too-large']);
    expect((await errorOf(writeProjectMemoryFile(root, 'MEMORY.md', 'x'.repeat(11)))).code).toBe('QUOTA_EXCEEDED');
    writeFileSync(join(root, 'gitmem.config.json'), '{ not json');
    const bad = await errorOf(listProjectMemoryFiles(root));
    expect([bad.code, bad.data?.reason]).toEqual(['BACKEND_UNAVAILABLE', 'config.invalid']);
  });
});

describe('memory instructions', () => {
  it('memoryEnabled: false gives no instructions for any role or backend', () => {
    for (const type of BUILTIN_MEMORY_BACKENDS) {
      for (const role of MEMORY_PROMPT_ROLES)
        expect(buildMemoryInstructions(role, { memoryEnabled: false, memoryBackendType: type })).toBe('');
    }
    expect(resolveMemoryInstructionContext({ memoryEnabled: false }).enabled).toBe(false);
  });

  it('file backend: path hints from the layout (given, or from the root), read and write guidance', () => {
    const ctx = resolveMemoryInstructionContext({ memoryBackendType: 'file' }, { layout: 'fusion' });
    expect([ctx.instructionPathHint, ctx.dailyPathHint]).toEqual([
      '.fusion/memory/MEMORY.md',
      '.fusion/memory/YYYY-MM-DD.md',
    ]);
    expect(
      resolveMemoryInstructionContext({ memoryBackendType: 'file' }, { rootDir: copyFixture('openclaw') })
        .instructionPathHint,
    ).toBe('MEMORY.md');
    expect(
      resolveMemoryInstructionContext({ memoryBackendType: 'file' }, { rootDir: copyFixture('default') })
        .instructionPathHint,
    ).toBe('memory/MEMORY.md');
    const exec = buildExecutorMemoryInstructions({ memoryBackendType: 'file' }, { layout: 'fusion' });
    expect(exec).toMatch(/^## Project Memory\n/);
    expect(exec).toContain('`.fusion/memory/MEMORY.md`');
    expect(exec).toContain('record only durable');
    expect(exec).toContain('Skip the update when nothing durable was learned');
    expect(exec).toContain('Never store secrets');
  });

  it('non-file backends get no path hint; the default (gitmem) and qmd point at the memory tools', () => {
    for (const type of ['gitmem', 'qmd', 'readonly', undefined]) {
      const ctx = resolveMemoryInstructionContext(type ? { memoryBackendType: type } : {}, { layout: 'fusion' });
      expect([ctx.backendType, ctx.instructionPathHint, ctx.dailyPathHint]).toEqual([type ?? 'gitmem', null, null]);
      for (const role of MEMORY_PROMPT_ROLES) {
        const text = buildMemoryInstructions(role, type ? { memoryBackendType: type } : {}, { layout: 'fusion' });
        expect(text).not.toContain('.fusion/memory');
        expect(text).not.toContain('MEMORY.md');
      }
    }
    const plan = buildPlanningMemoryInstructions({});
    expect(plan).toContain('`memory_search`');
    expect(plan).toContain('gitmem (indexed markdown memory');
    expect(buildExecutorMemoryInstructions({ memoryBackendType: 'qmd' })).toContain('memory write tool');
  });

  it('readonly: read-only wording, no write or update directive in any role', () => {
    for (const role of MEMORY_PROMPT_ROLES) {
      const text = buildMemoryInstructions(role, { memoryBackendType: 'readonly' });
      expect(text).toContain('read-only');
      expect(text).not.toMatch(/record only durable|memory write tool|Skip the update/);
    }
    expect(buildExecutorMemoryInstructions({ memoryBackendType: 'readonly' })).toContain('Do not update memory');
    expect(buildReviewerMemoryInstructions({ memoryBackendType: 'readonly' })).toContain('Do not suggest memory edits');
    expect(buildReviewerMemoryInstructions({ memoryBackendType: 'file' })).toContain(
      'leave the memory edit to the executor',
    );
  });

  it('each role has its own wording; a custom non-readable backend gets none', () => {
    const texts = MEMORY_PROMPT_ROLES.map((r) => buildMemoryInstructions(r, {}));
    expect(new Set(texts).size).toBe(3);
    expect(texts[0]).toContain('Before planning');
    expect(texts[1]).toContain('At the start');
    expect(texts[2]).toContain('Before reviewing');
    registerMemoryBackend({ ...custom('blind'), capabilities: { ...custom('blind').capabilities, readable: false } });
    try {
      expect(buildMemoryInstructions('planning', { memoryBackendType: 'blind' })).toBe('');
    } finally {
      unregisterMemoryBackend('blind');
    }
  });
});

describe('gitmem backend (the indexed store)', () => {
  const backend = new GitmemMemoryBackend({
    modelDir: modelDir(),
    indexDir: () => join(tempDir('gitmem-idx-'), 'index'),
  });
  afterAll(() => backend.dispose());

  it('hybrid recall with the real model (not degraded) finds a paraphrase; entries are readable with get', async () => {
    const root = copyFixture('default');
    const memory = await backend.memoryFor(root);
    const direct = await recall(memory.context, 'splitting camelCase names into words', { mode: 'hybrid' });
    expect(direct.degraded).toBeNull();
    const res = await backend.search(root, { query: 'splitting camelCase names into words', limit: 5 });
    expect(res.map((r) => r.path)).toContain('memory/entries/tokenizer-splits-identifiers.md');
    const hit = res.find((r) => r.path === 'memory/entries/tokenizer-splits-identifiers.md')!;
    const g = await backend.get(root, {
      path: hit.path,
      startLine: hit.lineStart,
      lineCount: hit.lineEnd - hit.lineStart + 1,
    });
    expect(g.content.length).toBeGreaterThan(0);
    expect(await backend.memoryFor(root)).toBe(memory); // one store per root
  });

  it('search follows a write at once (the index re-checks the files)', async () => {
    const root = copyFixture('fusion');
    await backend.write(root, '# Project memory\n\n- Deploys go through the zeppelin pipeline on Fridays.\n');
    const res = await backend.search(root, { query: 'zeppelin pipeline' });
    expect(res[0]?.path).toBe('.fusion/memory/MEMORY.md');
    expect(res[0]?.snippet).toContain('zeppelin');
  });

  it('bad config: an invalid config makes the store BACKEND_UNAVAILABLE; get outside memory is UNSUPPORTED', async () => {
    const root = copyFixture('default');
    expect((await errorOf(backend.get(root, { path: 'gitmem.config.json' }))).code).toBe('UNSUPPORTED');
    writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'no-such-layout' }));
    expect((await errorOf(backend.search(root, { query: 'lunr' }))).code).toBe('BACKEND_UNAVAILABLE');
    expect((await errorOf(backend.read(root))).code).toBe('BACKEND_UNAVAILABLE');
    expect(await backend.exists(root)).toBe(false);
  });
});
