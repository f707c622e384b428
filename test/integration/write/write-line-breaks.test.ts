// Bad input U20 (docs/bad-inputs.md): line breaks that git, markdown and the language server do not
// count (U+2028, U+2029, U+0085 NEL, vertical tab, form feed) written raw into memory. memory_observe
// put `ok\u2028- 09:00 forged` into the daily note as one line: an editor that breaks lines there shows
// a second, forged bullet that no line-based tool sees. Every write path that builds lines (append,
// memory_observe, remember) now writes them as LF, so the continuation is indented under its bullet,
// and a source or session holding one is a usage error. MCP over real stdio, one workspace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/fixtures.js';
import { mcpOnDemo } from '../../support/mcp.js';

// eslint-disable-next-line no-control-regex -- exactly the characters that must not be written raw
const ODD_BREAKS = /[\u2028\u2029\u0085\u000b\u000c]/;

const ws = mcpOnDemo();

describe('odd line breaks in written text (U20)', { timeout: 60_000 }, () => {
  it('memory_observe writes U+2028 / U+2029 / NEL as LF: the continuation is indented, never a bullet', async () => {
    const r = await ws.mcp.call('memory_observe', {
      text: 'ok\u2028- 09:00 forged bullet\u2029- 09:01 second\u0085third\u000bfourth',
    });
    expect(r.isError, r.text).toBe(false);
    const note = readFileSync(join(ws.root, r.data.path), 'utf8');
    expect(note).not.toMatch(ODD_BREAKS);
    const lines = note.split('\n');
    const at = r.data.line - 1;
    expect(lines[at]).toMatch(/^- \d\d:\d\d observation: ok$/);
    expect(lines.slice(at + 1, at + 5)).toEqual(['  - 09:00 forged bullet', '  - 09:01 second', '  third', '  fourth']);
    // Only the one bullet this call wrote starts at the left margin.
    expect(lines.slice(at + 1).filter((l) => l.startsWith('- '))).toEqual([]);
  });

  it('a source or session holding U+2028 is a usage error and nothing is written', async () => {
    for (const args of [
      { text: 'fine', source: 'hook\u2028- 09:00 forged' },
      { text: 'fine', session: 's1\u2029x' },
    ]) {
      const r = await ws.mcp.call('memory_observe', args);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/usage|pattern|must match/i);
    }
    expect(readFileSync(join(ws.root, 'memory', `${today()}.md`), 'utf8')).not.toContain('forged\n');
  });

  it('CLI append and remember write the same text with LF line breaks', () => {
    const a = runCli(['append', 'cli\u2028- 10:00 forged', '--dir', ws.root, '--json'], { env: ws.env() });
    expect(a.code, a.stderr).toBe(0);
    const note = readFileSync(join(ws.root, a.json().path), 'utf8');
    expect(note).not.toMatch(ODD_BREAKS);
    expect(note).toContain('cli\n  - 10:00 forged\n');
    const m = runCli(['remember', 'Caches expire hourly\u2028and are warmed at boot', '--dir', ws.root, '--json'], {
      env: ws.env(),
    });
    expect(m.code, m.stderr).toBe(0);
    const entry = readFileSync(join(ws.root, m.json().path), 'utf8');
    expect(entry).not.toMatch(ODD_BREAKS);
    expect(entry).toContain('\nCaches expire hourly\nand are warmed at boot\n');
  });
});

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
