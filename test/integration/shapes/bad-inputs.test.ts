// Cases of docs/bad-inputs.md that belong to the foundation, run through the real service (node fs,
// parser, validator, lunr index) or the built CLI. Each test is named by its id.
import { validate } from '../../../src/service/validate/validate.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';
import { recall } from '../../../src/service/recall/recall.js';

/** Write `files` (path → text or bytes) into a fresh workspace folder with a default-layout config. */
function workspace(files: Record<string, string | Uint8Array>, layout = 'default'): string {
  const root = join(tempDir(), 'ws');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, layout }));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

describe('bad inputs (foundation layer)', () => {
  it('B01: operator-only and flag-like queries never throw; --hard finds the playbook entry', async () => {
    const root = workspace({
      'memory/playbook/reset.md':
        '---\ncategory: gotchas\npriority: 5\n---\nUse git reset --hard only after a checkpoint.\n',
    });
    const mem = await openWorkspace(root);
    for (const q of ['~', '^', '+', '-', '--help', '"', ':', '*', 'type:', '~~^^', '+-+-', 'a~2^3', '(', '\\']) {
      const r = await recall(mem.context, q);
      expect(r.results, q).toEqual([]);
    }
    const empty = await recall(mem.context, '~');
    expect(empty.hint).toBeTruthy();
    const hard = await recall(mem.context, '--hard');
    expect(hard.results[0]?.path).toBe('memory/playbook/reset.md');
    // The CLI goes through the same sanitising path.
    const cli = runCli(['recall', '--dir', root, '--json', '--', '--hard']);
    expect(cli.code).toBe(0);
    expect(cli.json().results[0].path).toBe('memory/playbook/reset.md');
  });

  it('B03: CJK and accented words are found by exact-token keyword queries', async () => {
    const root = workspace({
      'memory/DREAMS.md': '# Dreams\n\n東京でミーティング\n',
      'memory/MEMORY.md': '# Memory\n\ncafé über résumé\n',
      'memory/2026-01-02.md': '# 2026-01-02\n\n- The cafe downstairs opens at eight.\n',
    });
    const mem = await openWorkspace(root);
    for (const [q, path] of [
      ['東京', 'memory/DREAMS.md'],
      ['東京でミーティング', 'memory/DREAMS.md'],
      ['café', 'memory/MEMORY.md'],
      ['über', 'memory/MEMORY.md'],
      ['résumé', 'memory/MEMORY.md'],
    ] as const) {
      const r = await recall(mem.context, q, { mode: 'keyword' });
      expect(r.results[0]?.path, q).toBe(path);
    }
    const cafe = await recall(mem.context, 'cafe', { mode: 'keyword' });
    expect(cafe.results.map((r) => r.path)).toContain('memory/2026-01-02.md');
  });

  it('B04: prefix queries are a superset of exact-word queries; / and . separate tokens', async () => {
    const root = workspace({
      'memory/playbook/loader.md':
        '---\ncategory: patterns\n---\nThe module loader is general purpose. Responses are application/json.\n',
    });
    const mem = await openWorkspace(root);
    for (const q of ['module', 'module*', 'general', 'genera*', 'json', 'application']) {
      const r = await recall(mem.context, q);
      expect(
        r.results.map((x) => x.path),
        q,
      ).toEqual(['memory/playbook/loader.md']);
    }
  });

  it('B06: front-matter dates stay strings as written, in any time zone', async () => {
    const note = '---\ndate: 2024-03-10\nupdated: 2024-03-10T23:30:00+05:00\n---\nStand-up notes.\n';
    const root = workspace({
      'memory/2024-03-10.md': note,
      'memory/entries/e.md': '---\ntype: decision\ncreated: 2024-03-10\n---\nPick lunr.\n',
    });
    const mem = await openWorkspace(root);
    const ws = await mem.context.workspace();
    const doc = ws.docs().find((d) => d.path === 'memory/2024-03-10.md')!;
    expect(doc.frontMatter?.data).toEqual({ date: '2024-03-10', updated: '2024-03-10T23:30:00+05:00' });
    expect(doc.meta.date).toBe('2024-03-10');
    for (const tz of ['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
      const r = runCli(
        ['recall', 'stand-up', '--dir', root, '--json', '--since', '2024-03-10', '--until', '2024-03-10'],
        { env: { TZ: tz } },
      );
      expect(
        r.json().results.map((x: any) => x.path),
        tz,
      ).toEqual(['memory/2024-03-10.md']);
      const e = runCli(['recall', 'lunr', '--dir', root, '--json', '--since', '2024-03-10', '--until', '2024-03-10'], {
        env: { TZ: tz },
      });
      expect(
        e.json().results.map((x: any) => x.path),
        tz,
      ).toEqual(['memory/entries/e.md']);
    }
    expect(await validate(mem.context)).toEqual([]);
  });

  it('B08: the same bad file validated repeatedly gives the same diagnostic every time', async () => {
    const bad = '---\n{}+\n---\nbody\n';
    const root = workspace({
      'memory/entries/bad.md': bad,
      'memory/entries/t1.md': '---\ntype: learning\ntags: [a]\n---\nbody\n',
      'memory/entries/t2.md': '---\ntype: learning\ntags: [a]\n---\nbody\n',
    });
    const mem = await openWorkspace(root);
    const first = (await validate(mem.context)).filter((d) => d.path === 'memory/entries/bad.md');
    expect(first.map((d) => d.code)).toContain('memory.front-matter.invalid-yaml');
    for (let i = 0; i < 3; i++) {
      expect((await validate(mem.context)).filter((d) => d.path === 'memory/entries/bad.md')).toEqual(first);
    }
    const ws = await mem.context.workspace();
    const [a, b] = ['memory/entries/t1.md', 'memory/entries/t2.md'].map((p) => ws.tryGet(p as never)!);
    expect(a!.frontMatter!.data).not.toBe(b!.frontMatter!.data);
    expect(a!.frontMatter!.data!.tags).not.toBe(b!.frontMatter!.data!.tags);
  });

  it('B10: BOM, CRLF and LF copies give identical entries; TOML front-matter is a diagnostic, never a crash', async () => {
    const root = workspace({
      'memory/entries/a.md': '\uFEFF---\ntype: decision\n---\nUse lunr.',
      'memory/entries/b.md': '---\r\ntype: decision\r\n---\r\nUse lunr.',
      'memory/entries/c.md': '---\ntype: decision\n---\nUse lunr.',
      'memory/entries/d.md': '---toml\r\ntype = "decision"\r\n---\r\nUse lunr.',
    });
    const mem = await openWorkspace(root);
    const ws = await mem.context.workspace();
    const view = (p: string) => {
      const d = ws.tryGet(p as never)!;
      return {
        data: d.frontMatter?.data,
        type: d.meta.type,
        chunks: d.chunks.map((c) => [c.startLine, c.endLine, c.text]),
      };
    };
    expect(view('memory/entries/a.md')).toEqual(view('memory/entries/c.md'));
    expect(view('memory/entries/b.md')).toEqual(view('memory/entries/c.md'));
    const diags = await validate(mem.context);
    expect(diags.filter((d) => d.path !== 'memory/entries/d.md')).toEqual([]);
    expect(diags.filter((d) => d.path === 'memory/entries/d.md').map((d) => d.code)).toContain(
      'memory.front-matter.unsupported-language',
    );
    const r = await recall(mem.context, 'lunr', { mode: 'keyword' });
    expect(r.results.map((x) => x.path).sort()).toEqual([
      'memory/entries/a.md',
      'memory/entries/b.md',
      'memory/entries/c.md',
      'memory/entries/d.md',
    ]);
  });

  it('B11: a broken link after front-matter is reported on its real file line (LF and CRLF)', async () => {
    const lf = '---\ntitle: a\ntype: learning\n---\n\n# H\n\nsee [x](./missing.md)\n';
    for (const [name, text] of [
      ['lf', lf],
      ['crlf', lf.replace(/\n/g, '\r\n')],
      ['bom', `\uFEFF${lf}`],
    ] as const) {
      const root = workspace({ 'memory/entries/n.md': text });
      const r = runCli(['validate', '--dir', root, '--json']);
      const link = r.json().diagnostics.find((d: any) => d.code === 'memory.link.unresolved');
      expect(link, name).toBeDefined();
      expect(link.range.start, name).toEqual({ line: 7, character: 4 });
      expect(link.range.end.line, name).toBe(7);
    }
  });

  it('B14: CRLF documents: diagnostics at the end of a line stay on that line', async () => {
    const root = workspace({ 'memory/MEMORY.md': '# Memory\r\n\r\n- ends with a link [[nowhere]]\r\n- next line\r\n' });
    const diags = await validate((await openWorkspace(root)).context);
    const d = diags.find((x) => x.code === 'memory.link.unresolved')!;
    expect(d.range.start).toEqual({ line: 2, character: '- ends with a link '.length });
    expect(d.range.end).toEqual({ line: 2, character: '- ends with a link [[nowhere]]'.length });
  });

  it('B34: a huge single-line note is hard-split and searchable; a file over the cap is skipped with a diagnostic', async () => {
    const blob = `{"data":"${'x'.repeat(1_500_000)} needle-in-the-haystack ${'y'.repeat(500_000)}"}`;
    const root = workspace({
      'memory/2026-02-01.md': `# 2026-02-01\n\n${blob}\n`,
      'memory/2026-02-02.md': `# 2026-02-02\n\n${'z '.repeat(3_000_000)}\n`,
      'memory/MEMORY.md': '# Memory\n\n- small and fine\n',
    });
    const mem = await openWorkspace(root);
    const report = await mem.index();
    expect(report.skipped.map((s) => s.path)).toEqual(['memory/2026-02-02.md']);
    const ws = await mem.context.workspace();
    for (const c of ws.tryGet('memory/2026-02-01.md' as never)!.chunks)
      expect(c.text.length).toBeLessThanOrEqual(mem.config.chunking.maxChars);
    const r = await recall(mem.context, 'needle');
    expect(r.results[0]?.path).toBe('memory/2026-02-01.md');
    expect(r.results[0]?.startLine).toBe(3);
    expect(r.results[0]!.snippet.length).toBeLessThanOrEqual(320);
    expect((await recall(mem.context, 'small fine')).results[0]?.path).toBe('memory/MEMORY.md');
    const diags = await validate(mem.context);
    expect(diags.find((d) => d.path === 'memory/2026-02-02.md')?.code).toBe('memory.file.too-large');
  });
});
