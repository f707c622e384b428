// Implicit supersession (service/recall/restatement.ts): a rule stated in one daily note and changed
// in a later one. The later statement ranks first, the earlier is labelled `supersededBy` (path:line)
// with `newerStatement` (and its date), and the context block keeps only the newest unless history
// is asked for; then every version is there, files in date order. A merely similar later note (the
// same subject, no rule) leaves the earlier one alone. Real workspace files, real index, keyword mode.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpTools } from '../../../src/mcp/tool-set.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import type { Memory } from '../../../src/service/memory.js';
import type { RecallResponse } from '../../../src/service/recall/types.js';
import { openWorkspace } from '../../support/memory.js';
import { tempDir } from '../../support/fixtures.js';
import { recall } from '../../../src/service/recall/recall.js';

const made: string[] = [];
let mem: Memory;
let root: string;

const note = (root: string, day: string, lines: string[]) =>
  writeFileSync(join(root, 'memory', `${day}.md`), [`# ${day}`, '', ...lines, ''].join('\n'));

beforeAll(async () => {
  root = tempDir('gitmem-restated-');
  const indexDir = tempDir('gitmem-restated-idx-');
  made.push(root, indexDir);
  mkdirSync(join(root, 'memory'));
  note(root, '2024-01-01', [
    '- Ana: Welcome aboard. One convention here: always start function argument names with e_ so they stand out.',
    '- Bo: Got it, e_ for every function argument.',
    '',
    '## Lunch',
    '',
    '- Ana: The canteen opens at noon on Mondays.',
  ]);
  note(root, '2024-01-02', [
    '- Ana: We went hiking on Saturday, the lake was frozen.',
    '- Bo: Sounds lovely. The canteen was closed today.',
  ]);
  note(root, '2024-01-04', [
    '- Ana: A change to our naming: from now on, start function argument names with x_ instead.',
    '- Bo: Understood, x_ it is.',
  ]);
  note(root, '2024-01-05', ['- Bo: I looked at the canteen menu again, the soup was good.']);
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, model: { enabled: false } }));
  mem = await openWorkspace(root, { indexDir: join(indexDir, 'index') });
  await mem.index();
});

afterAll(async () => {
  await mem?.dispose?.();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('a later note that changes a rule', () => {
  it('ranks above the earlier one, which is labelled with where and when it changed', async () => {
    const r = await recall(mem.context, 'rule for naming function arguments', {
      mode: 'keyword',
      limit: 5,
      budget: 800,
    });
    const paths = r.results.map((x) => x.path);
    expect(paths[0]).toBe('memory/2024-01-04.md');
    const old = r.results.find((x) => x.path === 'memory/2024-01-01.md' && x.startLine <= 3);
    expect(old).toBeDefined();
    expect(old!.supersededBy).toEqual(['memory/2024-01-04.md:3']);
    expect(old!.newerStatement).toEqual({ path: 'memory/2024-01-04.md', line: 3, date: '2024-01-04' });
    expect(r.results[0]!.newerStatement).toBeUndefined();
    // The block holds the current rule and not the outdated one.
    expect(r.context!.text).toContain('x_');
    expect(r.context!.text).not.toContain('e_');
  });

  it('with history, every version stays, and the block lists the notes in date order', async () => {
    const r = await recall(mem.context, 'rule for naming function arguments', {
      mode: 'keyword',
      limit: 5,
      budget: 800,
      history: true,
    });
    const text = r.context!.text;
    expect(text).toContain('e_');
    expect(text).toContain('x_');
    expect(text.indexOf('memory/2024-01-01.md')).toBeLessThan(text.indexOf('memory/2024-01-04.md'));
    // The labels stay: history shows which version is outdated.
    expect(r.results.find((x) => x.path === 'memory/2024-01-01.md')!.newerStatement?.date).toBe('2024-01-04');
  });

  it('a question about change gets every version in the block, oldest first, without asking for history', async () => {
    const r = await recall(mem.context, 'how did the naming of function arguments change', {
      mode: 'keyword',
      limit: 5,
      budget: 800,
    });
    const text = r.context!.text;
    expect(text).toContain('e_');
    expect(text).toContain('x_');
    expect(text.indexOf('memory/2024-01-01.md')).toBeLessThan(text.indexOf('memory/2024-01-04.md'));
  });

  it('MCP memory_recall labels the old version and takes history as an argument', async () => {
    const tools = createMcpTools({ memory: mem, fs: createNodeFs(root), git: {} });
    const ask = async (history: boolean) => {
      const r = await tools.call('memory_recall', {
        query: 'rule for naming function arguments',
        mode: 'keyword',
        budget: 800,
        ...(history ? { history } : {}),
      });
      if (!r.ok) throw new Error(r.error.message);
      return r.data as unknown as RecallResponse;
    };
    const now = await ask(false);
    expect(now.results.find((x) => x.path === 'memory/2024-01-01.md')!.supersededBy).toEqual([
      'memory/2024-01-04.md:3',
    ]);
    expect(now.context!.text).not.toContain('e_');
    expect((await ask(true)).context!.text).toContain('e_');
  });

  it('a later note that merely mentions the same thing supersedes nothing', async () => {
    const r = await recall(mem.context, 'when does the canteen open', { mode: 'keyword', limit: 5, budget: 800 });
    expect(r.results.some((x) => x.path === 'memory/2024-01-01.md')).toBe(true);
    for (const x of r.results) expect(x.newerStatement).toBeUndefined();
    expect(r.context!.text).toContain('noon');
  });
});
