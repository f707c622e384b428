// Tags as entities through the real language server (in-process over streams, real files) and the
// real CLI: with memory/tags.md, tag completion shows each tag's category and description (and
// catalogued tags not used yet), an unknown tag is a hint diagnostic, and `gitmem tags --json`
// returns {name, description, category, usageCount}. Build first for the CLI part (`npm run build`).
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, runCli, initRepoOnMain } from '../support/fixtures.js';
import { createLspPair, write, type LspPair } from '../support/lsp.js';

const TAGS = [
  '# Tags',
  '',
  '## search',
  '- category: feature',
  '- description: Recall, ranking and the keyword index.',
  '',
  '## lunr',
  '- category: library',
  '- description: The keyword search library (BM25).',
  '',
  '## security',
  '- category: concern',
  '- description: Secrets, permissions and trust boundaries.',
  '',
].join('\n');

let root: string;
let p: LspPair;

beforeAll(async () => {
  root = copyFixture('default');
  write(root, 'memory/tags.md', TAGS);
  initRepoOnMain(root, 'seed');
  p = createLspPair(root);
  await p.start();
});

afterAll(async () => {
  await p?.close();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('tag catalogue in the editor', () => {
  it('completion shows category and description, and catalogued tags not used yet', async () => {
    const rel = 'memory/entries/draft-tags.md';
    const text = ['---', 'type: learning', 'tags: [s]', '---', '', 'Draft.', ''].join('\n');
    write(root, rel, text);
    await p.open(rel, text);
    const r: any = await p.client.sendRequest('textDocument/completion', {
      textDocument: { uri: p.uri(rel) },
      position: { line: 2, character: 'tags: [s'.length },
    });
    // The draft's own half-typed tag ("s") is in use too; the catalogued unused one comes after the used ones.
    const items = ((Array.isArray(r) ? r : (r?.items ?? [])) as any[]).filter((i) => i.label !== 's');
    expect(items.map((i) => i.label)).toEqual(['search', 'security']);
    expect(items[0]).toMatchObject({ detail: expect.stringMatching(/^feature · used by \d+ memories$/) });
    expect(JSON.stringify(items[0].documentation)).toContain('Recall, ranking and the keyword index.');
    expect(items[1]).toMatchObject({ detail: 'concern · used by 0 memories' });
  });

  it('an unknown tag is a hint diagnostic naming the catalogue', async () => {
    const rel = 'memory/entries/typo-tag.md';
    const text = ['---', 'type: learning', 'tags: [serch, lunr]', '---', '', 'A typo in a tag.', ''].join('\n');
    write(root, rel, text);
    await p.open(rel, text);
    const uri = p.uri(rel);
    await p.inbox.until(
      () => p.inbox.diagnosticsFor(uri).some((d) => d.code === 'memory.tag.unknown'),
      'memory.tag.unknown',
    );
    const ds = p.inbox.diagnosticsFor(uri).filter((d) => d.code === 'memory.tag.unknown');
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({
      severity: 4,
      message: 'tag "serch" is not in memory/tags.md',
      range: { start: { line: 2 } },
    });
  });
});

describe('gitmem tags --json', () => {
  it('returns {name, description, category, usageCount}, catalogued unused tags last', () => {
    const r = runCli(['--json', 'tags', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    const tags = JSON.parse(r.stdout).tags as any[];
    const search = tags.find((t) => t.name === 'search');
    expect(search).toMatchObject({
      name: 'search',
      description: 'Recall, ranking and the keyword index.',
      category: 'feature',
      catalogued: true,
    });
    expect(search.usageCount).toBeGreaterThanOrEqual(3);
    expect(tags.at(-1)).toMatchObject({ name: 'security', category: 'concern', usageCount: 0 });
    const uncatalogued = tags.filter((t) => !t.catalogued);
    for (const t of uncatalogued) expect(t).toMatchObject({ description: null, category: null });
  });

  it('without tags.md there is no catalogue: descriptions are null and no tag is unknown', () => {
    rmSync(`${root}/memory/tags.md`);
    const r = runCli(['--json', 'tags', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    const tags = JSON.parse(r.stdout).tags as any[];
    expect(tags.every((t) => t.description === null && t.category === null && t.usageCount > 0)).toBe(true);
    const v = runCli(['--json', 'validate', '--dir', root]);
    expect(v.stdout).not.toContain('memory.tag.unknown');
  });
});
