// The always-loaded budget over real files and the real CLI: validate warns at the first line a
// host would cut, doctor lists what it would drop, and config load.maxLines / load.maxBytes move
// the cut. A MEMORY.md inside the budget gets nothing (bad input V03).
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCut } from '../../../src/core/budget.js';
import { copyFixture, runCli } from '../../support/fixtures.js';
import { write } from '../../support/lsp.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(dirname(r), { recursive: true, force: true });
});

const memoryMd = (n: number) =>
  [
    '# Memory',
    '',
    ...Array.from({ length: n }, (_, i) => `- fact ${i + 1}: the service keeps its state in files`),
    '',
  ].join('\n');

describe('always-loaded budget', () => {
  it('validate warns at line 201 of a 252-line MEMORY.md; doctor lists what a host drops', () => {
    const root = copyFixture('default');
    roots.push(root);
    write(root, 'memory/MEMORY.md', memoryMd(250));
    const v = runCli(['validate', '--json', '--dir', root]);
    const d = v.json().diagnostics.filter((x: any) => x.code === 'memory.load.over-budget');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ path: 'memory/MEMORY.md', severity: 'warning', range: { start: { line: 200 } } });
    const doc = runCli(['doctor', '--json', '--dir', root]).json();
    expect(doc.load).toMatchObject({ maxLines: 200, maxBytes: 20000 });
    expect(doc.load.over).toEqual([
      {
        path: 'memory/MEMORY.md',
        lines: 252,
        bytes: expect.any(Number),
        cutAtLine: 201,
        by: 'lines',
        droppedLines: 52,
        droppedBytes: expect.any(Number),
      },
    ]);
    const human = runCli(['doctor', '--dir', root]);
    expect(human.stdout).toMatch(/memory\/MEMORY\.md: a host drops lines 201–252 \(52 lines/);
  });

  it('config load.maxBytes cuts by bytes (multi-byte text counted in UTF-8); within budget nothing is reported', () => {
    const root = copyFixture('default');
    roots.push(root);
    write(root, 'memory/MEMORY.md', ['# Memory', '', '- café über straße', '- 東京の天気', '- ok', ''].join('\n'));
    writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ load: { maxBytes: 40 } }));
    // "# Memory\n" 9 + "\n" 1 + "- café über straße\n" 23 = 33 bytes; the next line (17 bytes) passes 40.
    expect(
      loadCut('# Memory\n\n- café über straße\n- 東京の天気\n- ok\n', { maxLines: 200, maxBytes: 40 }),
    ).toMatchObject({ line: 3, by: 'bytes', droppedLines: 2 });
    const d = runCli(['validate', '--json', '--dir', root])
      .json()
      .diagnostics.filter((x: any) => x.code === 'memory.load.over-budget');
    expect(d.map((x: any) => x.range.start.line)).toEqual([3]);
    writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ load: { maxBytes: 20000, maxLines: 200 } }));
    expect(
      runCli(['validate', '--json', '--dir', root])
        .json()
        .diagnostics.filter((x: any) => x.code === 'memory.load.over-budget'),
    ).toEqual([]);
    expect(runCli(['doctor', '--json', '--dir', root]).json().load.over).toEqual([]);
    writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ load: { maxLines: 0 } }));
    expect(runCli(['validate', '--dir', root]).code).not.toBe(0); // an invalid budget is a config error
  });
});
