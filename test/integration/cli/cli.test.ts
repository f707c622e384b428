// The built CLI as a real process over temp copies of the fixture workspaces: JSON shapes, exit
// codes, remember/dedupe, get, init, doctor, derived-state location and rebuild of a corrupt index.
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, copyFixture, git, runCli, tempDir, gitFixture, requireBuiltCli } from '../../support/fixtures.js';

beforeAll(() => {
  requireBuiltCli();
});

// The tests that only read the demo workspace share one copy, so its index is built and its chunks
// embedded once per file, not once per test; a test that writes, or checks a first build, makes its own.
let demo: string | undefined;
const readOnlyDemo = () => (demo ??= copyFixture('demo'));
afterAll(() => {
  if (demo) rmSync(dirname(demo), { recursive: true, force: true });
});

describe('gitmem recall', () => {
  it('prints the docs/DESIGN.md §8 JSON for the demo workspace', () => {
    const ws = readOnlyDemo();
    const r = runCli(['recall', 'webhook retries jitter', '--dir', ws, '--json']);
    expect(r.code).toBe(0);
    const j = r.json();
    expect(Object.keys(j).sort()).toEqual(['degraded', 'mode', 'query', 'results', 'tookMs']);
    expect(j.query).toBe('webhook retries jitter');
    expect(j.mode).toBe('hybrid');
    expect(j.degraded).toBeNull();
    expect(j.results.length).toBeGreaterThan(0);
    const top = j.results[0];
    expect(top.path).toMatch(/^memory\/(2026-11-2[46]|DREAMS)\.md$/);
    expect(top.startLine).toBeGreaterThanOrEqual(1);
    expect(top.endLine).toBeGreaterThanOrEqual(top.startLine);
    expect(top.snippet.length).toBeLessThanOrEqual(320);
    expect(typeof top.scores.keyword).toBe('number');
    expect(typeof top.scores.vector).toBe('number');
    expect(Array.isArray(top.headingPath)).toBe(true);
  });

  it('without a model, hybrid recall answers from keywords and says why (degraded)', () => {
    const ws = readOnlyDemo();
    const r = runCli(['recall', 'webhook retries jitter', '--dir', ws, '--json'], {
      env: { GITMEM_MODEL_DIR: join(ws, 'no-model-here') },
    });
    expect(r.code).toBe(0);
    const j = r.json();
    expect(j.mode).toBe('keyword');
    expect(j.degraded).toMatch(/model/);
    expect(j.results[0].path).toMatch(/^memory\/(2026-11-2[46]|DREAMS)\.md$/);
    expect(j.results[0].scores).toEqual({ keyword: j.results[0].score, vector: null });
    const doc = runCli(['doctor', '--dir', ws, '--json'], {
      env: { GITMEM_MODEL_DIR: join(ws, 'no-model-here') },
    }).json();
    expect(doc.model.state).toBe('missing');
  });

  it('finds by meaning: a paraphrase with no shared words reaches the right memory in vector mode', () => {
    const ws = readOnlyDemo();
    const r = runCli([
      'recall',
      'we ran out of database connections during a release',
      '--dir',
      ws,
      '--json',
      '--mode',
      'vector',
      '--limit',
      '3',
    ]).json();
    expect(r.mode).toBe('vector');
    expect(r.results.map((x: any) => x.path)).toContain('memory/entries/2026-11-20-postgres-connection-pool.md');
    const explained = runCli(['recall', 'connection pool', '--dir', ws, '--json', '--explain']).json();
    expect(explained.results[0].explain).toEqual(
      expect.objectContaining({ keywordRank: expect.any(Number), vectorRank: expect.any(Number) }),
    );
  });

  it('keyword mode is not degraded; filters by type and tag apply', () => {
    const ws = readOnlyDemo();
    const r = runCli(['recall', 'postgres', '--dir', ws, '--json', '--mode', 'keyword', '--type', 'error_fix']);
    expect(r.code).toBe(0);
    const j = r.json();
    expect(j.degraded).toBeNull();
    expect(j.results.length).toBeGreaterThan(0);
    for (const res of j.results) expect(res.entry?.type).toBe('error_fix');
    const t = runCli(['recall', 'tag:webhooks security', '--dir', ws, '--json']).json();
    expect(t.results.map((x: any) => x.path)).toEqual(['memory/playbook/verify-webhooks-before-parsing.md']);
  });

  it('refuses an absurdly long query with exit 2 and a hint instead of crashing', () => {
    const ws = readOnlyDemo();
    const r = runCli(['recall', '--dir', ws, '--mode', 'vector', '--', 'a '.repeat(20_000)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/limit is 8192/);
    expect(r.stderr).toMatch(/hint:/);
  });

  it('clamps --limit to 50 and rejects a non-number with exit 2', () => {
    const ws = readOnlyDemo();
    expect(runCli(['recall', 'the', '--dir', ws, '--limit', '500', '--json']).code).toBe(0);
    const bad = runCli(['recall', 'x', '--dir', ws, '--limit', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/limit/);
  });

  it('hides superseded entries unless --all', () => {
    const ws = copyFixture('default');
    const hidden = runCli(['recall', 'grep', '--dir', ws, '--json']).json();
    expect(hidden.results.map((r: any) => r.path)).not.toContain('memory/entries/old-search.md');
    const all = runCli(['recall', 'grep', '--dir', ws, '--json', '--all']).json();
    expect(all.results.map((r: any) => r.path)).toContain('memory/entries/old-search.md');
  });

  it('--since/--until filter on daily-note and entry dates', () => {
    const ws = readOnlyDemo();
    const j = runCli([
      'recall',
      'retries',
      '--dir',
      ws,
      '--json',
      '--since',
      '2026-11-25',
      '--until',
      '2026-11-26',
    ]).json();
    expect(j.results.length).toBeGreaterThan(0);
    for (const r of j.results) expect(r.path).toBe('memory/2026-11-26.md');
  });
});

describe('derived state', () => {
  it('lives in <gitdir>/gitmem, never in the work tree, and a corrupt artifact is rebuilt', () => {
    const ws = gitFixture('demo');
    const r1 = runCli(['recall', 'pool', '--dir', ws, '--json']);
    expect(r1.code).toBe(0);
    const idx = join(ws, '.git', 'gitmem');
    // Keyword segments (base + delta) and their chunk tables have content-addressed names; the manifest is the commit point.
    expect(readdirSync(idx).some((n) => /^base-[0-9a-f]+\.lex$/.test(n))).toBe(true);
    expect(readdirSync(idx)).toEqual(expect.arrayContaining(['manifest.json']));
    expect(git(ws, 'status', '--porcelain', '--ignored')).not.toMatch(/gitmem\//);
    // Corrupt the keyword index: it must be detected by checksum and rebuilt, not served.
    const lex = join(
      idx,
      readdirSync(idx).find((n) => /^base-[0-9a-f]+\.lex$/.test(n))!,
    );
    writeFileSync(lex, readFileSync(lex, 'utf8').slice(0, 100));
    const doc = runCli(['doctor', '--dir', ws, '--json']).json();
    expect(doc.index.state).toBe('corrupt');
    const r2 = runCli(['recall', 'pool', '--dir', ws, '--json']);
    expect(r2.code).toBe(0);
    expect(r2.json().results).toEqual(r1.json().results);
    expect(runCli(['doctor', '--dir', ws, '--json']).json().index.state).toBe('fresh');
  });

  it('a plain folder outside git keeps derived state in <workspace>/.gitmem', () => {
    const ws = copyFixture('default');
    const r = runCli(['index', '--dir', ws, '--json']);
    expect(r.code).toBe(0);
    expect(r.json().location).toBe(join(ws, '.gitmem'));
    expect(existsSync(join(ws, '.gitmem', 'manifest.json'))).toBe(true);
    const again = runCli(['index', '--dir', ws, '--json']).json();
    expect(again.source).toBe('loaded');
    // The folder ignores itself: putting the workspace under git later never offers it for a commit.
    git(ws, 'init', '-q');
    expect(git(ws, 'status', '--porcelain', '--untracked-files=all')).not.toMatch(/\.gitmem/);
  });

  it('an edit made while nothing ran is seen by the next recall', () => {
    const ws = copyFixture('default');
    expect(runCli(['recall', 'zeppelin', '--dir', ws, '--json']).json().results).toEqual([]);
    writeFileSync(
      join(ws, 'memory', 'MEMORY.md'),
      `${readFileSync(join(ws, 'memory', 'MEMORY.md'), 'utf8')}\n- The zeppelin hangar key is in the blue box.\n`,
    );
    const j = runCli(['recall', 'zeppelin', '--dir', ws, '--json']).json();
    expect(j.results[0].path).toBe('memory/MEMORY.md');
  });
});

describe('gitmem validate', () => {
  it('exits 0 on a clean workspace and 1 with diagnostics on the broken one', () => {
    expect(runCli(['validate', '--dir', readOnlyDemo()]).code).toBe(0);
    const r = runCli(['validate', '--dir', copyFixture('broken'), '--json']);
    expect(r.code).toBe(1);
    const codes = new Set(r.json().diagnostics.map((d: any) => d.code));
    for (const c of [
      'memory.front-matter.invalid-yaml',
      'memory.front-matter.unsupported-language',
      'memory.front-matter.unclosed',
      'memory.schema.invalid-value',
      'memory.schema.unknown-field',
      'memory.entry.duplicate-id',
      'memory.link.unresolved',
      'memory.file.binary',
    ]) {
      expect(codes, c).toContain(c);
    }
    for (const d of r.json().diagnostics) {
      expect(Object.keys(d).sort()).toEqual(['code', 'message', 'path', 'range', 'severity']);
    }
  });

  it('a path outside the workspace is refused with exit 1 and one line', () => {
    const ws = readOnlyDemo();
    const r = runCli(['validate', '../../etc/passwd.md', '--dir', ws]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/escapes the workspace root/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace without --debug
  });
});

describe('gitmem remember and get', () => {
  it('creates an entry, reports a duplicate, and reads it back by id and by path range', () => {
    const ws = copyFixture('default');
    const text = 'Run the migrations before seeding the test database.';
    const a = runCli(['remember', text, '--type', 'learning', '--tag', 'db,testing', '--dir', ws, '--json']);
    expect(a.code).toBe(0);
    const created = a.json();
    expect(created.status).toBe('created');
    expect(created.path).toMatch(/^memory\/entries\/\d{4}-\d{2}-\d{2}-run-the-migrations.*\.md$/);
    const b = runCli([
      'remember',
      'run the migrations before seeding the test database',
      '--type',
      'learning',
      '--dir',
      ws,
      '--json',
    ]).json();
    expect(b).toEqual({ status: 'duplicate', id: created.id, path: created.path, duplicateOf: created.id });
    // Another type is not a duplicate.
    expect(runCli(['remember', text, '--type', 'warning', '--dir', ws, '--json']).json().status).toBe('created');
    const g = runCli(['get', created.id, '--dir', ws, '--json']).json();
    expect(g.entry).toEqual({ id: created.id, type: 'learning', tags: ['db', 'testing'] });
    expect(g.text).toContain(text);
    const lines = runCli(['get', 'memory/MEMORY.md:3-4', '--dir', ws, '--json']).json();
    expect(lines).toMatchObject({ path: 'memory/MEMORY.md', startLine: 3, endLine: 4 });
    expect(lines.text.split('\n')).toHaveLength(2);
    expect(runCli(['validate', '--dir', ws]).code).toBe(0);
    const found = runCli(['recall', 'seeding migrations', '--dir', ws, '--json']).json();
    expect(found.results.slice(0, 2).map((r: any) => r.entry?.id)).toContain(created.id);
  });

  it('six agents remembering the same finding at once give one entry and five duplicates', async () => {
    const ws = copyFixture('default');
    const { spawn } = await import('node:child_process');
    const one = () =>
      new Promise<any>((resolve, reject) => {
        const p = spawn(process.execPath, [
          CLI,
          'remember',
          'parallel identical text about zookeeper',
          '--type',
          'decision',
          '--dir',
          ws,
          '--json',
        ]);
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        p.on('error', reject);
        p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}`))));
      });
    const results = await Promise.all([one(), one(), one(), one(), one(), one()]);
    expect(results.filter((r) => r.status === 'created')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(5);
    expect(readdirSync(join(ws, 'memory', 'entries')).filter((f) => f.includes('zookeeper'))).toHaveLength(1);
  });

  it('dedupe lists duplicates, --apply marks them duplicate_of (one line) and recall hides them', () => {
    const ws = copyFixture('default');
    const dir = join(ws, 'memory', 'entries');
    writeFileSync(
      join(dir, 'a.md'),
      '---\nid: a\ntype: learning\ncreated: 2026-01-01\n---\n\nThe staging database is reset every Sunday night.\n',
    );
    writeFileSync(
      join(dir, 'b.md'),
      '---\nid: b\ntype: learning\ncreated: 2026-02-01\n---\n\nthe staging database is reset every sunday night!\n',
    );
    writeFileSync(
      join(dir, 'c.md'),
      '---\nid: c\ntype: warning\ncreated: 2026-02-01\n---\n\nThe staging database is reset every Sunday night.\n',
    );
    const dry = runCli(['dedupe', '--dir', ws, '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json().findings).toEqual([
      {
        path: 'memory/entries/b.md',
        id: 'b',
        duplicateOf: 'a',
        duplicateOfPath: 'memory/entries/a.md',
        reason: 'same-text',
        similarity: 1,
      },
    ]);
    expect(readFileSync(join(dir, 'b.md'), 'utf8')).not.toMatch(/duplicate_of/);
    expect(runCli(['dedupe', '--apply', '--dir', ws, '--json']).json().applied).toBe(1);
    expect(readFileSync(join(dir, 'b.md'), 'utf8')).toBe(
      '---\nid: b\ntype: learning\ncreated: 2026-02-01\nduplicate_of: a\n---\n\nthe staging database is reset every sunday night!\n',
    );
    const r = runCli(['recall', 'staging database sunday', '--dir', ws, '--json', '--mode', 'keyword']).json();
    expect(r.results.map((x: any) => x.path).sort()).toEqual(['memory/entries/a.md', 'memory/entries/c.md']);
    expect(runCli(['dedupe', '--dir', ws, '--json']).json().findings).toEqual([]);
  });

  it('recall: evidence span inside its chunk, --context adds the surrounding lines, --now is validated', () => {
    const ws = readOnlyDemo();
    const a = runCli([
      'recall',
      'webhook signature',
      '--dir',
      ws,
      '--json',
      '--mode',
      'keyword',
      '--context',
      '2',
      '--budget',
      '400',
    ]).json();
    expect(a.results.length).toBeGreaterThan(0);
    for (const r of a.results) {
      expect(r.startLine).toBeGreaterThanOrEqual(r.chunk.startLine);
      expect(r.endLine).toBeLessThanOrEqual(r.chunk.endLine);
      expect(r.endLine - r.startLine + 1).toBeLessThanOrEqual(5);
      expect(r.contextSpan.startLine).toBeLessThanOrEqual(r.startLine);
      expect(r.contextSpan.endLine).toBeGreaterThanOrEqual(r.endLine);
    }
    expect(a.context.text).toContain(`- ${a.results[0].path}\n`);
    expect(a.context.text).toContain(`\n${a.results[0].startLine}: `);
    expect(runCli(['recall', 'x', '--dir', ws, '--now', '2026-02-30']).code).toBe(2);
    expect(runCli(['recall', 'x', '--dir', ws, '--context', '-1']).code).toBe(2);
  });

  it('retrieval audit: on by default, audit shows what each agent-facing call was given, newest first', () => {
    const ws = copyFixture('demo');
    const env = { GITMEM_NO_HOST: '1' };
    const a = runCli(['hook', 'prompt', '--prompt', 'webhook signature', '--dir', ws, '--json', '--budget', '300'], {
      env,
    }).json();
    // A person's recall is not an agent's: not logged.
    runCli(['recall', 'lunr', '--dir', ws, '--json', '--mode', 'keyword'], { env });
    runCli(['hook', 'prompt', '--prompt', 'bigint', '--dir', ws, '--json'], { env });
    const log = runCli(['audit', '--dir', ws, '--json'], { env }).json();
    expect(log.enabled).toBe(true);
    expect(log.entries.map((e: any) => [e.channel, e.query])).toEqual([
      ['hook', 'bigint'],
      ['hook', 'webhook signature'],
    ]);
    expect(log.entries[1].results.length).toBeGreaterThan(0);
    expect(a.block).toContain(`- ${log.entries[1].results[0].path}`);
    expect(log.entries[1].bytes).toBe(a.bytes);
    expect(a.bytes).toBeLessThanOrEqual(300);
  });

  it('rejects an unknown type with exit 2 and a missing id with exit 1', () => {
    const ws = copyFixture('default');
    expect(runCli(['remember', 'x', '--type', 'opinion', '--dir', ws]).code).toBe(2);
    const r = runCli(['get', 'no-such-id', '--dir', ws]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no memory with id/);
    expect(runCli(['get', '../outside.md', '--dir', ws]).code).toBe(1);
  });

  it('refuses to write through a symlink that leaves the workspace', () => {
    const ws = copyFixture('default');
    const outside = tempDir('gitmem-outside-');
    symlinkSync(outside, join(ws, 'memory', 'entries', 'escape'));
    const r = runCli(['get', 'memory/entries/escape/x.md', '--dir', ws]);
    expect(r.code).toBe(1);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('gitmem init and doctor', () => {
  it('scaffolds each layout once and never overwrites', () => {
    for (const layout of ['default', 'openclaw', 'fusion']) {
      const ws = join(tempDir(), 'new');
      mkdirSync(ws);
      const first = runCli(['init', '--layout', layout, '--dir', ws, '--json']);
      expect(first.code).toBe(0);
      expect(first.json().created.length).toBeGreaterThanOrEqual(5);
      const memPath = join(
        ws,
        first.json().created.find((p: string) => p.endsWith('MEMORY.md')),
      );
      writeFileSync(memPath, '# Mine\n\n- keep me\n');
      const second = runCli(['init', '--layout', layout, '--dir', ws, '--json']).json();
      expect(second.created).toEqual([]);
      expect(readFileSync(memPath, 'utf8')).toBe('# Mine\n\n- keep me\n');
      const doc = runCli(['doctor', '--dir', ws, '--json']).json();
      expect(doc.layout).toEqual({ name: layout, source: 'config' });
      expect(runCli(['validate', '--dir', ws]).code).toBe(0);
      // Keyword mode: the scaffold is the subject here, not the embedding.
      expect(runCli(['recall', 'keep', '--dir', ws, '--json', '--mode', 'keyword']).json().results[0].path).toBe(
        first.json().created.find((p: string) => p.endsWith('MEMORY.md')),
      );
    }
  });

  it('refuses to scaffold a second layout over an existing one', () => {
    const ws = readOnlyDemo();
    const r = runCli(['init', '--layout', 'plain', '--dir', ws]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already uses the default layout/);
    expect(existsSync(join(ws, 'MEMORY.md'))).toBe(false);
  });

  it('usage errors: unknown --type, impossible dates', () => {
    const ws = readOnlyDemo();
    expect(runCli(['recall', 'x', '--type', 'bogus', '--dir', ws]).code).toBe(2);
    expect(runCli(['recall', 'x', '--since', '2026-02-30', '--dir', ws]).code).toBe(2);
  });

  it('help, version and unknown commands', () => {
    const h = runCli(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/recall/);
    expect(runCli(['recall', '--help']).stdout).toMatch(/--since/);
    expect(runCli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(runCli(['frobnicate']).code).toBe(2);
    expect(runCli(['recall']).code).toBe(2);
  });
});
