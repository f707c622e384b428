// Evidence spans past a chunk's edge (`recall.evidenceAround`): a chat turn that asks is the last
// line of its chunk and the reply that answers is the first line of the next; the span anchored in
// the matching chunk covers the reply. Real workspace files, real index, keyword mode (no model).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../../support/memory.js';
import { tempDir } from '../../support/fixtures.js';
import { recall } from '../../../src/service/recall/recall.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

async function recallIn(around: number | undefined) {
  const root = tempDir('gitmem-around-');
  const indexDir = tempDir('gitmem-around-idx-');
  made.push(root, indexDir);
  mkdirSync(join(root, 'memory'));
  // Lines 3–7 are one chunk (five bullets), lines 8–12 the next.
  writeFileSync(
    join(root, 'memory', '2024-01-02.md'),
    [
      '# 2024-01-02',
      '',
      '- Kate: Morning!',
      '- Mel: Hi Kate, long week?',
      '- Kate: Busy, the shop was full.',
      '- Mel: Same here, lots going on.',
      '- Mel: So what did the vet say about the turtle?',
      '- Kate: Shell rot, caught early; antibiotics for two weeks.',
      '- Mel: Poor thing, glad it is treatable.',
      '- Kate: Me too. Coffee on Friday?',
      '- Mel: Sure, at ten.',
      '- Kate: See you then.',
      '',
    ].join('\n'),
  );
  const recallConfig = around === undefined ? {} : { evidenceAround: around };
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, model: { enabled: false }, recall: recallConfig }),
  );
  const mem = await openWorkspace(root, { indexDir: join(indexDir, 'index') });
  await mem.index();
  const r = await recall(mem.context, 'what did the vet say about the turtle', { mode: 'keyword', limit: 3 });
  await mem.dispose?.();
  return r;
}

describe('evidence spans past the chunk', () => {
  it('with evidenceAround 2 the span of the asking turn covers the reply after the chunk', async () => {
    const r = await recallIn(2);
    const top = r.results[0]!;
    expect(top.chunk).toEqual({ startLine: 3, endLine: 7 });
    expect(top.startLine).toBeLessThanOrEqual(7);
    expect(top.endLine).toBeGreaterThanOrEqual(8);
    expect(top.endLine - top.startLine + 1).toBeLessThanOrEqual(5);
    expect(top.snippet).toContain('Shell rot');
  });

  it('by default (evidenceAround 0) the span stays inside its chunk', async () => {
    const r = await recallIn(undefined);
    const top = r.results[0]!;
    expect(top.chunk).toEqual({ startLine: 3, endLine: 7 });
    expect(top.endLine).toBe(7);
    expect(top.snippet).not.toContain('Shell rot');
  });

  it('a config value out of range is rejected with a clear error', async () => {
    await expect(recallIn(-1)).rejects.toThrow(/evidenceAround/);
  });
});
