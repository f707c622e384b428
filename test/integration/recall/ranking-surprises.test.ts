// The three ranking surprises a new user reported, over real vendored corpora (fixtures/corpora):
// DREAMS.md proposals above the MEMORY.md line that answers; a recipe sharing one common word lifted
// over strong semantic hits; Obsidian notes made of properties or known by their file name not found.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/service/memory.js';
import { CORPORA } from '../../support/corpora.js';
import { copyDir } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';
import { modelDir } from '../../support/model.js';
import { recall } from '../../../src/service/recall/recall.js';

/**
 * A temp copy of a corpus; `semantic: false` turns the model off (keyword only, nothing to embed).
 * `dreams: [from, to]` keeps only those lines of DREAMS.md (0-based, end exclusive), so the model
 * embeds a few hundred proposals instead of 7,457 lines.
 */
async function open(corpus: string, semantic = true, dreams?: [number, number]): Promise<Memory> {
  const root = copyDir(join(CORPORA, corpus), corpus);
  if (dreams) {
    const lines = readFileSync(join(root, 'DREAMS.md'), 'utf8').split('\n');
    writeFileSync(join(root, 'DREAMS.md'), ['# Dreams', '', ...lines.slice(dreams[0], dreams[1])].join('\n'));
  }
  if (!semantic)
    writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, model: { enabled: false } }));
  const mem = await openWorkspace(root, { modelDir: modelDir() });
  await mem.index();
  return mem;
}

describe('ranking surprises', () => {
  it('openclaw-crontinel: the MEMORY.md line on where secrets are stored ranks above every DREAMS.md proposal', async () => {
    // Keyword only: DREAMS.md is 7,457 lines, embedding it would dominate the test's time.
    const mem = await open('openclaw-crontinel', false);
    for (const mode of ['keyword'] as const) {
      const r = await recall(mem.context, 'where are the secrets stored', { mode, limit: 10 });
      const answer = r.results.findIndex((x) => x.path === 'MEMORY.md' && x.startLine <= 95 && x.endLine >= 95);
      expect(answer, `${mode}: MEMORY.md:95 in the top 3`).toBeGreaterThanOrEqual(0);
      expect(answer, mode).toBeLessThan(3);
      const firstDream = r.results.findIndex((x) => x.kind === 'dreams');
      if (firstDream >= 0) expect(firstDream, mode).toBeGreaterThan(answer);
      expect(r.results[answer]!.snippet).toContain('All secrets in');
    }
    await mem.dispose();
  }, 240_000);

  it('openclaw-crontinel: "which database do we use" gives the MEMORY.md Neon PostgreSQL section above every DREAMS.md proposal', async () => {
    // DREAMS.md lines 3501–4100: the diary nights that talk about databases, Neon and Supabase.
    const mem = await open('openclaw-crontinel', true, [3500, 4100]);
    for (const mode of ['vector', 'hybrid'] as const) {
      const r = await recall(mem.context, 'which database do we use', { mode, limit: 10 });
      expect(r.degraded, mode).toBeNull();
      const answer = r.results.findIndex(
        (x) => x.path === 'MEMORY.md' && x.headingPath.includes('Neon PostgreSQL (ACTIVE)'),
      );
      expect(answer, `${mode}: the Neon PostgreSQL section is found`).toBeGreaterThanOrEqual(0);
      const firstDream = r.results.findIndex((x) => x.kind === 'dreams');
      if (firstDream >= 0) expect(firstDream, mode).toBeGreaterThan(answer);
    }
    // The same copy, hybrid: the secrets line leads the DREAMS.md proposals too.
    const s = await recall(mem.context, 'where are the secrets stored', { mode: 'hybrid', limit: 10 });
    const answer = s.results.findIndex((x) => x.path === 'MEMORY.md' && x.startLine <= 95 && x.endLine >= 95);
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(answer).toBeLessThan(3);
    const firstDream = s.results.findIndex((x) => x.kind === 'dreams');
    if (firstDream >= 0) expect(firstDream).toBeGreaterThan(answer);
    await mem.dispose();
  }, 600_000);

  it('cline-memory-bank: "frontend framework" finds the section headed Frontend Framework, asked plainly or as a question', async () => {
    const mem = await open('cline-memory-bank', false);
    for (const q of ['frontend framework', 'which frontend framework do we use']) {
      const r = await recall(mem.context, q, { mode: 'keyword', limit: 10 });
      const at = r.results.findIndex(
        (x) => x.path === 'techContext.md' && x.headingPath.includes('Frontend Framework'),
      );
      expect(at, q).toBeGreaterThanOrEqual(0);
      expect(at, q).toBeLessThan(3);
    }
    await mem.dispose();
  }, 240_000);

  it('obsidian-kepano: notes are found by file name and by their properties', async () => {
    const mem = await open('obsidian-kepano', false);
    const top = async (q: string) =>
      (await recall(mem.context, q, { mode: 'keyword', limit: 3 })).results.map((x) => x.path);
    expect((await top('Catan'))[0]).toBe('References/Catan.md');
    expect((await top('Blade Runner'))[0]).toBe('References/Blade Runner.md');
    expect((await top('Japan trip'))[0]).toBe('Notes/2023 Japan Trip.md');
    // Property values: a note made only of front-matter.
    expect(await top('Ridley Scott')).toContain('References/Blade Runner.md');
    expect(await top('trip to Kyoto')).toContain('Notes/2023 Japan Trip.md');
    const r = await recall(mem.context, 'Catan', { mode: 'keyword', limit: 1, budget: 400 });
    expect(r.results[0]!.endLine - r.results[0]!.startLine + 1).toBeLessThanOrEqual(5);
    expect(r.context!.text).toContain('- References/Catan.md\n');
    expect(r.context!.text).toContain('[[Board games]]');
    await mem.dispose();
  }, 240_000);

  it('obsidian-kepano: "sci-fi movies I rated highly" is answered by sci-fi notes, not by a recipe that shares "highly"', async () => {
    const mem = await open('obsidian-kepano');
    const r = await recall(mem.context, 'sci-fi movies I rated highly', { mode: 'hybrid', limit: 5, explain: true });
    expect(r.degraded).toBeNull();
    const paths = r.results.map((x) => x.path);
    expect(paths.some((p) => /Brown butter nectarine tart/.test(p))).toBe(false);
    expect([
      'References/Blade Runner.md',
      'References/Futurama.md',
      'References/Sci-fi.md',
      'Categories/Movies.md',
    ]).toContain(paths[0]);
    await mem.dispose();
  }, 240_000);
});
