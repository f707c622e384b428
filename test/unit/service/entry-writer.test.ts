// The one entry writer (service/shared/entry-writer.ts): input guards first, then the layout check,
// the first free id in the one format, the render, and an exclusive create that never overwrites.
import { describe, expect, it } from 'vitest';
import { entryIdBase, playbookIdBase } from '../../../src/core/entry-id.js';
import { layoutPreset } from '../../../src/core/layout.js';
import type { RelPath } from '../../../src/core/paths.js';
import { checkEntryInput, createEntry, entriesDir, planEntryFile } from '../../../src/service/shared/entry-writer.js';

const layout = layoutPreset('default');
const NOW = new Date('2026-12-01T10:00:00Z');
const TOKEN = ['sk', 'live', 'ab12CD34ef56GH78ij90KL12'].join('_');

/** A file table with an exclusive create: false when the name is taken, as the node port does. */
function files(initial: Record<string, string> = {}) {
  const table = new Map(Object.entries(initial));
  const tried: string[] = [];
  return {
    table,
    tried,
    ctx: {
      loaded: { layout },
      fs: {
        createTextExclusive: async (path: RelPath, text: string) => {
          tried.push(path);
          if (table.has(path)) return false;
          table.set(path, text);
          return true;
        },
      },
    },
  };
}

describe('entry writer', () => {
  it('one id format: <UTC day>-<slug of the title>; a playbook id is the slug, at most eight words', () => {
    expect(entryIdBase(NOW, 'Use lunr, not elasticlunr')).toBe('2026-12-01-use-lunr-not-elasticlunr');
    expect(playbookIdBase('One two three four five six seven eight nine ten')).toBe(
      'one-two-three-four-five-six-seven-eight',
    );
    expect(entriesDir(layout)).toBe('memory/entries');
  });

  it('skips taken ids and files already on disk, never overwriting either', async () => {
    const dir = entriesDir(layout);
    const f = files({ [`${dir}/2026-12-01-pool.md`]: 'someone else' });
    const made = await createEntry(f.ctx, {
      dir,
      base: '2026-12-01-pool',
      taken: (id) => id === '2026-12-01-pool-2',
      data: (id) => ({ type: 'learning', title: `pool ${id}` }),
      body: '\nThe pool holds ten.\n',
    });
    expect(made.id).toBe('2026-12-01-pool-3');
    expect(f.tried).toEqual([`${dir}/2026-12-01-pool.md`, `${dir}/2026-12-01-pool-3.md`]);
    expect(f.table.get(`${dir}/2026-12-01-pool.md`)).toBe('someone else');
    expect(made.text).toBe(
      '---\nid: 2026-12-01-pool-3\ntype: learning\ntitle: pool 2026-12-01-pool-3\n---\n\nThe pool holds ten.\n',
    );
  });

  it('refuses a path an ignore glob covers before anything is created', async () => {
    const f = files();
    const ignoring = { ...f.ctx, loaded: { layout: { ...layout, ignore: ['memory/entries/**'] } } };
    await expect(
      createEntry(ignoring, { dir: 'memory/entries', base: 'x', data: { type: 'learning' }, body: '\nx\n' }),
    ).rejects.toMatchObject({ code: 'path.ignored' });
    expect(f.tried).toEqual([]);
    expect(planEntryFile(ignoring.loaded.layout, { dir: 'memory/entries', base: 'x', data: {}, body: 'x' })).toBe(
      undefined,
    );
  });

  it('input guards: the size cap on the texts as given, then the secret scan of every field', () => {
    expect(() => checkEntryInput({ what: 'remember', sized: { text: 'x'.repeat(100_001) }, scanned: {} })).toThrow(
      /text/,
    );
    expect(() =>
      checkEntryInput({ what: 'remember', sized: { text: 'ok' }, scanned: { tags: ['fine', TOKEN] } }),
    ).toThrow(/remember: refusing a possible secret in tags/);
    expect(() => checkEntryInput({ what: 'remember', sized: { text: 'ok' }, scanned: { text: 'ok' } })).not.toThrow();
  });

  it('an offered file (the editor) is not planned when its name or text would hold a credential', () => {
    const entry = { dir: 'memory/entries', data: { type: 'learning' }, body: '\nplain\n' };
    expect(planEntryFile(layout, { ...entry, base: `2026-12-01-${TOKEN.toLowerCase()}` })).toBeUndefined();
    expect(planEntryFile(layout, { ...entry, base: 'ok', body: `\nkey ${TOKEN}\n` })).toBeUndefined();
    expect(planEntryFile(layout, { ...entry, base: 'ok', taken: (id) => id === 'ok' })?.path).toBe(
      'memory/entries/ok-2.md',
    );
  });
});
