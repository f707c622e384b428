// Service over temp copies of fixtures/workspaces/{default, openclaw, fusion, broken, demo}:
// layout detection, what is memory, recall across kinds, and a broken workspace that still works.
import { validate } from '../../../src/service/validate/validate.js';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';
import { recall } from '../../../src/service/recall/recall.js';

describe('layouts', () => {
  it('default: config layout, entries, daily notes, playbook', async () => {
    const mem = await openWorkspace(copyFixture('default'));
    expect(mem.loaded.layout.name).toBe('default');
    const ws = await mem.context.workspace();
    const kinds = Object.fromEntries(ws.docs().map((d) => [d.path, d.kind]));
    expect(kinds).toEqual({
      'memory/2026-11-28.md': 'daily',
      'memory/MEMORY.md': 'long_term',
      'memory/entries/old-search.md': 'entry',
      'memory/entries/tokenizer-splits-identifiers.md': 'entry',
      'memory/entries/use-lunr.md': 'entry',
      'memory/playbook/run-validate-in-ci.md': 'playbook',
    });
    const r = await recall(mem.context, 'user name identifiers');
    expect(r.results[0]?.entry?.id).toBe('tokenizer-splits-identifiers');
  });

  it('openclaw is detected with no config; root MEMORY.md and memory/ daily notes are memory, AGENTS.md is not', async () => {
    const mem = await openWorkspace(copyFixture('openclaw'));
    expect(mem.loaded.layoutSource).toBe('detected');
    expect(mem.loaded.layout.name).toBe('openclaw');
    const paths = (await mem.context.workspace()).docs().map((d) => [d.path, d.kind]);
    expect(paths).toEqual([
      ['MEMORY.md', 'long_term'],
      ['memory/2026-04-21.md', 'daily'],
      ['memory/2026-04-22-night-troubleshooting.md', 'daily'],
    ]);
    expect((await recall(mem.context, 'webhook 429')).results[0]?.path).toBe(
      'memory/2026-04-22-night-troubleshooting.md',
    );
    expect((await recall(mem.context, '东京', { mode: 'keyword' })).results[0]?.path).toBe('memory/2026-04-21.md');
    expect((await recall(mem.context, '服务器延迟', { mode: 'keyword' })).results[0]?.path).toBe(
      'memory/2026-04-21.md',
    );
    expect((await recall(mem.context, 'session start', { mode: 'keyword' })).results).toEqual([]); // AGENTS.md is not memory
  });

  it('fusion is detected from .fusion/memory and nothing outside it is memory', async () => {
    const mem = await openWorkspace(copyFixture('fusion'));
    expect(mem.loaded.layout.name).toBe('fusion');
    const docs = (await mem.context.workspace()).docs();
    expect(docs.map((d) => d.path)).toEqual([
      '.fusion/memory/2026-05-02.md',
      '.fusion/memory/DREAMS.md',
      '.fusion/memory/MEMORY.md',
    ]);
    expect(docs.map((d) => d.kind)).toEqual(['daily', 'dreams', 'long_term']);
    expect((await recall(mem.context, 'websocket reconnect race')).results[0]?.path).toBe(
      '.fusion/memory/2026-05-02.md',
    );
  });

  it('broken: every file gets diagnostics or loads, recall still works over the good parts', async () => {
    const root = copyFixture('broken');
    const mem = await openWorkspace(root);
    const diags = await validate(mem.context);
    const byPath = new Map<string, string[]>();
    for (const d of diags) byPath.set(d.path, [...(byPath.get(d.path) ?? []), d.code]);
    expect(byPath.get('memory/entries/js-front-matter.md')).toContain('memory.front-matter.unsupported-language');
    expect(byPath.get('memory/entries/invalid-yaml.md')).toContain('memory.front-matter.invalid-yaml');
    expect(byPath.get('memory/entries/unclosed.md')).toContain('memory.front-matter.unclosed');
    expect(byPath.get('memory/2026-01-01.md')).toEqual(['memory.file.binary']);
    expect(byPath.get('memory/entries/dup-a.md')).toContain('memory.entry.duplicate-id');
    expect(byPath.get('memory/entries/dup-b.md')).toContain('memory.entry.duplicate-id');
    expect(byPath.get('memory/entries/bom-crlf.md') ?? []).toEqual([]);
    // The JavaScript block was never evaluated.
    expect((globalThis as Record<string, unknown>).GITMEM_PWNED).toBeUndefined();
    // The unclosed file keeps its body; the BOM+CRLF entry is a normal entry.
    expect((await recall(mem.context, 'body is kept even though')).results[0]?.path).toBe('memory/entries/unclosed.md');
    const bom = await recall(mem.context, 'byte-order mark');
    expect(bom.results[0]?.entry).toEqual({ id: 'bom-crlf', type: 'decision', tags: [] });
    // The emoji line's unresolved link sits at the right UTF-16 column.
    const emoji = diags.find((d) => d.path === 'memory/MEMORY.md' && d.range.start.line === 3);
    const line = readFileSync(join(root, 'memory', 'MEMORY.md'), 'utf8').split('\n')[3]!;
    expect(emoji?.range.start.character).toBe(line.indexOf('[[also-missing]]'));
  });

  it('a file deleted between two recalls leaves the index', async () => {
    const root = copyFixture('default');
    const mem = await openWorkspace(root);
    expect((await recall(mem.context, 'München')).results.length).toBe(1);
    rmSync(join(root, 'memory', '2026-11-28.md'));
    expect((await recall(mem.context, 'München')).results).toEqual([]);
    writeFileSync(join(root, 'memory', '2026-11-29.md'), '# 2026-11-29\n\n- Back in München for the café.\n');
    expect((await recall(mem.context, 'München')).results.map((r) => r.path)).toEqual(['memory/2026-11-29.md']);
  });
});
