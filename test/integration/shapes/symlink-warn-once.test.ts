// Bad input U51 (docs/bad-inputs.md): the note about a symlink to a memory file the walk already
// takes (U39) was a warning on every walk, so a long-running MCP server printed it again for every
// tool call. Real processes: `gitmem mcp` over stdio and one-shot CLI runs, on a committed copy of the
// demo workspace with `memory/notes/alias.md -> ../MEMORY.md`. The server says it once; `doctor` (a
// process of its own) still says it.
import { appendFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, runCli, noModelEnv } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

const root = committedFixture('demo');
const env = noModelEnv(root);
let mcp: McpSession | undefined;
afterAll(async () => {
  await mcp?.close();
  rmSync(dirname(root), { recursive: true, force: true });
});

const NOTE = /skipped memory\/notes\/alias\.md: symlink to memory\/MEMORY\.md, indexed there/g;
const count = (text: string) => (text.match(NOTE) ?? []).length;

describe('the note about a linked copy is said once a session (U51)', () => {
  it('an MCP server says it once over many walks; doctor still says it', async () => {
    mkdirSync(join(root, 'memory/notes'), { recursive: true });
    symlinkSync('../MEMORY.md', join(root, 'memory/notes/alias.md'));
    mcp = await startMcp(root, env);
    for (let i = 0; i < 4; i++) {
      // An edit between calls, so each call walks and reads again.
      appendFileSync(join(root, 'memory/MEMORY.md'), `\n- capybaraquokka${i} lives near rivers\n`);
      const r = await mcp.call('memory_recall', { query: `capybaraquokka${i}`, mode: 'keyword' });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.results.map((x: { path: string }) => x.path)).toEqual(['memory/MEMORY.md']);
    }
    expect(count(mcp.stderr()), mcp.stderr()).toBe(1);

    const doctor = runCli(['doctor', '--dir', root], { env });
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(count(doctor.stderr + doctor.stdout)).toBe(1);
  });
});
