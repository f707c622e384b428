// H09: an expected content hash that is not one. `gitmem state set|new|absorb --expect-hash` and MCP
// `memory_state` compared whatever they were given with the file's hash, so a typo, a cut copy or
// upper-case hex was answered as a concurrent change (fs.conflict, exit 1, "changed since it was
// read"), which tells a retry loop to read and write again; and `--expect-hash none` ("must not
// exist", as `append` takes it) was a conflict with every file, even a missing one. Now the form is
// checked before anything is read (usage, exit 2) on every path, and "none" means null everywhere.
// Real CLI processes and a real `gitmem mcp` over stdio.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpOnDemo } from '../../support/mcp.js';
import { runCli } from '../../support/fixtures.js';

const ctx = mcpOnDemo();
const BAD = ['zz', 'ABCDEF'.repeat(10) + 'ABCD', '0'.repeat(63)];

describe('H09 --expect-hash / expectedHash that is not a content hash', () => {
  it('is a usage error for state set, state new and append; the file stays as it was', () => {
    const state = join(ctx.root, 'memory', 'CURRENT_STATE.md');
    const before = readFileSync(state, 'utf8');
    for (const bad of BAD) {
      for (const args of [
        ['state', 'set', '--step', 'changed', '--expect-hash', bad],
        ['state', 'new', '--expect-hash', bad],
        ['append', 'a bullet', '--expect-hash', bad],
      ]) {
        const r = runCli([...args, '--dir', ctx.root, '--json'], { env: ctx.env() });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.json().error.code).toBe('usage');
        expect(r.json().error.message).toMatch(/^--expect-hash takes a 64-digit hex content hash or "none", got "/);
      }
    }
    expect(readFileSync(state, 'utf8')).toBe(before);
  });

  it('takes "none" as "must not exist" for state set, as append does', () => {
    const state = join(ctx.root, 'memory', 'CURRENT_STATE.md');
    const first = runCli(['state', 'set', '--step', 'one', '--expect-hash', 'none', '--dir', ctx.root, '--json'], {
      env: ctx.env(),
    });
    expect(first.code).toBe(1); // the file is there: a real conflict
    expect(first.json().error.code).toBe('fs.conflict');
    rmSync(state);
    const created = runCli(['state', 'set', '--step', 'two', '--expect-hash', 'none', '--dir', ctx.root, '--json'], {
      env: ctx.env(),
    });
    expect(created.code, created.stderr).toBe(0);
    expect(existsSync(state)).toBe(true);
    const hash = created.json().hash as string;
    const next = runCli(['state', 'set', '--step', 'three', '--expect-hash', hash, '--dir', ctx.root, '--json'], {
      env: ctx.env(),
    });
    expect(next.code, next.stderr).toBe(0);
  });

  it('is a usage error over MCP memory_state, not a conflict', async () => {
    for (const bad of BAD) {
      const r = await ctx.mcp.call('memory_state', { action: 'set', step: 'x', expectedHash: bad });
      expect(r.isError, r.text).toBe(true);
      expect(r.data.error.code, r.text).toBe('usage');
    }
  });
});
