// A workspace of many files whose [[links]] name no id (E12): each such link was resolved by file
// name with a scan of every document, sorted by path on every call, so one request over all links
// (references, rename, the diagnostics of the files linking to an id being typed) cost n² log n.
// Checked as a growth ratio of this process's CPU (the server runs in-process over a real
// JSON-RPC connection, test/support/lsp.ts createLspPair), never a wall-clock bound.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyFixture } from '../../support/fixtures.js';
import { createLspPair, write, type LspPair } from '../../support/lsp.js';
import { growthRatioAsync } from '../../support/scaling.js';

const N = 150;
const FACTOR = 4;

/** `n` entries, each linking to the next by id and to a note that does not exist (resolved by file name). */
function workspace(n: number): string {
  const root = copyFixture('default');
  for (let i = 0; i < n; i++)
    write(
      root,
      `memory/entries/many-${i}.md`,
      `---\nid: many-${i}\ntype: learning\ntags: [scale]\n---\n\nSee [[many-${(i + 1) % n}]] and [[nowhere-${i % 7}]].\n`,
    );
  return root;
}

let small: LspPair;
let large: LspPair;

beforeAll(async () => {
  // No model: keyword recall, nothing to embed.
  const s = workspace(N);
  const l = workspace(N * FACTOR);
  small = createLspPair(s, { modelDir: join(s, 'no-model') });
  large = createLspPair(l, { modelDir: join(l, 'no-model') });
  await small.start();
  await large.start();
}, 120_000);

afterAll(async () => {
  for (const p of [small, large]) {
    await p?.close();
    if (p) rmSync(dirname(p.root), { recursive: true, force: true });
  }
});

it('references over every link grow linearly with the files, not with their square', async () => {
  const refs = (p: LspPair) => () =>
    p.client.sendRequest('textDocument/references', {
      textDocument: { uri: p.uri('memory/entries/many-1.md') },
      position: { line: 1, character: 5 },
      context: { includeDeclaration: false },
    });
  const found: any = await refs(large)();
  expect(found.map((l: any) => l.uri)).toEqual([large.uri('memory/entries/many-0.md')]);
  // Linear work is ≈ 4×; a scan and sort of all files per unresolved link is well over 16×.
  const ratio = await growthRatioAsync(refs(small), refs(large));
  expect(ratio, `cost ${FACTOR}× the files: ${ratio.toFixed(1)}×`).toBeLessThan(10);
}, 120_000);
