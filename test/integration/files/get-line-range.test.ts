// H10: `get path:range` with a range that is not one. On a memory file that is there, `:abc`, `:3-`,
// `:-3` or `:2:3` were answered "no memory with id "memory/MEMORY.md:abc"" (entry.not-found, exit
// 1), which says the file is missing, and a reversed `:5-2` was "outside memory/MEMORY.md (1-9)"
// for lines that are inside it. Now each is a usage error (exit 2) that names what is wrong with the
// range, with a hint of the form; the CLI and MCP `memory_get` share it. A ref on a file that is not
// there still goes to the id lookup. Real CLI processes and a real `gitmem mcp` over stdio.
import { describe, expect, it } from 'vitest';
import { mcpOnDemo } from '../../support/mcp.js';
import { runCli } from '../../support/fixtures.js';

const ctx = mcpOnDemo();
const get = (ref: string) => runCli(['get', ref, '--no-host', '--json', '--dir', ctx.root], { env: ctx.env() });

describe('H10 get with a line range that is not one', () => {
  it('names the malformed range of a file that is there (usage, exit 2)', () => {
    for (const range of ['abc', '3-', '-3', '2:3', '']) {
      const r = get(`memory/MEMORY.md:${range}`);
      expect(r.code, `${range}: ${r.stderr}`).toBe(2);
      expect(r.json().error).toMatchObject({
        code: 'usage',
        message: `${JSON.stringify(range)} is not a line range of memory/MEMORY.md`,
      });
      expect(r.json().error.hint).toMatch(/path:START-END/);
    }
  });

  it('says a reversed range ends before it starts, and line 0 that lines start at 1', () => {
    const reversed = get('memory/MEMORY.md:5-2');
    expect(reversed.code).toBe(2);
    expect(reversed.json().error.message).toMatch(
      /^line range 5-2 ends before it starts \(memory\/MEMORY\.md has lines 1-\d+\)$/,
    );
    const zero = get('memory/MEMORY.md:0');
    expect(zero.code).toBe(2);
    expect(zero.json().error.message).toMatch(/^line numbers start at 1, got 0 for memory\/MEMORY\.md/);
    expect(get('memory/MEMORY.md:9999').json().error.message).toMatch(/^line range 9999-9999 is outside/);
    expect(get('memory/MEMORY.md:1-2').code).toBe(0);
  });

  it('keeps the id lookup for a file that is not there, and answers the same over MCP', async () => {
    const missing = get('memory/nope.md:abc');
    expect(missing.code).toBe(1);
    expect(missing.json().error.code).toBe('entry.not-found');
    const r = await ctx.mcp.call('memory_get', { id: 'memory/MEMORY.md:abc' });
    expect(r.isError, r.text).toBe(true);
    expect(r.data.error).toMatchObject({ code: 'usage', message: '"abc" is not a line range of memory/MEMORY.md' });
  });
});
