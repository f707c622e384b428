// Implicit supersession when the change is worded differently from the rule it replaces
// (service/recall/restatement.ts): "avoid virtual environments" then, two days later, "going forward,
// set up a virtual environment". The question asks for the current rule in its own words ("the
// current rule about …"), which no note uses. A later change about a different object (try
// statements in methods) leaves a rule about assert statements in functions alone, and a later
// chat line that is no change ("always so much fun") replaces nothing. Real files, real index, keyword mode.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/service/memory.js';
import { openWorkspace } from '../../support/memory.js';
import { tempDir } from '../../support/fixtures.js';
import { recall } from '../../../src/service/recall/recall.js';

const made: string[] = [];
let mem: Memory;

const note = (root: string, day: string, lines: string[]) =>
  writeFileSync(join(root, 'memory', `${day}.md`), [`# ${day}`, '', ...lines, ''].join('\n'));

beforeAll(async () => {
  const root = tempDir('gitmem-reworded-');
  const indexDir = tempDir('gitmem-reworded-idx-');
  made.push(root, indexDir);
  mkdirSync(join(root, 'memory'));
  note(root, '2024-02-01', [
    '- Mo: I want you to avoid virtual environments altogether; they only add overhead for us.',
    '- Li: Understood, I will stay away from them.',
    '- Mo: Also, always put assert statements in every function you write.',
    '- Li: I love discovering new hiking trails on weekends.',
  ]);
  note(root, '2024-02-03', [
    '- Mo: Going forward, please set up a virtual environment for each of your projects.',
    '- Li: Will do, one per project.',
    '- Mo: From now on, add try statements to every method as well.',
  ]);
  note(root, '2024-02-05', ['- Mo: Exploring new hiking trails is always so much fun.']);
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, model: { enabled: false } }));
  mem = await openWorkspace(root, { indexDir: join(indexDir, 'index') });
  await mem.index();
});

afterAll(async () => {
  await mem?.dispose?.();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('a rule changed in other words', () => {
  it('the change ranks first, the old rule is labelled and left out of the block', async () => {
    const r = await recall(mem.context, 'What is the current rule about virtual environments?', {
      mode: 'keyword',
      limit: 5,
      budget: 800,
    });
    expect(r.results[0]!.path).toBe('memory/2024-02-03.md');
    const old = r.results.find((x) => x.path === 'memory/2024-02-01.md');
    expect(old?.newerStatement).toEqual({ path: 'memory/2024-02-03.md', line: 3, date: '2024-02-03' });
    expect(r.context!.text).toContain('set up a virtual environment');
    expect(r.context!.text).not.toContain('avoid virtual environments');
  });

  it('a later change about another object (methods, not functions) replaces nothing', async () => {
    const r = await recall(mem.context, 'What is the current rule about assert statements in functions?', {
      mode: 'keyword',
      limit: 5,
      budget: 800,
    });
    const rule = r.results.find((x) => x.path === 'memory/2024-02-01.md');
    expect(rule).toBeDefined();
    expect(rule!.newerStatement).toBeUndefined();
    expect(r.context!.text).toContain('assert statements in every function');
  });

  it('a later line that changes no rule replaces nothing', async () => {
    const r = await recall(mem.context, 'Which hiking trails does Li like?', {
      mode: 'keyword',
      limit: 5,
      budget: 800,
    });
    for (const x of r.results) expect(x.newerStatement).toBeUndefined();
  });
});
