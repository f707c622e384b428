// Questions about time over real daily notes (keyword recall, the real index): dates the query names
// ("in May 2023", "last week") resolve against `now` and rank the notes of those days up; a "when
// did …" question ranks up the line that states a time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory, type Memory } from '../../../src/service/memory.js';
import { tempDir } from '../../support/fixtures.js';
import { recall } from '../../../src/service/recall/recall.js';

const NOTES: Record<string, string[]> = {
  '2023-04-20': ['- Design review with the platform team: we kept the REST gateway.'],
  '2023-05-08': ['- Design review with the platform team: we moved the gateway to gRPC.'],
  '2023-05-25': ['- Design review with the platform team: the gateway needs rate limits.'],
  '2023-07-10': ['- Design review with the platform team: the gateway rollout is done.'],
  '2023-07-12': [
    '- The platform team talked about the gateway dashboard for a while.',
    '- Moved the gateway rollout to the platform team last Monday, after the review.',
  ],
};

let mem: Memory;
beforeAll(async () => {
  const root = tempDir('gitmem-dates-');
  mkdirSync(join(root, 'memory'), { recursive: true });
  for (const [day, lines] of Object.entries(NOTES))
    writeFileSync(join(root, 'memory', `${day}.md`), `# ${day}\n\n${lines.join('\n')}\n`);
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, model: { enabled: false } }));
  mem = await createMemory({
    fs: createNodeFs(root),
    openStorage: () => createIndexStorage(join(tempDir('gitmem-idx-'), 'index')),
  });
  await mem.index();
});
afterAll(async () => {
  await mem?.dispose();
});

const top = async (q: string, now?: string) =>
  (
    await recall(mem.context, q, { mode: 'keyword', limit: 5, ...(now ? { now: new Date(`${now}T12:00:00Z`) } : {}) })
  ).results.map((r) => r.path);

describe('questions about time', () => {
  it('"in May 2023" ranks the May notes first', async () => {
    const paths = await top('design review platform team gateway in May 2023', '2023-07-15');
    expect(paths.slice(0, 2).sort()).toEqual(['memory/2023-05-08.md', 'memory/2023-05-25.md']);
  });

  it('"last week" resolves against now: the notes of that week lead, and move with now', async () => {
    const july = await top('design review platform team gateway last week', '2023-07-18');
    expect(july.slice(0, 2).sort()).toEqual(['memory/2023-07-10.md', 'memory/2023-07-12.md']);
    // Asked on 2023-05-30, "last week" is 2023-05-16…29: of the notes written by then, 2023-05-25 leads.
    const may = await top('design review platform team gateway last week', '2023-05-30');
    expect(may.filter((p) => p < 'memory/2023-05-31')[0]).toBe('memory/2023-05-25.md');
  });

  it('"when did …" ranks the line that states a time above one that only shares the words', async () => {
    const r = await recall(mem.context, 'when did the platform team take over the gateway rollout', {
      mode: 'keyword',
      limit: 5,
      now: new Date('2023-07-15T12:00:00Z'),
    });
    const first = r.results[0]!;
    expect(first.path).toBe('memory/2023-07-12.md');
    expect(first.snippet).toContain('last Monday');
  });
});
