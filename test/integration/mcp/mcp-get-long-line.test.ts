// Bad input U61 (docs/bad-inputs.md): MCP `memory_get` pages through a line longer than a reply.
// Before, `path:3-3` of a 200,000-character line came back cut at 64 KB with `truncated` and no
// `next`: the rest of the line could not be read over MCP at all. Now `next` is a cursor
// `path:line.column-end` (column: 1-based, UTF-16 code units) and the pages join to the line.
// Real `gitmem mcp` over stdio on a committed copy of the demo workspace.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpOnDemo } from '../../support/mcp.js';

const demo = mcpOnDemo();
const path = 'memory/2026-11-27.md';
// Multi-byte and astral characters, so a cut at the byte cap lands inside them unless it takes care.
const long = Array.from({ length: 20_000 }, (_, i) => `w${i}é😀 `).join('');
const write = () => writeFileSync(join(demo.root, path), `# 2026-11-27\n\n${long}\nafter the long line\n`);

type Page = { text: string; truncated: boolean; next?: string; startLine: number; endLine: number };
async function pages(first: string): Promise<Page[]> {
  const out: Page[] = [];
  for (let ref: string | undefined = first; ref !== undefined && out.length < 50;) {
    const r = await demo.mcp.call('memory_get', { id: ref });
    expect(r.isError, r.text).toBe(false);
    out.push(r.data as Page);
    ref = (r.data as Page).next;
  }
  return out;
}
/** The pages' texts as one: a page that ended inside a line goes on in that line, else on the next. */
const joined = (ps: Page[]) =>
  ps.map((p, i) => (i > 0 && !/:\d+\.\d+-/.test(ps[i - 1]!.next!) ? '\n' : '') + p.text).join('');

describe('U61: memory_get pages inside a line longer than one reply', () => {
  it('pages of one long line join to the whole line, each under the byte cap', async () => {
    write();
    const got = await pages(`${path}:3-3`);
    expect(got.length).toBeGreaterThan(1);
    expect(joined(got)).toBe(long);
    for (const p of got) expect(Buffer.byteLength(p.text)).toBeLessThanOrEqual(64 * 1024);
    expect(got.slice(0, -1).every((p) => p.truncated && /:3\.\d+-3$/.test(p.next!))).toBe(true);
    expect(got.at(-1)!.truncated).toBe(false);
  });

  it('paging a range goes on past the long line to the lines after it', async () => {
    write();
    const got = await pages(`${path}:3-4`);
    expect(joined(got)).toBe(`${long}\nafter the long line`);
    expect(got.at(-1)!.endLine).toBe(4);
  });

  it('a column past the end of its line is a usage error', async () => {
    write();
    const r = await demo.mcp.call('memory_get', { id: `${path}:4.500-4` });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/column 500 is past the end of line 4/);
  });
});
