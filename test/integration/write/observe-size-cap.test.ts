// Bad input U66 (docs/bad-inputs.md): MCP memory_observe applies the one write cap
// (core/write-limits.ts, 100,000 characters) to the text the caller sent, as `gitmem append`,
// memory_remember, the language server and ACE do. Before: the cap was checked after the tool had
// added its `role: ` prefix and `(source: … · session: …)` line, so a 99,990-character text (which the
// tool's own schema advertises as allowed) was refused with "text is 100,4xx characters", a figure
// the caller never sent, and up to ~450 characters of the cap were lost to the reference line.
// Real `gitmem mcp` over stdio and a real CLI process, on a committed copy of the demo workspace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS } from '../../../src/core/write-limits.js';
import { runCli } from '../../support/fixtures.js';
import { mcpOnDemo } from '../../support/mcp.js';

const ws = mcpOnDemo();
/** Distinct words, `n` characters, no trailing space. */
const words = (n: number, seed: string) => {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `${seed}${i} `;
  return s.slice(0, n - 1) + 'z';
};
const longRef = { role: 'observation', source: 's'.repeat(200), session: 'x'.repeat(200) };

describe('U66: memory_observe caps the text the caller sent', () => {
  it('a text at the cap is taken with the longest role, source and session, as `gitmem append` takes it', async () => {
    const text = words(MAX_TEXT_CHARS, 'obs');
    const r = await ws.mcp.call('memory_observe', { text, ...longRef });
    expect(r.isError, r.text.slice(0, 300)).toBe(false);
    const note = readFileSync(join(ws.root, r.data.path), 'utf8');
    expect(note).toContain(`observation: ${text}\n  (source: ${longRef.source} · session: ${longRef.session})`);
    const a = runCli(['append', words(MAX_TEXT_CHARS, 'app'), '--dir', ws.root], { env: ws.env() });
    expect(a.code, a.stderr).toBe(0);
  });

  it('a text just under the cap is taken with the defaults too (before: refused with a figure it was not)', async () => {
    const r = await ws.mcp.call('memory_observe', { text: words(MAX_TEXT_CHARS - 10, 'near') });
    expect(r.isError, r.text.slice(0, 300)).toBe(false);
  });

  it('over the cap: the error names the length the caller sent, and nothing is appended', async () => {
    const first = await ws.mcp.call('memory_observe', { text: 'a short turn first, so the note exists' });
    const path = join(ws.root, first.data.path);
    const before = readFileSync(path, 'utf8');
    const r = await ws.mcp.call('memory_observe', { text: words(MAX_TEXT_CHARS + 1, 'over'), ...longRef });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('text is 100,001 characters, over the 100,000-character cap');
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});
